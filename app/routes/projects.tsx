import { useTranslation } from 'react-i18next';
import type { Route } from './+types/projects';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useCan } from '~/app/lib/can';
import { formatMoney } from '~/app/components/articles/format';
import {
  Button,
  DateTime,
  LinkButton,
  ListFilters,
  ListPage,
  ListTable,
  pageFromUrl,
  Select,
  TextField,
  useListUrl,
  type SortDescriptor,
} from '~/app/components/ui';
import { tenantToday } from '~/core/calendar/tenant-today';
import { isUuid } from '~/core/errors/validation';
import { shiftProjectPeriod } from '~/core/projects/project-period';
import { PROJECT_LIST_TYPES, PROJECT_PERIODS, PROJECT_SORTS, type ProjectPeriod } from '~/core/projects/project.schema';
import {
  listProjectRegions,
  listProjects,
  projectOptions,
  type ProjectListItem,
} from '~/core/projects/project.service';
import { pageTitle } from '~/app/lib/page-title';
import { ALL_REGIONS } from '~/core/regions/region.constants';
import { sessionRegion } from '~/core/regions/region.service';

/**
 * Projects (spec section 2: /projects, the PROJECTS module and projects:read): ongoing or closed,
 * the list state of section 3 (sort, region, responsible user, search, period and date — a
 * quarter by default, section 9), each with its contract sum, what is invoiced and what is left.
 */
export const middleware = guard({ permission: 'projects:read', module: 'projects' });

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAuth(context);
  const params = new URL(request.url).searchParams;
  const page = pageFromUrl(params);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? params.get('date')! : null;
  const filter = {
    activeType: oneOf(PROJECT_LIST_TYPES, params.get('activeType'), 'ongoing'),
    sort: oneOf(PROJECT_SORTS, params.get('sort'), 'alphanumeric'),
    desc: params.get('desc') === 'true',
    activeRegion: params.get('activeRegion')?.trim().slice(0, 100) || null,
    responsibleUserId: isUuid(params.get('responsibleUserId')) ? params.get('responsibleUserId') : null,
    searchValue: params.get('searchValue')?.trim().slice(0, 200) || null,
    period: oneOf<ProjectPeriod>(PROJECT_PERIODS, params.get('period'), 'quarter'),
  };
  return run(context, async (ctx) => {
    const anchor = date ?? tenantToday(ctx);
    const list = await listProjects(ctx, { ...filter, date: anchor, offset: page.offset, limit: page.limit });
    const { users } = await projectOptions(ctx);
    const regions = await listProjectRegions(ctx);
    return {
      ...list,
      ...filter,
      ...page,
      range: list.period,
      date: anchor,
      users,
      regions,
      sessionRegion: sessionRegion(ctx.auth),
    };
  });
}

const ANY = 'any';

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.projects');

