import { useState } from 'react';
import { actionError } from '~/app/lib/action-error.server';
import { useTranslation } from 'react-i18next';
import { RecordFiles, useCanSeeFiles } from '~/app/components/files/record-files';
import { data, Link, redirect, useFetcher, useSearchParams, type ShouldRevalidateFunctionArgs } from 'react-router';
import type { Route } from './+types/inventory.objects.$id';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, LinkButton, Tabs, TextField } from '~/app/components/ui';
import { AccessCodes } from '~/app/components/objects/access-codes';
import { ArticlePrices } from '~/app/components/objects/article-prices';
import { BoFields, boFromForm } from '~/app/components/objects/bo-form';
import { ContactsEditor } from '~/app/components/objects/contacts-editor';
import { ObjectWorkOrders } from '~/app/components/objects/object-work-orders';
import { ObjectAgreementPanel } from '~/app/components/objects/object-agreement-panel';
import { HistoryList } from '~/app/components/objects/history-list';
import { SecurityForms } from '~/app/components/objects/security-forms';
import { ServiceLog } from '~/app/components/objects/service-log';
import { ObjectServiceReports } from '~/app/components/service-reports/object-reports';
import { nextInspectionOf, reportsOfObject } from '~/core/service-reports/service-report.service';
import { Card, useFieldErrors, useResultToast, type ActionResult } from '~/app/components/objects/shared';
import { SpecEditor } from '~/app/components/objects/spec-editor';
import {
  createCode,
  createCodeGroup,
  deleteCode,
  deleteCodeGroup,
  listCodeGroups,
  moveCode,
  moveCodeGroup,
  setCodeValue,
  updateCode,
  updateCodeGroup,
} from '~/core/business-objects/access-codes.service';
import {
  deleteBusinessObject,
  generateQrRef,
  getBusinessObject,
  listBusinessObjectHistory,
  setBusinessObjectContacts,
  updateBusinessObject,
} from '~/core/business-objects/business-object.service';
import {
  deleteObjectArticlePrice,
  listObjectArticlePrices,
  saveObjectArticlePrice,
} from '~/core/business-objects/object-articles.service';
import { isSecurityFormType } from '~/core/business-objects/security-forms';
import { addServiceLogEntry, listServiceLog, updateServiceLogEntry } from '~/core/business-objects/service-log.service';
import { getSecurityForms, saveSecurityForm, saveSpecification } from '~/core/business-objects/spec.service';
import type { Ctx } from '~/core/context';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { listObjectWorkOrders } from '~/core/work-orders/object-work-orders';
import { priceListOptions } from '~/core/registers/options';
import { pageTitle } from '~/app/lib/page-title';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';
import { regionChoices } from '~/core/regions/region.service';

/**
 * Inventory → one object (spec section 2, /inventory/objects/{id}): its fields, contacts, own
 * prices, specification, security-system forms, service log, access codes and history, one tab
 * each. Each tab saves through this route's action with its own intent; the agreement tab loads
 * and saves through its own resource route (inventory.objects.$id.agreement.tsx).
 */
