import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/settings.holidays';
import type { loader as rootLoader } from '~/app/root';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, DatePicker, TextField, dateValueOf, useToast } from '~/app/components/ui';
import { formatDate, type DateFormat } from '~/core/i18n/number-format';
import { hasAccess } from '~/core/permissions/access';
import { addHoliday, deleteHoliday, listHolidays, type CompanyHoliday } from '~/core/work-orders/holidays.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → company holidays (spec section 3; one per date, section 5): the days the company is
 * closed, a year at a time. The planning board marks them.
 */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const year = new URL(request.url).searchParams.get('year') ?? undefined;
  return run(context, async (ctx) => ({
    ...(await listHolidays(ctx, { year })),
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
  }));
}

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (form.intent === 'delete') await deleteHoliday(ctx, form.id);
      else await addHoliday(ctx, { date: form.date, name: form.name });
      return data<Result>({ ok: true, intent: form.intent ?? 'add' });
    });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.holidays', null, { within: 'settings.title' });

export default function HolidaysPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const dateFormat = (useRouteLoaderData<typeof rootLoader>('root')?.dateFormat as DateFormat) ?? 'YYYY-MM-DD';
  const fetcher = useFetcher<Result>();
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<CompanyHoliday | null>(null);
  const result = useFetcherResult(fetcher, (result) => {
    if ('ok' in result) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
      if (result.intent !== 'delete') {
        setDate('');
        setName('');
      }
      setRemoving(null);
    } else if (result.code !== 'VALIDATION_FAILED') toast.show({ kind: 'error', message: tc(result.code) });
  });
  const fields = result && !('ok' in result) ? (result.fields ?? {}) : {};
  const err = (k: string) => fields[k]?.map((c) => tc(c));

  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {tc('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('holidays.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('holidays.intro')}</p>
      </div>
      <section
        aria-labelledby="holidays-year"
        className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <div className="flex items-center gap-2">
          <Link
            to={`?year=${d.year - 1}`}
            className="rounded px-2 py-1 text-brand-700 underline"
            title={t('holidays.previousYear')}
          >
            <span aria-hidden="true">‹ </span>
            {d.year - 1}
          </Link>
          <h2 id="holidays-year" className="text-lg font-semibold">
            {d.year}
          </h2>
          <Link
            to={`?year=${d.year + 1}`}
            className="rounded px-2 py-1 text-brand-700 underline"
            title={t('holidays.nextYear')}
          >
            {d.year + 1}
            <span aria-hidden="true"> ›</span>
          </Link>
        </div>
        {d.holidays.length === 0 ? (
          <p className="mt-3 rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
            {t('holidays.empty')}
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-label={t('holidays.title')}>
            {d.holidays.map((h) => (
              <li key={h.id} className="flex items-center justify-between gap-3 py-2">
                <span>
                  <span className="tabular-nums">{formatDate(h.date, dateFormat)}</span>{' '}
                  <span className="font-medium">{h.name}</span>
                </span>
                {d.canEdit ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onPress={() => setRemoving(h)}
                    aria-label={t('holidays.deleteLabel', { name: h.name })}
                  >
                    {t('holidays.delete')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {d.canEdit ? (
          <fetcher.Form method="post" className="mt-4 grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end" noValidate>
            <input type="hidden" name="intent" value="add" />
            <DatePicker
              label={t('holidays.date')}
              name="date"
              isRequired
              value={dateValueOf(date)}
              onChange={(v) => setDate(v?.toString() ?? '')}
              errorMessage={err('date')}
            />
            <TextField
              label={t('holidays.name')}
              name="name"
              value={name}
              onChange={setName}
              errorMessage={err('name')}
            />
            <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
              {t('holidays.add')}
            </Button>
          </fetcher.Form>
        ) : null}
      </section>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t('holidays.deleteTitle')}
        message={
          removing
            ? t('holidays.deleteMessage', { name: removing.name, date: formatDate(removing.date, dateFormat) })
            : undefined
        }
        variant="danger"
        confirmLabel={t('holidays.delete')}
        isPending={fetcher.state !== 'idle'}
        onConfirm={() => {
          if (removing) void fetcher.submit({ intent: 'delete', id: removing.id }, { method: 'post' });
        }}
      />
    </div>
  );
}
