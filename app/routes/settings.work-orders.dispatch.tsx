import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher } from 'react-router';
import type { Route } from './+types/settings.work-orders.dispatch';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Select, TextField, useToast } from '~/app/components/ui';
import { CloseIcon } from '~/app/components/ui/icons';

import { hasAccess } from '~/core/permissions/access';
import {
  DISPATCH_RULES_EDIT,
  dispatchUserOptions,
  listDispatchRules,
  replaceDispatchRules,
  type DispatchRule,
} from '~/core/work-orders/dispatch-rules.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → work orders → dispatch rules (spec section 3; app module dispatch_rules): rows of
 * day, start, end and the person new orders in that window go to, saved as one set. The rules of
 * section 5 are the server's (dispatch-rules.rules.ts); their errors show on the row.
 */
export const middleware = guard({ permission: 'settings:read', module: 'dispatch_rules' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    rules: (await listDispatchRules(ctx)).dispatchRules,
    users: await dispatchUserOptions(ctx),
    canEdit: hasAccess(auth, DISPATCH_RULES_EDIT),
  }));
}

interface SaveResult {
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
  overlaps?: Record<string, number[]>;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  let rules: unknown;
  try {
    rules = JSON.parse(String(form.get('payload') ?? '[]'));
  } catch {
    rules = null;
  }
  try {
    await run(context, (ctx) => replaceDispatchRules(ctx, { dispatchRules: rules }));
    return data<SaveResult>({ ok: true });
  } catch (e) {
    return actionError<SaveResult>(e, {}, (d) => ({ overlaps: d.overlaps as Record<string, number[]> | undefined }));
  }
}

interface Row {
  key: string;
  id: string | null;
  day: number;
  startTime: string;
  endTime: string;
  userId: string;
}
const toRows = (rules: DispatchRule[]): Row[] =>
  rules.map((r) => ({ key: r.id, id: r.id, day: r.day, startTime: r.startTime, endTime: r.endTime, userId: r.userId }));
let counter = 0;
const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.dispatchRules', null, { within: 'settings.title' });

