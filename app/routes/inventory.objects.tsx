import { ExportLink } from '~/app/components/inventory/export-link';
import { useTranslation } from 'react-i18next';
import { Form, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/inventory.objects';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, LinkButton, Select, SortableTable, TextField } from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { Card, Pager } from '~/app/components/objects/shared';
import {
  customerOption,
  listBusinessObjects,
  type BusinessObject,
} from '~/core/business-objects/business-object.service';
import { isUuid } from '~/core/errors/validation';
import { getModel } from '~/core/models/model.service';
import { hasAccess } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Inventory → objects (spec section 2): the installed equipment, searched and filtered by
 * customer, model and status on the server, a page at a time.
 */
export const middleware = guard({ permission: 'bo:read' });

const PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const p = new URL(request.url).searchParams;
  const offset = Math.max(0, Number(p.get('offset')) || 0);
  const customerId = isUuid(p.get('customerId')) ? p.get('customerId')! : undefined;
  const modelId = isUuid(p.get('modelId')) ? p.get('modelId')! : undefined;
  const status = p.get('status') === 'active' || p.get('status') === 'inactive' ? p.get('status')! : undefined;
  const canReadModels = hasAccess(auth, { permission: 'models:read' });
  return run(context, async (ctx) => {
    const list = await listBusinessObjects(ctx, {
      q: p.get('q')?.trim() || undefined,
      customerId,
      modelId,
      status,
      offset,
      limit: PAGE,
    });
    const model = modelId && canReadModels ? (await getModel(ctx, modelId).catch(() => null))?.model : null;
    return {
      ...list,
      offset,
      limit: PAGE,
      customer: customerId ? await customerOption(ctx, customerId) : null,
      model: model ? { id: model.id, label: `${model.code} – ${model.name}` } : null,
      canReadModels,
      canEdit: hasAccess(auth, { permission: 'bo:edit' }),
      canViewLog: hasAccess(auth, { permission: 'bo:codes:view_log' }),
    };
  });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.objects');

export default function Objects({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const [params] = useSearchParams();
  const submit = useSubmit();
  const filtered = ['q', 'customerId', 'modelId', 'status'].some((k) => params.get(k));
  /** A picker or select changed: search again from the first page. */
  const refilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete('offset');
    if (next.toString() !== params.toString()) void submit(next, { replace: true });
  };
  const columns = [
    { id: 'serial', header: t('field.serialCode'), isRowHeader: true, render: (b: BusinessObject) => b.serialCode },
    { id: 'model', header: t('field.model'), render: (b: BusinessObject) => b.modelName ?? '—' },
    {
      id: 'location',
      header: t('field.location'),
      render: (b: BusinessObject) => [b.location, b.location2, b.location3].filter(Boolean).join(', ') || '—',
    },
    {
      id: 'customer',
      header: t('field.customer'),
      render: (b: BusinessObject) =>
        b.customerName ? [b.customerNumber, b.customerName].filter(Boolean).join(' – ') : '—',
    },
    { id: 'status', header: t('field.status'), render: (b: BusinessObject) => t(`status.${b.status}`) },
  ];
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('objects.title')}</h1>
        <div className="flex flex-wrap gap-2">
          <ExportLink register="objects" />
          {loaderData.canViewLog ? (
            <LinkButton href="/inventory/objects/security-log">{t('securityLog.title')}</LinkButton>
          ) : null}
          {loaderData.canEdit ? (
            <LinkButton href="/inventory/objects/new" variant="primary">
              {t('objects.new')}
            </LinkButton>
          ) : null}
        </div>
      </div>
      {params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('objects.deleted')}
        </p>
      ) : null}
      <Form
        method="get"
        role="search"
        className="mt-4 grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-[2fr_1.5fr_1.5fr_1fr_auto]"
      >
        <TextField
          name="q"
          type="search"
          label={t('objects.search')}
          description={t('objects.searchHelp')}
          defaultValue={params.get('q') ?? ''}
        />
        <CustomerPicker
          name="customerId"
          label={t('field.customer')}
          defaultSelected={loaderData.customer}
          onSelectionChange={(o) => refilter('customerId', o?.id ?? '')}
        />
        {loaderData.canReadModels ? (
          <EntityPicker
            name="modelId"
            label={t('field.model')}
            source="/inventory/models/options"
            defaultSelected={loaderData.model}
            onSelectionChange={(o) => refilter('modelId', o?.id ?? '')}
          />
        ) : null}
        <Select
          name="status"
          label={t('field.status')}
          defaultSelectedKey={params.get('status') ?? ''}
          onSelectionChange={(key) => refilter('status', String(key ?? ''))}
          items={[
            { id: '', label: t('status.all') },
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
        <div className="flex items-start sm:pt-6">
          <Button type="submit" variant="secondary">
            {t('filter.apply')}
          </Button>
        </div>
      </Form>
      <p className="mt-4 text-sm text-slate-500" aria-live="polite">
        {t('objects.count', { count: loaderData.totalCount })}
      </p>
      <SortableTable
        aria-label={t('objects.title')}
        className="mt-2"
        columns={columns}
        rows={loaderData.bos}
        getRowHref={(b) => `/inventory/objects/${b.id}`}
        emptyState={filtered ? t('empty.search') : t('objects.empty')}
      />
      <Pager offset={loaderData.offset} limit={loaderData.limit} total={loaderData.totalCount} search={params} />
    </Card>
  );
}
