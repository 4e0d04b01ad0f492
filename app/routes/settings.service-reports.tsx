import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useFetcher } from 'react-router';
import type { Route } from './+types/settings.service-reports';
import { TemplateEditor, type TemplateEditorResult } from '~/app/components/service-reports/template-editor';
import { Button, ConfirmDialog, useToast } from '~/app/components/ui';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { pageTitle } from '~/app/lib/page-title';
import { AppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import {
  deleteTemplate,
  listTemplates,
  saveTemplate,
  SERVICE_REPORT_ACCESS,
} from '~/core/service-reports/service-report.service';
import {
  getServiceReportSettings,
  updateServiceReportSettings,
  type ServiceReportSettings,
} from '~/core/service-reports/service-report-settings';
import type { ServiceReportTemplate } from '~/core/service-reports/service-report.types';

/** Whether generated reports are published to the customer zone: one switch, saved on its own. */
function PublishingForm({ settings, canEdit }: { settings: ServiceReportSettings; canEdit: boolean }) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const saver = useFetcher<TemplateEditorResult>();
  useFetcherResult(saver, (result) =>
    toast.show(
      result.ok
        ? { kind: 'success', message: tc('SUCCESSFULLY_SAVED') }
        : { kind: 'error', message: tc(result.code ?? 'FAILED_TO_SAVE') },
    ),
  );
  return (
    <section
      aria-labelledby="sr-publishing"
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      data-testid="report-publishing"
    >
      <h2 id="sr-publishing" className="font-medium">
        {t('settings.publishing.title')}
      </h2>
      <saver.Form method="post" className="mt-2 grid gap-3" key={String(settings.publishToCustomerZone)}>
        <input type="hidden" name="intent" value="publishing" />
        <label className="flex min-h-11 items-center gap-3 text-sm">
          <input
            type="checkbox"
            name="publishToCustomerZone"
            defaultChecked={settings.publishToCustomerZone}
            disabled={!canEdit}
            aria-describedby="sr-publishing-help"
            className="size-5 shrink-0 accent-brand-600"
          />
          {t('settings.publishing.label')}
        </label>
        <p id="sr-publishing-help" className="text-sm text-slate-600">
          {t('settings.publishing.help')}
          {settings.customerZoneOn ? '' : ` ${t('settings.publishing.zoneOff')}`}
        </p>
        {canEdit ? (
          <div>
            <Button type="submit" variant="secondary" isPending={saver.state !== 'idle'}>
              {t('settings.publishing.save')}
            </Button>
          </div>
        ) : null}
      </saver.Form>
    </section>
  );
}

/**
 * Settings → service reports (issue 32; app module `servicereports`): the report templates with
 * their pages and fields, for work types or on demand. Read with settings:read, changed with
 * instance:edit. A template that reports use is not deleted: the answer offers to deactivate it.
 */
export const middleware = guard(SERVICE_REPORT_ACCESS.settingsRead);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const [settings, publishing] = await run(
    context,
    async (ctx) => [await listTemplates(ctx), await getServiceReportSettings(ctx)] as const,
  );
  return { ...settings, publishing, canEdit: hasAccess(auth, SERVICE_REPORT_ACCESS.settingsEdit) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    if (intent === 'publishing') {
      await run(context, (ctx) =>
        updateServiceReportSettings(ctx, { publishToCustomerZone: form.get('publishToCustomerZone') === 'on' }),
      );
      return data<TemplateEditorResult>({ ok: true, intent });
    }
    if (intent === 'delete' || intent === 'deactivate' || intent === 'activate') {
      await run(context, (ctx) => deleteTemplate(ctx, { id: form.get('id'), type: intent }));
      return data<TemplateEditorResult>({ ok: true, intent });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(String(form.get('payload') ?? '{}'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 400, { fields: { _: ['ERROR_INVALID_VALUE'] } });
    }
    const saved = await run(context, (ctx) => saveTemplate(ctx, payload));
    return data<TemplateEditorResult>({ ok: true, intent, id: saved.id });
  } catch (e) {
    return actionError<TemplateEditorResult>(e, { intent });
  }
}

export const handle = pageTitle('settings.serviceReports', null, { within: 'settings.title' });

