import { useTranslation } from 'react-i18next';
import { Form, useNavigate, useSearchParams, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { pluginGuard } from '~/app/lib/plugin-links.server';
import { requireAuth, run } from '~/app/lib/guard.server';
import { Button, LinkButton, SortableTable, TextField, ListPager, pageFromUrl } from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { hasAccess } from '~/core/permissions/access';
import { MODULE_ID } from '../constants';
import { doorAutomaticObject, listDoorAutomatics, type DoorAutomatic } from '../door-automatic.service';
import { OBJECT_OPTIONS_SOURCE, objectOption } from '../components/object-option';
import { pageTitle } from '~/app/lib/page-title';

/** Inventory → door automatics (spec section 2, /inventory/doorautomatics): all, or one object's. */
export const middleware = pluginGuard(MODULE_ID, { permission: 'doorautomatics:read' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const page = pageFromUrl(url.searchParams);
  const businessObjectId = url.searchParams.get('businessObjectId') || undefined;
  const q = url.searchParams.get('q')?.trim().slice(0, 200) || undefined;
  return run(context, async (ctx) => ({
    ...(await listDoorAutomatics(ctx, { businessObjectId, q, ...page })),
    ...page,
    object: businessObjectId ? await doorAutomaticObject(ctx, businessObjectId) : null,
    canEdit: hasAccess(auth, { permission: 'doorautomatics:edit', module: MODULE_ID }),
  }));
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.doorAutomatics');

export default function DoorAutomatics() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation('doorautomatics');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { object } = loaderData;
  const columns = [
    {
      id: 'number',
      header: t('col.number'),
      isRowHeader: true,
      render: (d: DoorAutomatic) => <span className="tabular-nums">{d.number}</span>,
    },
    { id: 'title', header: t('col.title'), render: (d: DoorAutomatic) => d.title },
    {
      id: 'object',
      header: t('col.object'),
      render: (d: DoorAutomatic) => (
        <span>
          {d.businessObject.serialCode}
          {d.businessObject.customerName ? (
            <span className="block text-xs text-slate-600">{d.businessObject.customerName}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'brand',
      header: t('col.brandModel'),
      render: (d: DoorAutomatic) => [d.brand, d.model].filter(Boolean).join(' ') || '—',
    },
    { id: 'location', header: t('col.location'), render: (d: DoorAutomatic) => d.location ?? '—' },
    {
      id: 'warranty',
      header: t('col.warrantyUntil'),
      render: (d: DoorAutomatic) => <span className="tabular-nums">{d.warrantyUntil ?? '—'}</span>,
    },
  ];
  const filterBy = (businessObjectId: string | null) => {
    const next = new URLSearchParams(params);
    if (businessObjectId) next.set('businessObjectId', businessObjectId);
    else next.delete('businessObjectId');
    next.delete('offset');
    void navigate(`?${next}`, { replace: true });
  };
  const newHref = object
    ? `/inventory/doorautomatics/new?businessObjectId=${object.id}`
    : '/inventory/doorautomatics/new';
  return (
    <section className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {loaderData.canEdit ? (
          <LinkButton href={newHref} variant="primary">
            {t('new')}
          </LinkButton>
        ) : null}
      </div>
      {params.get('deleted') ? (
        <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('deleted')}
        </p>
      ) : null}
      <div className="mt-4 grid gap-x-4 gap-y-2 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <EntityPicker
          key={object?.id ?? 'none'}
          label={t('filter.object')}
          source={OBJECT_OPTIONS_SOURCE}
          defaultSelected={object ? objectOption(object) : null}
          onSelectionChange={(o) => filterBy(o?.id ?? null)}
          description={t('filter.object.help')}
        />
        <Form method="get" role="search" className="flex items-end gap-2">
          {object ? <input type="hidden" name="businessObjectId" value={object.id} /> : null}
          <TextField
            name="q"
            type="search"
            label={t('filter.search')}
            defaultValue={params.get('q') ?? ''}
            className="min-w-0 flex-1"
          />
          <Button type="submit" variant="secondary">
            {t('filter.apply')}
          </Button>
        </Form>
      </div>
      <SortableTable
        aria-label={t('title')}
        className="mt-4"
        columns={columns}
        rows={loaderData.doorAutomatics}
        getRowHref={(d) => `/inventory/doorautomatics/${d.id}`}
        emptyState={
          object || params.get('q') ? t('empty.filtered') : loaderData.canEdit ? t('empty.canCreate') : t('empty')
        }
      />
      <ListPager
        className="mt-3"
        totalCount={loaderData.totalCount}
        offset={loaderData.offset}
        limit={loaderData.limit}
      />
    </section>
  );
}
