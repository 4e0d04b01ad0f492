import { ExportLink } from '~/app/components/inventory/export-link';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/inventory.objects';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import {
  LinkButton,
  ListFilters,
  ListPage,
  ListTable,
  pageFromUrl,
  Select,
  TextField,
  useListUrl,
} from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const p = new URL(request.url).searchParams;
  const { offset, limit } = pageFromUrl(p);
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
      limit,
    });
    const model = modelId && canReadModels ? (await getModel(ctx, modelId).catch(() => null))?.model : null;
    return {
      ...list,
      offset,
      limit,
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
  const list = useListUrl();
  const filtered = list.isFiltered({ q: '', customerId: '', modelId: '', status: '' });
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
    <ListPage
      title={t('objects.title')}
      deletedNotice={t('objects.deleted')}
      actions={
        <>
          <ExportLink register="objects" />
          {loaderData.canViewLog ? (
            <LinkButton href="/inventory/objects/security-log">{t('securityLog.title')}</LinkButton>
          ) : null}
          {loaderData.canEdit ? (
            <LinkButton href="/inventory/objects/new" variant="primary">
              {t('objects.new')}
            </LinkButton>
          ) : null}
        </>
      }
    >
      <ListFilters layout="grid" columns={4} submitLabel={t('filter.apply')}>
        <TextField
          name="q"
          type="search"
          label={t('objects.search')}
          description={t('objects.searchHelp')}
          defaultValue={list.params.get('q') ?? ''}
        />
        <CustomerPicker
          name="customerId"
          label={t('field.customer')}
          defaultSelected={loaderData.customer}
          onSelectionChange={(o) => list.setFilter('customerId', o?.id)}
        />
        {loaderData.canReadModels ? (
          <EntityPicker
            name="modelId"
            label={t('field.model')}
            source="/inventory/models/options"
            defaultSelected={loaderData.model}
            onSelectionChange={(o) => list.setFilter('modelId', o?.id)}
          />
        ) : null}
        <Select
          name="status"
          label={t('field.status')}
          defaultSelectedKey={list.params.get('status') ?? ''}
          onSelectionChange={(key) => list.setFilter('status', String(key ?? ''))}
          items={[
            { id: '', label: t('status.all') },
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
      </ListFilters>
      <ListTable
        aria-label={t('objects.title')}
        columns={columns}
        rows={loaderData.bos}
        getRowHref={(b) => `/inventory/objects/${b.id}`}
        count={t('objects.count', { count: loaderData.totalCount })}
        empty={{ empty: t('objects.empty'), filtered: t('empty.search'), isFiltered: filtered }}
        totalCount={loaderData.totalCount}
        offset={loaderData.offset}
        limit={loaderData.limit}
      />
    </ListPage>
  );
}
