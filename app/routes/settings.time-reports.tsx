import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useFetcher, useNavigation } from 'react-router';
import type { Route } from './+types/settings.time-reports';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { tagLabel } from '~/app/lib/time-tag-label';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { Button, ConfirmDialog, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { cx } from '~/app/components/ui/class-names';
import { hasAccess } from '~/core/permissions/access';
import {
  createTimeReportTag,
  deleteTimeReportTag,
  listTimeReportTags,
  TIME_TAG_TYPES,
  updateTimeReportTag,
  type TimeReportTag,
  type TimeTagType,
} from '~/core/time-reports/tags.service';
import {
  saveTimeReportSettings,
  TIME_REPORT_MODES,
  timeReportSettings,
} from '~/core/time-reports/time-settings.service';
import { formatDuration } from '~/core/work-orders/time-rules';

/**
 * Settings → time reporting (spec sections 4 and 9; api-calls.md /timereports/conf/tags): how
 * people report their own time (mode), the scheduled time Monday to Sunday, the lock day, and the
 * time codes by type — add, change, set inactive, delete one no time report uses.
 */
export const middleware = guard({ permission: 'settings:read' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    settings: await timeReportSettings(ctx),
    tags: await listTimeReportTags(ctx, { includeInactive: true }),
    canEdit: hasAccess(auth, { permission: 'instance:edit' }),
  }));
}

type Result = { ok: true; intent: string } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const f = Object.fromEntries(form) as Record<string, string>;
  try {
    return await run(context, async (ctx) => {
      if (f.intent === 'settings')
        await saveTimeReportSettings(ctx, {
          mode: f.mode,
          scheduledMinutes: form.getAll('scheduled').map(String),
          lockDay: f.lockDay ?? '',
        });
      else if (f.intent === 'delete') await deleteTimeReportTag(ctx, f.id);
      else {
        const tag = {
          code: f.code,
          name: f.name,
          type: f.type,
          defaultStart: f.defaultStart,
          defaultEnd: f.defaultEnd,
          payrollCode: f.payrollCode,
          active: f.active,
          sortOrder: f.sortOrder || undefined,
        };
        if (f.id) await updateTimeReportTag(ctx, { ...tag, id: f.id });
        else await createTimeReportTag(ctx, tag);
      }
      return data<Result>({ ok: true, intent: f.intent ?? 'tag' });
    });
  } catch (e) {
    return actionError(e);
  }
}

interface Draft {
  id: string | null;
  code: string;
  name: string;
  type: TimeTagType;
  defaultStart: string;
  defaultEnd: string;
  payrollCode: string;
  active: boolean;
  sortOrder: string;
}

const toDraft = (tag: TimeReportTag): Draft => ({
  id: tag.id,
  code: tag.code,
  name: tag.name ?? '',
  type: tag.type,
  defaultStart: tag.defaultStart ?? '',
  defaultEnd: tag.defaultEnd ?? '',
  payrollCode: tag.payrollCode ?? '',
  active: tag.active,
  sortOrder: String(tag.sortOrder),
});
const submission = (x: Draft) => ({ intent: 'tag', ...x, id: x.id ?? '', active: String(x.active) });

/** The type sections in the order a time report offers them. */
const TYPE_ORDER: readonly TimeTagType[] = ['work', 'attend', 'absence'];

