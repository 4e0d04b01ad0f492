import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/settings.time-reports';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { tagLabel } from '~/app/lib/time-tag-label';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import {
  CodeDeleteDialogs,
  CodeDialog,
  CodeFields,
  CodeList,
  CodeListHeader,
  postedCode,
  useCodeList,
  type CodeDraft,
  type CodeListResult,
} from '~/app/components/settings/code-list';
import { Button, Select, TextField } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
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
import { pageTitle } from '~/app/lib/page-title';

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

type Result = CodeListResult;

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
        const tag = { ...postedCode(f), defaultStart: f.defaultStart, defaultEnd: f.defaultEnd };
        if (f.id) await updateTimeReportTag(ctx, { ...tag, id: f.id });
        else await createTimeReportTag(ctx, tag);
      }
      return data<Result>({ ok: true, intent: f.intent ?? 'tag' });
    });
  } catch (e) {
    return actionError(e);
  }
}

interface Draft extends CodeDraft<TimeTagType> {
  defaultStart: string;
  defaultEnd: string;
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

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.timeReports', null, { within: 'settings.title' });

export default function TimeReportSettingsPage({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('timetags');
  const { t: tc } = useTranslation();
  const navigation = useNavigation();
  const settingsResult = useActionData<Result>();
  useActionToast(settingsResult);
  const { fetcher, busy, draft, setDraft, deleting, setDeleting, inUse, setInUse, err, set, openDraft, confirmDelete } =
    useCodeList<Draft, TimeReportTag, { tag: TimeReportTag; count: number }>({
      toInUse: (tag, result) => ({ tag, count: result.usedBy?.timeReports ?? 0 }),
      closeDeleteOnInUse: false,
    });
  const [mode, setMode] = useState(d.settings.mode);
  const saving = navigation.state === 'submitting';
  const settingsFields = settingsResult && !('ok' in settingsResult) ? (settingsResult.fields ?? {}) : {};
  const settingsErr = (k: string) => settingsFields[k]?.map((c) => tc(c));
  const disabled = !d.canEdit;
  const label = (tag: { code: string; name: string | null }) => tagLabel(t, tag);
  const weekday = (i: number) =>
    new Intl.DateTimeFormat(t('locale'), { weekday: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i, 12)), // 1 January 2024 was a Monday
    );

  function openNew(type: TimeTagType) {
    openDraft({
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
        {TYPE_ORDER.map((type) => (
          <div key={type} className="mt-5" data-testid={`tags-${type}`}>
            <CodeListHeader
              heading={<h3 className="font-medium">{t(`type.${type}`)}</h3>}
              canEdit={d.canEdit}
              addLabel={t('tags.add')}
              onAdd={() => openNew(type)}
            />
            <CodeList
              codes={d.tags.filter((tag) => tag.type === type)}
              label={t(`type.${type}`)}
              empty={t('tags.empty')}
              spacing="mt-2"
              canEdit={d.canEdit}
              busy={busy}
              editText={t('tags.edit')}
              deleteText={t('tags.delete')}
              actions={(tag) => ({
                editLabel: t('tags.editLabel', { label: `${tag.code} ${label(tag)}` }),
                toggleLabel: t(tag.active ? 'tags.setInactiveLabel' : 'tags.setActiveLabel', {
                  label: `${tag.code} ${label(tag)}`,
                }),
                toggleText: t(tag.active ? 'tags.setInactive' : 'tags.setActive'),
                deleteLabel: t('tags.deleteLabel', { label: `${tag.code} ${label(tag)}` }),
              })}
              onEdit={(tag) => openDraft(toDraft(tag))}
              onToggle={(tag) => setActive(tag, !tag.active)}
              onDelete={setDeleting}
            >
              {(tag) => (
                <>
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
                </>
              )}
            </CodeList>
          </div>
        ))}
      </section>

      <CodeDialog
        title={draft?.id ? t('tags.editTitle', { code: draft.code }) : t('tags.addTitle')}
        draft={draft}
        onClose={() => setDraft(null)}
        busy={busy}
        onSubmit={saveTag}
        cancelLabel={t('tags.cancel')}
        saveLabel={t('tags.save')}
      >
        {(draft) => (
          <CodeFields
            draft={draft}
            set={set}
            err={err}
            labels={{
              code: t('tags.code'),
              codeHelp: t('tags.codeHelp'),
              type: t('tags.type'),
              name: t('tags.name'),
              nameHelp: t('tags.nameHelp'),
              payrollCode: t('tags.payrollCode'),
              payrollCodeHelp: t('tags.payrollCodeHelp'),
              sortOrder: t('tags.sortOrder'),
              active: t('tags.active'),
            }}
            types={TIME_TAG_TYPES.map((type) => ({ id: type, label: t(`type.${type}`) }))}
            namePlaceholder={draft.code ? t(`code.${draft.code}`, { defaultValue: '' }) : undefined}
            normalizeCode={(v) => v.toUpperCase()}
            middle={
              draft.type === 'attend' ? (
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
              ) : null
            }
          />
        )}
      </CodeDialog>

      <CodeDeleteDialogs
        busy={busy}
        deleteOpen={deleting !== null}
        onDeleteClose={() => setDeleting(null)}
        deleteTitle={t('tags.deleteTitle')}
        deleteMessage={deleting ? t('tags.deleteMessage', { code: deleting.code, label: label(deleting) }) : undefined}
        deleteLabel={t('tags.delete')}
        onDelete={confirmDelete}
        inUseOpen={inUse !== null}
        onInUseClose={() => setInUse(null)}
        inUseTitle={t('tags.inUseTitle')}
        inUseMessage={inUse ? t('tags.inUseMessage', { code: inUse.tag.code, count: inUse.count }) : undefined}
        deactivateLabel={t('tags.setInactive')}
        onDeactivate={() => {
          if (inUse) setActive(inUse.tag, false);
        }}
      />
    </div>
  );
}
