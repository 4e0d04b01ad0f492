import { useState, type ReactNode } from 'react';
import { regionChoices } from '~/core/regions/region.service';
import { useTranslation } from 'react-i18next';
import { data, Link, redirect, useActionData, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/projects.$id';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { formatMoney } from '~/app/components/articles/format';
import { RecordFiles } from '~/app/components/files/record-files';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { ObjectPicker } from '~/app/components/inventory/pickers/object-picker';
import { SupplierPicker } from '~/app/components/projects/supplier-picker';
import { ActivitiesPanel } from '~/app/components/projects/activities-panel';
import { CostsPanel } from '~/app/components/projects/costs-panel';
import { ExtraWorkPanel } from '~/app/components/projects/extra-work-panel';
import { InvoicingPanel } from '~/app/components/projects/invoicing-panel';
import { ProjectForm, projectFromForm } from '~/app/components/projects/project-form';
import { ResourcePlanner } from '~/app/components/projects/resource-planner';
import { StatisticsPanel } from '~/app/components/projects/statistics-panel';
import {
  DateTime,
  formErrorOf,
  useFieldErrors,
  useResultToast,
  type ActionResult,
} from '~/app/components/objects/shared';
import { Button, buttonClass, ConfirmDialog, LinkButton, Select, Tabs, TextField } from '~/app/components/ui';
import { ProjectSupplierInvoices } from '~/app/components/supplier-invoices/project-supplier-invoices';
import { SUPPLIER_INVOICE_ACCESS } from '~/core/supplier-invoices/supplier-invoice.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  addProjectLink,
  closeProject,
  deleteProject,
  getProject,
  projectOptions,
  projectWorkOrders,
  removeProjectLink,
  reopenProject,
  updateProject,
  updateProjectConf,
  type Project,
  type ProjectLinkKind,
  type ProjectWorkOrder,
} from '~/core/projects/project.service';
import { pageTitle } from '~/app/lib/page-title';
import { OpenDeviations } from '~/app/components/deviations/open-deviations';

/**
 * One project (spec section 2: the project menus — general info, invoicing, costs, work orders,
 * files, statistics, settings, planning — and its activities) as tabs whose choice is in the URL
 * (?tab=), so a reload or a shared link opens the same menu. The general info saves naming the
 * version it edited; close (refused with open work orders), reopen and delete (asked first).
 */
export const middleware = guard({ permission: 'projects:read', module: 'projects' });