export default function TimeReportSettingsPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('timetags');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const navigation = useNavigation();
  const settingsResult = useActionData<Result>();
  useActionToast(settingsResult);
  const fetcher = useFetcher<Result>();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<TimeReportTag | null>(null);
  /** The tag whose delete is on its way: a 409 IN_USE offers to set it inactive instead. */
  const deleted = useRef<TimeReportTag | null>(null);
  const [inUse, setInUse] = useState<{ tag: TimeReportTag; count: number } | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [mode, setMode] = useState(d.settings.mode);
  useFetcherResult(fetcher, (result) => {
    const wasDeleting = deleted.current;
    deleted.current = null;
    if ('ok' in result) {
      setDraft(null);
      setDeleting(null);
      setInUse(null);
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else if (result.code === 'IN_USE' && wasDeleting) {
      setInUse({ tag: wasDeleting, count: result.usedBy?.timeReports ?? 0 });
    } else {
      setFields(result.fields ?? {});
      if (result.code !== 'VALIDATION_FAILED' || !draft) toast.show({ kind: 'error', message: tc(result.code) });
    }
  });
  const busy = fetcher.state !== 'idle';
  const saving = navigation.state === 'submitting';
  const err = (k: string) => fields[k]?.map((c) => tc(c));
  const settingsFields = settingsResult && !('ok' in settingsResult) ? (settingsResult.fields ?? {}) : {};
  const settingsErr = (k: string) => settingsFields[k]?.map((c) => tc(c));
  const disabled = !d.canEdit;
  const label = (tag: { code: string; name: string | null }) => tagLabel(t, tag);
  const set = (patch: Partial<Draft>) => setDraft((x) => (x ? { ...x, ...patch } : x));
  const weekday = (i: number) =>
    new Intl.DateTimeFormat(t('locale'), { weekday: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i, 12)), // 1 January 2024 was a Monday
    );

  function openNew(type: TimeTagType) {
    setFields({});
    setDraft({
      id: null,
      code: '',
      name: '',
      type,
      defaultStart: type === 'attend' ? '07:00' : '',
      defaultEnd: type === 'attend' ? '16:00' : '',
      payrollCode: '',
      active: true,
      sortOrder: '',
    });
  }
  function saveTag(e: FormEvent) {
    e.preventDefault();
    if (draft) void fetcher.submit(submission(draft), { method: 'post' });
  }
  function setActive(tag: TimeReportTag, active: boolean) {
    void fetcher.submit(submission({ ...toDraft(tag), active }), { method: 'post' });
  }

  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {tc('settings.title')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">{t('settings.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('settings.intro')}</p>
      </div>

      <section
        aria-labelledby="time-settings"
        className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <h2 id="time-settings" className="text-lg font-semibold">
          {t('settings.general')}
        </h2>
        {disabled ? <p className="mt-2 text-sm text-slate-600">{t('settings.readOnly')}</p> : null}
        <Form method="post" className="mt-4 grid gap-4" noValidate>
          <input type="hidden" name="intent" value="settings" />
          <Select
            label={t('settings.mode')}
            name="mode"
            items={TIME_REPORT_MODES.map((m) => ({ id: m, label: t(`settings.mode.${m}`) }))}
            selectedKey={mode}
            onSelectionChange={(k) => k && setMode(k as typeof mode)}
            description={t('settings.mode.help')}
            errorMessage={settingsErr('mode')}
            isDisabled={disabled}
          />
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium text-gray-900">{t('settings.scheduled')}</legend>
            <p className="text-sm text-slate-600">{t('settings.scheduledHelp')}</p>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
              {d.settings.scheduledMinutes.map((minutes, i) => (
                <TextField
                  key={i}
                  name="scheduled"
                  label={weekday(i)}
                  defaultValue={formatDuration(minutes)}
                  inputMode="decimal"
                  isDisabled={disabled}
                  errorMessage={
                    settingsErr(`scheduledMinutes.${i}`)?.length ? [t('settings.invalidDuration')] : undefined
                  }
                  className="[&_label]:first-letter:uppercase"
                />
              ))}
            </div>
          </fieldset>
          <TextField
            name="lockDay"
            label={t('settings.lockDay')}
            defaultValue={d.settings.lockDay === null ? '' : String(d.settings.lockDay)}
            inputMode="numeric"
            description={t('settings.lockDayHelp')}
            errorMessage={settingsErr('lockDay')}
            isDisabled={disabled}
            className="max-w-xs"
          />
          {d.canEdit ? (
            <div>
              <Button type="submit" variant="primary" isPending={saving}>
                {t('settings.save')}
              </Button>
            </div>
          ) : null}
        </Form>
      </section>

      <section aria-labelledby="time-tags" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 id="time-tags" className="text-lg font-semibold">
          {t('tags.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('tags.intro')}</p>
        {TYPE_ORDER.map((type) => {
          const tags = d.tags.filter((tag) => tag.type === type);
          return (
            <div key={type} className="mt-5" data-testid={`tags-${type}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-medium">{t(`type.${type}`)}</h3>
                {d.canEdit ? (
                  <Button size="sm" variant="secondary" onPress={() => openNew(type)}>
                    {t('tags.add')}
                  </Button>
                ) : null}
              </div>
              {tags.length === 0 ? (
                <p className="mt-2 rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
                  {t('tags.empty')}
                </p>
              ) : (
                <ul className="mt-2 divide-y divide-slate-100" aria-label={t(`type.${type}`)}>
                  {tags.map((tag) => (
                    <li
                      key={tag.id}
                      className={cx(
                        'flex flex-wrap items-center justify-between gap-2 py-2',
                        !tag.active && 'text-slate-500',
                      )}
                    >
                      <div className="min-w-0">
                        <span className="inline-block min-w-12 font-mono text-sm font-semibold">{tag.code}</span>{' '}
                        <span>{label(tag)}</span>
                        {tag.type === 'attend' && tag.defaultStart && tag.defaultEnd ? (
                          <span className="ml-2 text-sm tabular-nums text-slate-600">
                            {t('tags.defaultTimes', { start: tag.defaultStart, end: tag.defaultEnd })}
                          </span>
                        ) : null}
                        {tag.payrollCode ? (
                          <span className="ml-2 text-sm text-slate-600">
                            {t('tags.payrollCode')}: {tag.payrollCode}
                          </span>
                        ) : null}
                        {!tag.active ? (
                          <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                            {t('tags.inactive')}
                          </span>
                        ) : null}
                      </div>
                      {d.canEdit ? (
                        <div className="flex flex-wrap gap-1">
                          <Button
                            size="sm"
                            variant="secondary"
                            onPress={() => {
                              setFields({});
                              setDraft(toDraft(tag));
                            }}
                            aria-label={t('tags.editLabel', { label: `${tag.code} ${label(tag)}` })}
                          >
                            {t('tags.edit')}
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            isDisabled={busy}
                            onPress={() => setActive(tag, !tag.active)}
                            aria-label={t(tag.active ? 'tags.setInactiveLabel' : 'tags.setActiveLabel', {
                              label: `${tag.code} ${label(tag)}`,
                            })}
                          >
                            {t(tag.active ? 'tags.setInactive' : 'tags.setActive')}
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            onPress={() => setDeleting(tag)}
                            aria-label={t('tags.deleteLabel', { label: `${tag.code} ${label(tag)}` })}
                          >
                            {t('tags.delete')}
                          </Button>
                        </div>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </section>

      <Dialog
        title={draft?.id ? t('tags.editTitle', { code: draft.code }) : t('tags.addTitle')}
        isOpen={draft !== null}
        onOpenChange={(open) => (open ? undefined : setDraft(null))}
        isDismissable={!busy}
      >
        {draft ? (
          <form className="grid gap-3" onSubmit={saveTag} noValidate>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={t('tags.code')}
                value={draft.code}
                onChange={(v) => set({ code: v.toUpperCase() })}
                description={t('tags.codeHelp')}
                errorMessage={err('code')}
                isRequired
                autoFocus
              />
              <Select
                label={t('tags.type')}
                items={TIME_TAG_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) }))}
                selectedKey={draft.type}
                onSelectionChange={(k) => k && set({ type: k as TimeTagType })}
                errorMessage={err('type')}
              />
            </div>
            <TextField
              label={t('tags.name')}
              value={draft.name}
              onChange={(v) => set({ name: v })}
              placeholder={draft.code ? t(`code.${draft.code}`, { defaultValue: '' }) : undefined}
              description={t('tags.nameHelp')}
              errorMessage={err('name')}
            />
            {draft.type === 'attend' ? (
              <div className="grid grid-cols-2 gap-3">
                {(['defaultStart', 'defaultEnd'] as const).map((field) => (
                  <NativeField key={field} label={t(`tags.${field}`)}>
                    {(id) => (
                      <>
                        <input
                          id={id}
                          type="time"
                          required
                          value={draft[field]}
                          onChange={(e) => set({ [field]: e.target.value })}
                          aria-invalid={err(field) ? true : undefined}
                          aria-describedby={err(field) ? `${id}-err` : undefined}
                          className={NATIVE_INPUT_CLASS}
                        />
                        {err(field) ? (
                          <span id={`${id}-err`} className="text-sm text-red-700">
                            {err(field)!.join(' ')}
                          </span>
                        ) : null}
                      </>
                    )}
                  </NativeField>
                ))}
              </div>
            ) : null}
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={t('tags.payrollCode')}
                value={draft.payrollCode}
                onChange={(v) => set({ payrollCode: v })}
                description={t('tags.payrollCodeHelp')}
                errorMessage={err('payrollCode')}
              />
              <TextField
                label={t('tags.sortOrder')}
                value={draft.sortOrder}
                onChange={(v) => set({ sortOrder: v })}
                inputMode="numeric"
                errorMessage={err('sortOrder')}
              />
            </div>
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={draft.active}
                onChange={(e) => set({ active: e.target.checked })}
                className="h-5 w-5"
              />
              {t('tags.active')}
            </label>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onPress={() => setDraft(null)} isDisabled={busy}>
                {t('tags.cancel')}
              </Button>
              <Button type="submit" variant="primary" isPending={busy}>
                {t('tags.save')}
              </Button>
            </div>
          </form>
        ) : null}
      </Dialog>

      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('tags.deleteTitle')}
        message={deleting ? t('tags.deleteMessage', { code: deleting.code, label: label(deleting) }) : undefined}
        variant="danger"
        confirmLabel={t('tags.delete')}
        isPending={busy}
        onConfirm={() => {
          if (!deleting) return;
          deleted.current = deleting;
          void fetcher.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />

      <ConfirmDialog
        isOpen={inUse !== null}
        onOpenChange={(open) => (open ? undefined : setInUse(null))}
        title={t('tags.inUseTitle')}
        message={inUse ? t('tags.inUseMessage', { code: inUse.tag.code, count: inUse.count }) : undefined}
        confirmLabel={t('tags.setInactive')}
        isPending={busy}
        onConfirm={() => {
          if (inUse) setActive(inUse.tag, false);
        }}
      />
    </div>
  );
}