export default function DispatchRulesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('dispatch');
  const { t: tc } = useTranslation();
  const { canEdit, users } = loaderData;
  const toast = useToast();
  const fetcher = useFetcher<SaveResult>();
  const [rows, setRows] = useState(() => toRows(loaderData.rules));
  // the answer's row numbers apply until the rows are added, removed or saved again
  const [stale, setStale] = useState<SaveResult | undefined>(undefined);
  const [removing, setRemoving] = useState<number | null>(null);

  const result = useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({ kind: 'success', message: t('saved') });
      setRows(toRows(loaderData.rules));
    } else if (result.code && result.code !== 'VALIDATION_FAILED')
      toast.show({ kind: 'error', message: tc(result.code) });
    else if (result.code) toast.show({ kind: 'error', message: tc('VALIDATION_FAILED') });
  });

  const answer = result && !result.ok && stale !== result ? result : undefined;
  const err = (i: number, field: string) => answer?.fields?.[`dispatchRules.${i}.${field}`]?.map((k) => tc(k));
  const overlapText = (i: number) => {
    const others = answer?.overlaps?.[String(i)];
    return others?.length ? [t('overlapsRows', { rows: others.map((j) => j + 1).join(', ') })] : undefined;
  };
  const set = (i: number, patch: Partial<Row>) =>
    setRows((r) => r.map((row, j) => (i === j ? { ...row, ...patch } : row)));
  const restructure = (next: Row[]) => {
    setRows(next);
    setStale(result);
  };
  const dayItems = DAYS.map((d) => ({ id: String(d), label: t(`day.${d}`) }));
  const userItems = users.map((u) => ({ id: u.id, label: u.name }));
  const payload = rows.map(({ day, startTime, endTime, userId }) => ({ day, startTime, endTime, userId }));
  const pendingRow = removing === null ? undefined : rows[removing];

  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings/work-orders" className="text-sm text-brand-700 underline">
          ← {t('back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
        {canEdit ? null : <p className="mt-1 text-sm text-slate-600">{t('readOnly')}</p>}
      </div>
      <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <fetcher.Form method="post" className="grid gap-3" noValidate>
          <input type="hidden" name="payload" value={JSON.stringify(payload)} />
          {rows.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t('empty')}</p>
          ) : (
            <ol className="grid gap-3" aria-label={t('list')}>
              {rows.map((row, i) => {
                const rowErrors = [...(overlapText(i) ?? []), ...(err(i, 'day') ?? [])];
                const wraps = row.endTime < row.startTime && /^\d\d:\d\d$/.test(row.endTime);
                return (
                  <li
                    key={row.key}
                    data-testid="dispatch-row"
                    aria-label={t('row', { row: i + 1 })}
                    className="flex flex-wrap items-start gap-x-4 gap-y-2 rounded-lg p-3 ring-1 ring-slate-200"
                  >
                    <span className="min-h-10 pt-7 text-sm font-medium text-slate-600" aria-hidden>
                      {i + 1}.
                    </span>
                    <Select
                      label={t('day')}
                      items={dayItems}
                      selectedKey={String(row.day)}
                      onSelectionChange={(k) => set(i, { day: Number(k) })}
                      isDisabled={!canEdit}
                      isRequired
                      className="w-40"
                    />
                    <TextField
                      label={t('start')}
                      value={row.startTime}
                      onChange={(startTime) => set(i, { startTime })}
                      isDisabled={!canEdit}
                      isRequired
                      maxLength={5}
                      inputMode="numeric"
                      placeholder="08:00"
                      description={t('timeHelp')}
                      errorMessage={err(i, 'startTime')}
                      className="w-32"
                    />
                    <TextField
                      label={t('end')}
                      value={row.endTime}
                      onChange={(endTime) => set(i, { endTime })}
                      isDisabled={!canEdit}
                      isRequired
                      maxLength={5}
                      inputMode="numeric"
                      placeholder="17:00"
                      description={wraps ? t('wraps') : t('timeHelp')}
                      errorMessage={err(i, 'endTime')}
                      className="w-32"
                    />
                    <Select
                      label={t('person')}
                      items={userItems}
                      selectedKey={row.userId || null}
                      onSelectionChange={(k) => set(i, { userId: k === null ? '' : String(k) })}
                      isDisabled={!canEdit}
                      isRequired
                      errorMessage={err(i, 'userId')}
                      className="min-w-48 flex-1"
                    />
                    {canEdit ? (
                      <span className="pt-6">
                        <Button
                          size="sm"
                          variant="ghost"
                          isIconOnly
                          aria-label={t('remove', { row: i + 1 })}
                          onPress={() => (row.id ? setRemoving(i) : restructure(rows.filter((_, j) => j !== i)))}
                        >
                          <CloseIcon aria-hidden className="size-4" />
                        </Button>
                      </span>
                    ) : null}
                    {rowErrors.length ? (
                      <p role="alert" className="basis-full text-sm text-red-700">
                        {rowErrors.join(' ')}
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          )}
          {canEdit ? (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                onPress={() =>
                  restructure([
                    ...rows,
                    { key: `new-${++counter}`, id: null, day: 1, startTime: '', endTime: '', userId: '' },
                  ])
                }
              >
                {t('add')}
              </Button>
              <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
                {t('save')}
              </Button>
            </div>
          ) : null}
        </fetcher.Form>
      </section>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={t('removeTitle')}
        message={
          pendingRow && removing !== null
            ? t('removeConfirm', {
                row: removing + 1,
                day: t(`day.${pendingRow.day}`),
                start: pendingRow.startTime,
                end: pendingRow.endTime,
              })
            : undefined
        }
        confirmLabel={t('removeButton')}
        variant="danger"
        onConfirm={() => {
          if (removing !== null) restructure(rows.filter((_, j) => j !== removing));
          setRemoving(null);
        }}
      />
    </div>
  );
}