export default function Projects({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const can = useCan();
  const list = useListUrl();
  const { projects, totalCount, offset, limit, users, regions, range, date } = loaderData;
  const sort: SortDescriptor = { column: loaderData.sort, direction: loaderData.desc ? 'descending' : 'ascending' };
  const columns = [
    {
      id: 'alphanumeric',
      header: t('col.number'),
      isRowHeader: true,
      allowsSorting: true,
      render: (p: ProjectListItem) => <span className="tabular-nums">{p.number}</span>,
    },
    {
      id: 'title',
      header: t('col.title'),
      // long texts wrap (the table is as wide as its cells' content): the money columns stay in sight at 1,366 px
      render: (p: ProjectListItem) => (
        <span className="block max-w-56">
          {p.title}
          {p.pendingExtraWork ? (
            <span className="ml-2 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs whitespace-nowrap text-amber-900">
              {t('list.pendingExtra', { count: p.pendingExtraWork })}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'customer',
      header: t('col.customer'),
      render: (p: ProjectListItem) => <span className="block max-w-36">{p.customerName ?? '—'}</span>,
    },
    {
      id: 'responsibleuser',
      header: t('col.responsibleUser'),
      allowsSorting: true,
      render: (p: ProjectListItem) => <span className="block max-w-36">{p.responsibleUserName ?? '—'}</span>,
    },
    {
      id: 'time',
      header: t('col.dates'),
      allowsSorting: true,
      render: (p: ProjectListItem) =>
        p.startDate || p.endDate ? (
          <span className="block max-w-28">
            <span className="whitespace-nowrap">
              {p.startDate ? <DateTime iso={p.startDate} withTime={false} /> : '…'} –
            </span>{' '}
            <span className="whitespace-nowrap">{p.endDate ? <DateTime iso={p.endDate} withTime={false} /> : '…'}</span>
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'workOrders',
      header: t('col.workOrders'),
      align: 'end' as const,
      render: (p: ProjectListItem) => (
        <span className="tabular-nums">
          {p.openWorkOrders} / {p.workOrders}
        </span>
      ),
    },
    {
      id: 'contractSum',
      header: t('col.contractSum'),
      align: 'end' as const,
      render: (p: ProjectListItem) => <span className="tabular-nums">{formatMoney(p.contractSum)}</span>,
    },
    {
      id: 'invoiced',
      header: t('col.invoiced'),
      align: 'end' as const,
      render: (p: ProjectListItem) => <span className="tabular-nums">{formatMoney(p.invoiced)}</span>,
    },
    {
      id: 'leftToInvoice',
      header: t('col.leftToInvoice'),
      align: 'end' as const,
      render: (p: ProjectListItem) => <span className="tabular-nums">{formatMoney(p.leftToInvoice)}</span>,
    },
  ];
  const filtered = list.isFiltered({ searchValue: '', activeRegion: '', responsibleUserId: '' });
  return (
    <ListPage
      title={t('title')}
      deletedNotice={t('deleted')}
      actions={
        <>
          <LinkButton href="/projects/planning" variant="secondary">
            {t('list.planningLink')}
          </LinkButton>
          {can('projects:edit', 'projects') ? (
            <LinkButton href="/projects/new" variant="primary">
              {t('new')}
            </LinkButton>
          ) : null}
        </>
      }
    >
      <div role="group" aria-label={t('filter.activeType')} className="mt-4 flex gap-2">
        {PROJECT_LIST_TYPES.map((type) => (
          <Button
            key={type}
            variant={loaderData.activeType === type ? 'primary' : 'secondary'}
            aria-pressed={loaderData.activeType === type}
            onPress={() => list.setFilter('activeType', type, 'ongoing')}
          >
            {t(`filter.activeType.${type}`)}
          </Button>
        ))}
      </div>
      <ListFilters layout="grid" columns={4} keep={['activeType', 'sort', 'desc', 'limit', 'period', 'date']}>
        <TextField
          name="searchValue"
          type="search"
          label={t('filter.search')}
          description={t('filter.search.help')}
          defaultValue={loaderData.searchValue ?? ''}
        />
        <Select
          name="responsibleUserId"
          label={t('filter.responsibleUser')}
          defaultSelectedKey={loaderData.responsibleUserId ?? ANY}
          onSelectionChange={(key) => list.setFilter('responsibleUserId', String(key), ANY)}
          items={[{ id: ANY, label: t('filter.anyone') }, ...users.map((u) => ({ id: u.id, label: u.name }))]}
        />
        <Select
          name="activeRegion"
          label={t('filter.region')}
          // the session's region is the default (decision 067): choosing it drops the parameter,
          // and "any region" is then a choice of its own
          defaultSelectedKey={loaderData.region ?? ALL_REGIONS}
          onSelectionChange={(key) => list.setFilter('activeRegion', String(key), loaderData.sessionRegion ?? ALL_REGIONS)}
          items={[
            { id: ALL_REGIONS, label: t('filter.anyRegion') },
            ...[...new Set([...(loaderData.sessionRegion ? [loaderData.sessionRegion] : []), ...regions])].map((r) => ({
              id: r,
              label: r,
            })),
          ]}
        />
        <Select
          name="period"
          label={t('filter.period')}
          defaultSelectedKey={loaderData.period}
          onSelectionChange={(key) => list.setFilter('period', String(key), 'quarter')}
          items={PROJECT_PERIODS.map((p) => ({ id: p, label: t(`filter.period.${p}`) }))}
        />
      </ListFilters>
      {range ? (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <Button
            variant="secondary"
            onPress={() => list.setFilter('date', shiftProjectPeriod(loaderData.period, date, -1))}
          >
            ← {t('filter.previousPeriod')}
          </Button>
          <span>
            {t('filter.periodRange')} <DateTime iso={range.from} withTime={false} /> –{' '}
            <DateTime iso={range.to} withTime={false} />
          </span>
          <Button
            variant="secondary"
            onPress={() => list.setFilter('date', shiftProjectPeriod(loaderData.period, date, 1))}
          >
            {t('filter.nextPeriod')} →
          </Button>
        </div>
      ) : null}
      <ListTable
        aria-label={t('title')}
        columns={columns}
        rows={projects}
        sortDescriptor={sort}
        sortable
        getRowHref={(p) => `/projects/${p.id}`}
        empty={{ empty: t('empty'), filtered: t('empty.filtered'), isFiltered: filtered }}
        totalCount={totalCount}
        offset={offset}
        limit={limit}
      />
    </ListPage>
  );
}