export const middleware = guard({ permission: 'bo:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const can = (permission: Parameters<typeof hasAccess>[1]['permission'], module?: 'security') =>
    hasAccess(auth, { permission, module });
  const flags = {
    canEdit: can('bo:edit'),
    canDelete: can('bo:delete'),
    canServiceLog: can('bo:service_log'),
    canServiceReports: hasAccess(auth, { permission: 'bo:read', module: 'servicereports' }),
    canCodesView: can('bo:codes:view'),
    canCodesEdit: can('bo:codes:edit'),
    canViewLog: can('bo:codes:view_log'),
    canSecRead: can('security:bo_document:read', 'security'),
    canSecEdit: can('security:bo_document:edit', 'security'),
    canReadCustomers: can('customers:read'),
    canReadWorkOrders: can('workorders:read'),
    canCreateWorkOrder: can('workorders:create'),
  };
  try {
    return await run(context, async (ctx) => {
      const { bo } = await getBusinessObject(ctx, params.id);
      return {
        bo,
        flags,
        priceLists: flags.canEdit ? await priceListOptions(ctx) : [],
        regions: await regionChoices(ctx, bo.region),
        articles: (await listObjectArticlePrices(ctx, bo.id)).articles,
        serviceLog: await listServiceLog(ctx, bo.id),
        serviceReports: flags.canServiceReports ? await reportsOfObject(ctx, bo.id) : null,
        nextInspection: flags.canServiceReports ? await nextInspectionOf(ctx, bo.id) : null,
        history: await listBusinessObjectHistory(ctx, bo.id, { size: 20 }),
        codes: flags.canCodesView || flags.canCodesEdit ? (await listCodeGroups(ctx, bo.id)).groups : null,
        security: flags.canSecRead ? await getSecurityForms(ctx, bo.id) : null,
        // a scanned QR label lands here: the object's orders and a prefilled new one (spec section 2)
        workOrders: flags.canReadWorkOrders ? await listObjectWorkOrders(ctx, bo.id) : null,
      };
    });
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

function json(form: FormData, name: string): unknown {
  try {
    return JSON.parse(String(form.get(name)));
  } catch {
    return null;
  }
}

/** The intents of the page's forms, each one service call (two for a code's name and value). */
async function perform(ctx: Ctx, id: string, intent: string, form: FormData): Promise<ActionResult | Response> {
  const f = (name: string) => form.get(name) ?? undefined;
  switch (intent) {
    case 'save':
      await updateBusinessObject(ctx, { bo: { id, ...boFromForm(form) } });
      break;
    case 'delete':
      await deleteBusinessObject(ctx, id);
      return redirect('/inventory/objects?deleted=1');
    case 'qr-generate':
      await generateQrRef(ctx, id);
      break;
    case 'qr-set':
      await updateBusinessObject(ctx, { bo: { id, qrRef: f('qrRef') } });
      break;
    case 'contacts':
      await setBusinessObjectContacts(ctx, id, { contacts: json(form, 'contacts') });
      break;
    case 'price-save':
      await saveObjectArticlePrice(
        ctx,
        { businessObjectId: id, articleId: f('articleId'), price: f('price') },
        'create',
      );
      break;
    case 'price-delete':
      await deleteObjectArticlePrice(ctx, id, { articleId: f('articleId') });
      return { ok: true, intent, message: 'deleted' };
    case 'spec':
      await saveSpecification(ctx, id, { data: json(form, 'data') });
      break;
    case 'log-add':
      await addServiceLogEntry(ctx, id, { entry: f('entry') });
      break;
    case 'log-edit':
      await updateServiceLogEntry(ctx, id, f('logId'), { entry: f('entry') });
      break;
    case 'group-add':
      await createCodeGroup(ctx, id, { displayName: f('displayName') });
      break;
    case 'group-edit':
      await updateCodeGroup(ctx, id, { id: f('id'), displayName: f('displayName') });
      break;
    case 'group-move':
      await moveCodeGroup(ctx, id, { id: f('id'), direction: f('direction') });
      break;
    case 'group-delete':
      await deleteCodeGroup(ctx, id, f('id'));
      return { ok: true, intent, message: 'deleted' };
    case 'code-add':
      await createCode(ctx, id, { groupId: f('groupId'), displayName: f('displayName'), value: f('value') });
      break;
    case 'code-edit': {
      const codeId = f('id');
      if (f('displayName') !== f('previousName'))
        await updateCode(ctx, id, { id: codeId, displayName: f('displayName') });
      if (form.get('clearValue') === 'true') await setCodeValue(ctx, id, codeId, { id: codeId, value: '' });
      else if (f('value')) await setCodeValue(ctx, id, codeId, { id: codeId, value: f('value') });
      break;
    }
    case 'code-move':
      await moveCode(ctx, id, { id: f('id'), direction: f('direction') });
      break;
    case 'code-delete':
      await deleteCode(ctx, id, f('id'));
      return { ok: true, intent, message: 'deleted' };
    default: {
      const type = intent.startsWith('sec-') ? intent.slice(4) : null;
      if (!isSecurityFormType(type)) throw data('unknown intent', { status: 400 });
      const fields = Object.fromEntries([...form.entries()].filter(([k]) => k !== 'intent'));
      await saveSecurityForm(ctx, id, type, { data: fields });
    }
  }
  return { ok: true, intent };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  try {
    const result = await run(context, (ctx) => perform(ctx, params.id, intent, form));
    return result instanceof Response ? result : data<ActionResult>(result);
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

/** Switching tabs only changes ?tab=: nothing to load again. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // the agreement tab reloads its own data; nothing of the page changes
  if (formAction?.startsWith(`${currentUrl.pathname}/agreement`)) return false;
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (u: URL) => {
    const p = new URLSearchParams(u.search);
    p.delete('tab');
    return p.toString();
  };
  return strip(currentUrl) !== strip(nextUrl) && defaultShouldRevalidate;
}

/** Printing the page prints the open tab only (a cheap print view of a security form). */
const PRINT_CSS = `@media print {
  header, nav, [role='tablist'], .print\\:hidden { display: none !important; }
  main { padding: 0 !important; }
}`;

function Details({ loaderData }: { loaderData: Route.ComponentProps['loaderData'] }) {
  const { t } = useTranslation('objects');
  const { bo, flags } = loaderData;
  const saver = useFetcher<ActionResult>();
  const qr = useFetcher<ActionResult>();
  useResultToast(saver.state === 'idle' ? saver.data : undefined);
  useResultToast(qr.state === 'idle' ? qr.data : undefined);
  const qrErr = useFieldErrors(qr.data, 'bo');
  const [regenerating, setRegenerating] = useState(false);
  return (
    <div className="grid gap-6">
      <saver.Form method="post" noValidate className="grid gap-4">
        <input type="hidden" name="intent" value="save" />
        <BoFields
          isNew={false}
          isDisabled={!flags.canEdit}
          values={{
            ...bo,
            model: bo.model ? { id: bo.model.id, label: `${bo.model.code} – ${bo.model.name}` } : null,
            customer: bo.customerId
              ? { id: bo.customerId, label: [bo.customerNumber, bo.customerName].filter(Boolean).join(' – ') }
              : null,
          }}
          result={saver.data}
          regions={loaderData.regions}
          priceLists={
            loaderData.priceLists.length
              ? loaderData.priceLists
              : bo.priceListId
                ? [{ id: bo.priceListId, label: bo.priceListTitle ?? '' }]
                : []
          }
        />
        {flags.canEdit ? (
          <div>
            <Button type="submit" variant="primary" isPending={saver.state !== 'idle'}>
              {t('save')}
            </Button>
          </div>
        ) : null}
      </saver.Form>
      <section aria-labelledby="qr-heading" className="grid gap-3 border-t border-slate-200 pt-4">
        <h2 id="qr-heading" className="text-lg font-medium">
          {t('qr.title')}
        </h2>
        <p className="text-sm text-slate-600">{t('qr.help')}</p>
        {flags.canEdit ? (
          <qr.Form method="post" noValidate className="flex flex-wrap items-start gap-2" key={bo.qrRef ?? ''}>
            <input type="hidden" name="intent" value="qr-set" />
            <TextField
              name="qrRef"
              label={t('qr.reference')}
              defaultValue={bo.qrRef ?? ''}
              errorMessage={qrErr('qrRef')}
              className="min-w-48 flex-1"
            />
            <div className="flex flex-wrap gap-2 sm:pt-6">
              <Button type="submit" variant="secondary" isPending={qr.state !== 'idle'}>
                {t('qr.set')}
              </Button>
              <Button variant="secondary" onPress={() => setRegenerating(true)}>
                {t('qr.generate')}
              </Button>
            </div>
          </qr.Form>
        ) : (
          <p className="font-mono text-sm">{bo.qrRef ?? t('qr.none')}</p>
        )}
        {bo.qrRef ? (
          <div>
            <LinkButton href={`/inventory/objects/${bo.id}/label`}>{t('qr.printLabel')}</LinkButton>
          </div>
        ) : null}
      </section>
      <ConfirmDialog
        isOpen={regenerating}
        onOpenChange={setRegenerating}
        title={t('qr.generate')}
        message={bo.qrRef ? t('qr.generateConfirm') : undefined}
        confirmLabel={t('qr.generate')}
        onConfirm={() => {
          void qr.submit({ intent: 'qr-generate' }, { method: 'post' });
          setRegenerating(false);
        }}
      />
    </div>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.object', (d: Route.ComponentProps['loaderData']) => d.bo.serialCode);

export default function ObjectPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const { t: tf } = useTranslation('files');
  const { t: ta } = useTranslation('objectagreement');
  const canFiles = useCanSeeFiles('bo');
  const { bo, flags } = loaderData;
  const [params, setParams] = useSearchParams();
  const deleter = useFetcher<ActionResult>();
  useResultToast(deleter.state === 'idle' ? deleter.data : undefined);
  const [deleting, setDeleting] = useState(false);
  const tabs = [
    { id: 'details', label: t('tab.details'), content: <Details loaderData={loaderData} /> },
    {
      id: 'contacts',
      label: t('tab.contacts'),
      content: <ContactsEditor key={JSON.stringify(bo.contacts)} contacts={bo.contacts} canEdit={flags.canEdit} />,
    },
    {
      id: 'prices',
      label: t('tab.prices'),
      content: <ArticlePrices rows={loaderData.articles} canEdit={flags.canEdit} />,
    },
    {
      id: 'spec',
      label: t('tab.spec'),
      content: (
        <SpecEditor key={JSON.stringify(bo.specification)} data={bo.specification ?? {}} canEdit={flags.canEdit} />
      ),
    },
    {
      id: 'agreement',
      label: ta('tab'),
      content: (
        <ObjectAgreementPanel
          object={{
            id: bo.id,
            customerId: bo.customerId,
            customerLabel: bo.customerId ? [bo.customerNumber, bo.customerName].filter(Boolean).join(' – ') : null,
          }}
        />
      ),
    },
    ...(loaderData.security
      ? [
          {
            id: 'security',
            label: t('tab.security'),
            content: <SecurityForms boId={bo.id} forms={loaderData.security} canEdit={flags.canSecEdit} />,
          },
        ]
      : []),
    {
      id: 'servicelog',
      label: t('tab.serviceLog'),
      content: (
        <div className="grid gap-6">
          {loaderData.serviceReports ? (
            <ObjectServiceReports reports={loaderData.serviceReports} next={loaderData.nextInspection} />
          ) : null}
          <ServiceLog
            boId={bo.id}
            first={loaderData.serviceLog.logs}
            totalCount={loaderData.serviceLog.totalCount}
            canWrite={flags.canServiceLog}
          />
        </div>
      ),
    },
    ...(loaderData.codes
      ? [
          {
            id: 'codes',
            label: t('tab.codes'),
            content: (
              <AccessCodes
                boId={bo.id}
                groups={loaderData.codes}
                canView={flags.canCodesView}
                canEdit={flags.canCodesEdit}
                canViewLog={flags.canViewLog}
              />
            ),
          },
        ]
      : []),
    ...(canFiles ? [{ id: 'files', label: tf('title'), content: <RecordFiles kind="bo" ownerId={bo.id} /> }] : []),
    {
      id: 'history',
      label: t('tab.history'),
      content: (
        <HistoryList boId={bo.id} first={loaderData.history.history} totalCount={loaderData.history.totalCount} />
      ),
    },
  ];
  const wanted = params.get('tab');
  const selected = tabs.some((x) => x.id === wanted) ? wanted! : 'details';
  return (
    <Card>
      <style>{PRINT_CSS}</style>
      <Link to="/inventory/objects" className="text-sm text-blue-800 underline print:hidden">
        ← {t('objects.back')}
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words">{bo.serialCode}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {[bo.modelName, bo.location].filter(Boolean).join(' · ') || t('objects.noModel')}
            {bo.customerId ? (
              <>
                {' · '}
                {flags.canReadCustomers ? (
                  <Link to={`/inventory/customers/${bo.customerId}`} className="text-blue-800 underline">
                    {bo.customerName}
                  </Link>
                ) : (
                  bo.customerName
                )}
              </>
            ) : null}
            {' · '}
            <span className={bo.status === 'active' ? 'text-green-800' : 'text-slate-700'}>
              {t(`status.${bo.status}`)}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2 print:hidden">
          {bo.qrRef ? <LinkButton href={`/inventory/objects/${bo.id}/label`}>{t('qr.printLabel')}</LinkButton> : null}
          {flags.canDelete ? (
            <Button variant="danger" onPress={() => setDeleting(true)}>
              {t('delete')}
            </Button>
          ) : null}
        </div>
      </div>
      {loaderData.workOrders ? (
        <ObjectWorkOrders
          orders={loaderData.workOrders}
          newOrderHref={
            flags.canCreateWorkOrder
              ? `/work-orders/new?${new URLSearchParams({
                  businessObjectId: bo.id,
                  ...(bo.customerId ? { customerId: bo.customerId } : {}),
                }).toString()}`
              : null
          }
        />
      ) : null}
      {params.get('created') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('objects.created')}
        </p>
      ) : null}
      <Tabs
        aria-label={t('tab.label')}
        className="mt-4"
        items={tabs}
        selectedKey={selected}
        onSelectionChange={(key) => {
          const next = new URLSearchParams(params);
          next.set('tab', String(key));
          next.delete('created');
          setParams(next, { replace: true, preventScrollReset: true });
        }}
      />
      <OpenDeviations kind="object" id={bo.id} />
      <ConfirmDialog
        isOpen={deleting}
        onOpenChange={setDeleting}
        title={t('objects.delete')}
        message={t('objects.deleteConfirm', { serial: bo.serialCode })}
        confirmLabel={t('delete')}
        variant="danger"
        isPending={deleter.state !== 'idle'}
        onConfirm={() => {
          void deleter.submit({ intent: 'delete' }, { method: 'post' });
          setDeleting(false);
        }}
      />
    </Card>
  );
}