export default function ServiceReportSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const { templates, workTypes, publishing, canEdit } = loaderData;
  const toast = useToast();
  const [editing, setEditing] = useState<ServiceReportTemplate | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ServiceReportTemplate | null>(null);
  /** A template the delete was refused for: offered to be deactivated instead. */
  const [inUse, setInUse] = useState<ServiceReportTemplate | null>(null);
  const remover = useFetcher<TemplateEditorResult>();
  /** The template the last delete was sent for: the confirmation has closed by the time it answers. */
  const acting = useRef<ServiceReportTemplate | null>(null);
  const typeName = new Map(workTypes.map((w) => [w.id, w.name]));

  useFetcherResult(remover, (result) => {
    const target = acting.current;
    setDeleting(null);
    setInUse(null);
    if (result.ok) {
      toast.show({
        kind: 'success',
        message: tc(result.intent === 'delete' ? 'SUCCESSFULLY_DELETED' : 'SUCCESSFULLY_SAVED'),
      });
    } else if (result.code === 'SERVICE_REPORT_TEMPLATE_IN_USE' && target) {
      setInUse(target);
    } else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
  });

  return (
    <div className="grid max-w-4xl gap-6">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          ← {t('settings.back')}
        </Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold">{t('settings.title')}</h1>
          {canEdit ? (
            <Button variant="primary" onPress={() => setEditing(null)}>
              {t('settings.new')}
            </Button>
          ) : null}
        </div>
        <p className="mt-1 text-sm text-slate-600">{t('settings.intro')}</p>
        {canEdit ? null : <p className="mt-1 text-sm text-slate-600">{t('settings.readOnly')}</p>}
      </div>

      <PublishingForm settings={publishing} canEdit={canEdit} />

      {templates.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          <p className="font-medium text-slate-800">{t('settings.empty')}</p>
          {canEdit ? <p className="mt-1">{t('settings.emptyHint')}</p> : null}
        </div>
      ) : (
        <ul className="grid gap-3" aria-label={t('settings.title')}>
          {templates.map((tpl) => (
            <li
              key={tpl.id}
              data-testid="report-template"
              className="flex flex-wrap items-start justify-between gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
            >
              <div className="min-w-0">
                <h2 className="font-medium break-words">
                  {tpl.title}
                  {tpl.active ? null : (
                    <span className="ms-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                      {t('settings.inactive')}
                    </span>
                  )}
                </h2>
                <p className="text-sm text-slate-600">
                  {tpl.onDemand
                    ? t('settings.onDemand')
                    : t('settings.workTypesOf', {
                        names: tpl.workTypeIds.map((id) => typeName.get(id) ?? '—').join(', '),
                      })}
                  {tpl.perDoor ? ` · ${t('settings.perDoor')}` : ''}
                  {' · '}
                  {t('settings.pageCount', { count: tpl.pages.length })}
                </p>
                {tpl.description ? <p className="mt-1 text-sm break-words text-slate-500">{tpl.description}</p> : null}
              </div>
              {canEdit ? (
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t('settings.editLabel', { title: tpl.title })}
                    onPress={() => setEditing(tpl)}
                  >
                    {t('settings.edit')}
                  </Button>
                  {tpl.active ? null : (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('settings.activateLabel', { title: tpl.title })}
                      onPress={() => void remover.submit({ intent: 'activate', id: tpl.id }, { method: 'post' })}
                    >
                      {t('settings.activate')}
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t('settings.deleteLabel', { title: tpl.title })}
                    onPress={() => setDeleting(tpl)}
                  >
                    {t('settings.delete')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {editing !== undefined ? (
        <TemplateEditor
          key={editing?.id ?? 'new'}
          template={editing}
          workTypes={workTypes}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t('settings.deleteTitle')}
        message={deleting ? t('settings.deleteConfirm', { title: deleting.title }) : undefined}
        confirmLabel={t('settings.delete')}
        variant="danger"
        isPending={remover.state !== 'idle'}
        onConfirm={() => {
          if (!deleting) return;
          acting.current = deleting;
          void remover.submit({ intent: 'delete', id: deleting.id }, { method: 'post' });
        }}
      />
      <ConfirmDialog
        isOpen={inUse !== null}
        onOpenChange={(open) => (open ? null : setInUse(null))}
        title={t('settings.inUseTitle')}
        message={inUse ? t('settings.inUseConfirm', { title: inUse.title }) : undefined}
        confirmLabel={t('settings.deactivate')}
        isPending={remover.state !== 'idle'}
        onConfirm={() => {
          if (inUse) void remover.submit({ intent: 'deactivate', id: inUse.id }, { method: 'post' });
        }}
      />
    </div>
  );
}