export const TABS = [
  'general',
  'workorders',
  'invoicing',
  'costs',
  'statistics',
  'activities',
  'planning',
  'files',
  'settings',
  'supplierinvoices',
] as const;
type TabId = (typeof TABS)[number];

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  try {
    return await run(context, async (ctx) => {
      const { project } = await getProject(ctx, params.id);
      const { users } = await projectOptions(ctx);
      const readsOrders = hasAccess(auth, { permission: 'workorders:read' });
      const { workOrders } = readsOrders ? await projectWorkOrders(ctx, project.id) : { workOrders: [] };
      return {
        project,
        users,
        regions: await regionChoices(ctx, project.region),
        workOrders,
        readsOrders,
        can: {
          edit: hasAccess(auth, PROJECT_ACCESS.edit),
          delete: hasAccess(auth, PROJECT_ACCESS.delete),
          reopen: hasAccess(auth, PROJECT_ACCESS.reopen),
          createOrder: hasAccess(auth, { permission: 'workorders:create' }),
          createExtra: hasAccess(auth, { permission: 'workorders:create_project_extra_work' }),
          acceptExtra: hasAccess(auth, { permission: 'workorders:accept_project_extra_work' }),
          readSupplierInvoices: hasAccess(auth, SUPPLIER_INVOICE_ACCESS.read),
        },
      };
    });
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const id = params.id;
  const kind = String(form.get('kind') ?? '') as ProjectLinkKind;
  const target = String(form.get('targetId') ?? '');
  const linkBody = { customerId: target, supplierId: target, businessObjectId: target };
  try {
    switch (intent) {
      case 'close':
        await run(context, (ctx) => closeProject(ctx, id));
        return data<ActionResult>({ ok: true, intent, message: 'closed.toast' });
      case 'reopen':
        await run(context, (ctx) => reopenProject(ctx, id));
        return data<ActionResult>({ ok: true, intent, message: 'reopened.toast' });
      case 'delete':
        await run(context, (ctx) => deleteProject(ctx, id));
        return redirect('/projects?deleted=1');
      case 'addLink':
        await run(context, (ctx) => addProjectLink(ctx, id, kind, linkBody));
        return data<ActionResult>({ ok: true, intent, message: 'links.added' });
      case 'removeLink':
        await run(context, (ctx) => removeProjectLink(ctx, id, kind, linkBody));
        return data<ActionResult>({ ok: true, intent, message: 'links.removed' });
      case 'conf':
        await run(context, (ctx) =>
          updateProjectConf(ctx, id, {
            hourlyPrice: String(form.get('hourlyPrice') ?? ''),
            hourlyCost: String(form.get('hourlyCost') ?? ''),
            invoiceCustomerId:
              String(form.get('invoiceCustomerId') ?? '') === 'first' ? '' : form.get('invoiceCustomerId'),
          }),
        );
        return data<ActionResult>({ ok: true, intent });
      default:
        await run(context, (ctx) =>
          updateProject(ctx, { project: { ...projectFromForm(form), id, version: String(form.get('version')) } }),
        );
        return data<ActionResult>({ ok: true, intent: 'save' });
    }
  } catch (e) {
    return actionError<ActionResult>(e, { intent });
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.project', (d: Route.ComponentProps['loaderData']) => d.project.number);

export default function ProjectPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [params, setParams] = useSearchParams();
  const [confirm, setConfirm] = useState<'delete' | 'close' | null>(null);
  const { project, users, workOrders, can, readsOrders } = loaderData;
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const errors = useFieldErrors(result?.intent === 'save' ? result : undefined, 'project');
  const ongoing = project.status === 'ongoing';
  const canEdit = can.edit && ongoing;
  const tab: TabId = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as TabId)
    : 'general';

  useResultToast(result, { ns: 'projects', saveBar: true });
  const formError = formErrorOf(result);

  const content: Record<TabId, ReactNode> = {
    general: (
      <div className="grid gap-8">
        <ProjectForm
          key={project.version}
          project={project}
          users={users}
          regions={loaderData.regions}
          errors={errors}
          canEdit={canEdit}
          submitLabel={t('save')}
          formError={formError ? tc(formError) : null}
        />
        <Parties project={project} canEdit={canEdit} />
      </div>
    ),
    workorders: (
      <WorkOrdersTab project={project} workOrders={workOrders} readsOrders={readsOrders} can={can} ongoing={ongoing} />
    ),
    invoicing: <InvoicingPanel projectId={project.id} canEdit={canEdit} />,
    costs: <CostsPanel projectId={project.id} canEdit={canEdit} />,
    statistics: <StatisticsPanel projectId={project.id} />,
    activities: <ActivitiesPanel projectId={project.id} canEdit={canEdit} />,
    planning: <ResourcePlanner projectId={project.id} canEdit={canEdit} />,
    files: <RecordFiles kind="project" ownerId={project.id} />,
    settings: <SettingsTab project={project} canEdit={canEdit} />,
    supplierinvoices: can.readSupplierInvoices ? <ProjectSupplierInvoices projectId={project.id} /> : null,
  };

  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/projects" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words">
            {project.number} · {project.title}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <span
              className={`inline-block rounded-full px-3 py-0.5 ${ongoing ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-900'}`}
            >
              {t(`status.${project.status}`)}
            </span>
            {!ongoing && project.closedAt ? (
              <span>
                {t('closedAt')} <DateTime iso={project.closedAt} withTime={false} />
              </span>
            ) : null}
            {project.customerName ? <span>{project.customerName}</span> : null}
            {project.externalUrl ? (
              <a href={project.externalUrl} target="_blank" rel="noreferrer" className="text-brand-700 underline">
                {t('field.externalUrl')}
              </a>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`/projects/${project.id}/pdf`} download className={buttonClass({ variant: 'secondary' })}>
            {t('action.pdf')}
          </a>
          {can.edit && ongoing ? (
            <Button variant="secondary" onPress={() => setConfirm('close')} isPending={busyIntent === 'close'}>
              {t('close')}
            </Button>
          ) : null}
          {can.reopen && !ongoing ? (
            <Button
              variant="secondary"
              onPress={() => void submit({ intent: 'reopen' }, { method: 'post' })}
              isPending={busyIntent === 'reopen'}
            >
              {t('reopen')}
            </Button>
          ) : null}
          {can.delete ? (
            <Button variant="danger" onPress={() => setConfirm('delete')} isPending={busyIntent === 'delete'}>
              {t('delete')}
            </Button>
          ) : null}
        </div>
      </div>
      {params.get('created') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('created')}
        </p>
      ) : null}
      {!ongoing ? (
        <p className="mt-3 rounded-md bg-slate-50 p-3 text-sm text-slate-800">
          {can.reopen ? t('closed.help') : t('closed.readOnly')}
        </p>
      ) : null}
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label={t('col.contractSum')} value={formatMoney(project.totals.contractSum)} />
        <Figure label={t('col.invoiced')} value={formatMoney(project.totals.invoiced)} />
        <Figure label={t('col.leftToInvoice')} value={formatMoney(project.totals.leftToInvoice)} />
        <Figure
          label={t('figure.hours')}
          value={`${formatMoney(project.figures.hours.total)} h`}
          note={
            project.figures.hours.travelMinutes
              ? t('figure.travel', { hours: formatMoney(project.figures.hours.travel) })
              : undefined
          }
        />
      </dl>
      <Tabs
        aria-label={t('tabs.label')}
        className="mt-6"
        selectedKey={tab}
        onSelectionChange={(key) => {
          const next = new URLSearchParams(params);
          if (key === 'general') next.delete('tab');
          else next.set('tab', String(key));
          next.delete('created');
          setParams(next, { replace: true, preventScrollReset: true });
        }}
        items={TABS.filter((id) => id !== 'supplierinvoices' || can.readSupplierInvoices).map((id) => ({
          id,
          label: t(`tab.${id}`),
          content: <div className="pt-4">{content[id]}</div>,
        }))}
      />
      <OpenDeviations kind="project" id={project.id} />
      <ConfirmDialog
        isOpen={confirm !== null}
        onOpenChange={(open) => (open ? null : setConfirm(null))}
        title={confirm === 'close' ? t('close') : t('delete')}
        message={
          confirm === 'close'
            ? t('close.confirm', { name: `${project.number} · ${project.title}` })
            : t('delete.confirm', { name: `${project.number} · ${project.title}` })
        }
        confirmLabel={confirm === 'close' ? t('close') : t('delete')}
        variant={confirm === 'close' ? 'primary' : 'danger'}
        onConfirm={() => {
          void submit({ intent: confirm ?? '' }, { method: 'post' });
          setConfirm(null);
        }}
      />
    </section>
  );
}

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg bg-slate-50 p-3">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
      {note ? <dd className="text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** The project's customers, suppliers and objects: a picker to add one and a button to take one off. */
function Parties({ project, canEdit }: { project: Project; canEdit: boolean }) {
  const { t } = useTranslation('projects');
  const submit = useSubmit();
  const groups: { kind: ProjectLinkKind; items: Project['customers'] }[] = [
    { kind: 'customers', items: project.customers },
    { kind: 'suppliers', items: project.suppliers },
    { kind: 'bos', items: project.businessObjects },
  ];
  const add = (kind: ProjectLinkKind, id: string | undefined) =>
    id && void submit({ intent: 'addLink', kind, targetId: id }, { method: 'post', preventScrollReset: true });
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {groups.map(({ kind, items }) => (
        <section key={kind} aria-labelledby={`links-${kind}`} className="grid content-start gap-2">
          <h2 id={`links-${kind}`} className="text-lg font-medium">
            {t(`links.${kind}`)}
          </h2>
          {items.length === 0 ? <p className="text-sm text-slate-600">{t(`links.${kind}.empty`)}</p> : null}
          <ul className="grid gap-1">
            {items.map((item) => (
              <li
                key={item.id}
                className="flex items-center justify-between gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm"
              >
                <span className="min-w-0 break-words">
                  {item.number ? `${item.number} – ` : ''}
                  {item.name}
                </span>
                {canEdit ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    onPress={() =>
                      void submit(
                        { intent: 'removeLink', kind, targetId: item.id },
                        { method: 'post', preventScrollReset: true },
                      )
                    }
                  >
                    {t('links.remove', { name: item.name || item.number })}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          {canEdit ? (
            kind === 'customers' ? (
              <CustomerPicker
                key={items.length}
                label={t('links.add.customers')}
                onSelectionChange={(o) => add(kind, o?.id)}
              />
            ) : kind === 'suppliers' ? (
              <SupplierPicker
                key={items.length}
                label={t('links.add.suppliers')}
                onSelectionChange={(o) => add(kind, o?.id)}
              />
            ) : (
              <ObjectPicker key={items.length} label={t('links.add.bos')} onSelectionChange={(o) => add(kind, o?.id)} />
            )
          ) : null}
        </section>
      ))}
    </div>
  );
}

const EXTRA_BADGE: Record<string, string> = {
  pending: 'bg-amber-100 text-amber-900',
  accepted: 'bg-green-100 text-green-900',
  declined: 'bg-red-100 text-red-900',
};

/** The project's work orders with their project status; new orders and extra work start here. */
function WorkOrdersTab({
  project,
  workOrders,
  readsOrders,
  can,
  ongoing,
}: {
  project: Project;
  workOrders: ProjectWorkOrder[];
  readsOrders: boolean;
  can: { createOrder: boolean; createExtra: boolean; acceptExtra: boolean };
  ongoing: boolean;
}) {
  const { t } = useTranslation('projects');
  const [openExtra, setOpenExtra] = useState<string | null>(null);
  if (!readsOrders) return <p className="text-sm text-slate-600">{t('workorders.noAccess')}</p>;
  return (
    <div className="grid gap-4">
      {ongoing && can.createOrder ? (
        <div className="flex flex-wrap gap-2">
          <LinkButton href={`/work-orders/new?projectId=${project.id}`} variant="primary">
            {t('workorders.new')}
          </LinkButton>
          {can.createExtra ? (
            <LinkButton href={`/work-orders/new?projectId=${project.id}&extra=1`} variant="secondary">
              {t('workorders.newExtra')}
            </LinkButton>
          ) : null}
        </div>
      ) : null}
      {workOrders.length === 0 ? <p className="text-sm text-slate-600">{t('workorders.empty')}</p> : null}
      <ul className="grid gap-2">
        {workOrders.map((wo) => (
          <li key={wo.id} className="rounded-lg ring-1 ring-slate-200">
            <div className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <Link to={`/work-orders/${wo.id}`} className="font-medium text-brand-700 underline">
                  #{wo.number} · {wo.title}
                </Link>
                <p className="mt-1 flex flex-wrap gap-2 text-sm text-slate-600">
                  <span>{wo.isClosed ? t('workorders.closed') : (wo.statusName ?? t('workorders.open'))}</span>
                  <span>{t('workorders.hours', { hours: formatMoney(wo.hours) })}</span>
                  {wo.assignees.length ? <span>{wo.assignees.join(', ')}</span> : null}
                  <span>{t(`invoiceStatus.${wo.projectInvoiceStatus}`)}</span>
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {wo.projectExtraStatus ? (
                  <span className={`rounded-full px-2 py-0.5 text-xs ${EXTRA_BADGE[wo.projectExtraStatus]}`}>
                    {t(`extra.${wo.projectExtraStatus}`)}
                  </span>
                ) : null}
                {wo.projectExtraStatus ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-expanded={openExtra === wo.id}
                    onPress={() => setOpenExtra(openExtra === wo.id ? null : wo.id)}
                  >
                    {t('workorders.extraWork', { number: wo.number })}
                  </Button>
                ) : null}
              </div>
            </div>
            {openExtra === wo.id ? (
              <div className="border-t border-slate-200 p-3">
                <ExtraWorkPanel
                  projectId={project.id}
                  workOrder={{
                    id: wo.id,
                    number: wo.number,
                    title: wo.title,
                    projectExtraStatus: wo.projectExtraStatus,
                  }}
                  canCreate={can.createExtra && ongoing}
                  canAccept={can.acceptExtra && ongoing}
                />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The project's own settings: hourly price and cost (empty: the company's), and whom it invoices. */
function SettingsTab({ project, canEdit }: { project: Project; canEdit: boolean }) {
  const { t } = useTranslation('projects');
  const submit = useSubmit();
  const busy = useNavigation().formData?.get('intent') === 'conf';
  return (
    <form
      className="grid max-w-2xl gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        form.set('intent', 'conf');
        void submit(form, { method: 'post', preventScrollReset: true });
      }}
    >
      <TextField
        name="hourlyPrice"
        label={t('conf.hourlyPrice')}
        description={t('conf.hourlyPrice.help')}
        defaultValue={project.hourlyPrice?.replace('.', ',') ?? ''}
        isDisabled={!canEdit}
      />
      <TextField
        name="hourlyCost"
        label={t('conf.hourlyCost')}
        description={t('conf.hourlyCost.help')}
        defaultValue={project.hourlyCost?.replace('.', ',') ?? ''}
        isDisabled={!canEdit}
      />
      <Select
        name="invoiceCustomerId"
        label={t('conf.invoiceCustomer')}
        description={t('conf.invoiceCustomer.help')}
        defaultSelectedKey={project.invoiceCustomerId ?? 'first'}
        items={[
          { id: 'first', label: t('conf.invoiceCustomer.first') },
          ...project.customers.map((c) => ({ id: c.id, label: c.number ? `${c.number} – ${c.name}` : c.name })),
        ]}
        isDisabled={!canEdit}
      />
      {canEdit ? (
        <div className="flex items-end sm:col-span-2">
          <Button type="submit" variant="primary" isPending={busy}>
            {t('save')}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
