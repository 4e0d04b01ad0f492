import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/deviations.list';
import { DeviationTable } from '~/app/components/deviations/deviation-table';
import { DeviationsNav } from '~/app/components/deviations/deviations-nav';
import { buttonClass, LinkButton, ListFilters, ListPage, ListPager, useListUrl } from '~/app/components/ui';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { hasAccess } from '~/core/permissions/access';
import { isAppError } from '~/core/errors/app-error';
import {
  DEVIATION_ACCESS,
  deviationAssignees,
  listDeviationCategories,
  listDeviations,
} from '~/core/deviations/deviation.service';
import { DEVIATION_FILTER_STATUSES, RELATION_KINDS } from '~/core/deviations/deviation.schema';

/**
 * The deviation list (spec section 2: /deviations/list; issue 34 item 5): status, category,
 * relation, responsible, period, overdue and search held in the URL and applied in SQL, 50 a page,
 * and the same filter as a CSV or XLSX file. The dashboard's links land here filtered.
 */
export const middleware = guard(DEVIATION_ACCESS.read);

const FILTERS = [
  'status',
  'categoryId',
  'relationKind',
  'relationId',
  'responsibleUserId',
  'from',
  'to',
  'closedFrom',
  'closedTo',
  'q',
  'overdue',
] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const url = new URL(request.url);
  const query = Object.fromEntries([...url.searchParams].filter(([k, v]) => v !== '' && [...FILTERS, 'offset', 'limit'].includes(k)));
  return run(context, async (ctx) => {
    let page;
    let badFilter = false;
    try {
      page = await listDeviations(ctx, query);
    } catch (e) {
      // a hand-typed URL with a filter the list does not know: the unfiltered list, said so
      if (!isAppError(e) || e.status !== 400) throw e;
      badFilter = true;
      page = await listDeviations(ctx, {});
    }
    return {
      ...page,
      badFilter,
      offset: Number(query.offset) || 0,
      limit: Number(query.limit) || 50,
      categories: await listDeviationCategories(ctx),
      people: await deviationAssignees(ctx),
      canCreate: hasAccess(auth, DEVIATION_ACCESS.create),
      exportQuery: new URLSearchParams(Object.entries(query).filter(([k]) => k !== 'offset' && k !== 'limit')).toString(),
    };
  });
}

export const handle = pageTitle('title.deviationsList');

/** Kept through the filter form: the record a record page's link narrowed the list to. */
const KEEP = ['sort', 'desc', 'limit', 'relationId'];

const SELECT =
  'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 sm:text-sm';

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
    </div>
  );
}

export default function DeviationList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('deviations');
  const list = useListUrl();
  const p = list.params;
  const d = loaderData;
  const filtered = list.isFiltered({
    status: 'open',
    categoryId: '',
    relationKind: '',
    relationId: '',
    responsibleUserId: '',
    from: '',
    to: '',
    closedFrom: '',
    closedTo: '',
    q: '',
    overdue: '',
  });
  const sep = d.exportQuery ? '&' : '';
  return (
    <ListPage
      title={t('list.title')}
      above={<DeviationsNav />}
      deletedNotice={t('deleted')}
      actions={
        <>
          <a href={`/deviations/export?format=csv${sep}${d.exportQuery}`} download className={buttonClass({ variant: 'secondary' })}>
            {t('export.csv')}
          </a>
          <a href={`/deviations/export?format=xlsx${sep}${d.exportQuery}`} download className={buttonClass({ variant: 'secondary' })}>
            {t('export.xlsx')}
          </a>
          {d.canCreate ? <LinkButton href="/deviations/new">{t('new')}</LinkButton> : null}
        </>
      }
    >
      {/* one record's deviations (a record page's "all open") stay that record's while filtering */}
      <ListFilters layout="grid" columns={4} submitLabel={t('filter.submit')} keep={KEEP}>
        <Field id="dv-status" label={t('field.status')}>
          <select id="dv-status" name="status" defaultValue={p.get('status') ?? 'open'} className={SELECT}>
            {DEVIATION_FILTER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dv-category" label={t('field.category')}>
          <select id="dv-category" name="categoryId" defaultValue={p.get('categoryId') ?? ''} className={SELECT}>
            <option value="">{t('filter.any')}</option>
            <option value="none">{t('dashboard.noCategory')}</option>
            {d.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dv-relation" label={t('field.relations')}>
          <select id="dv-relation" name="relationKind" defaultValue={p.get('relationKind') ?? ''} className={SELECT}>
            <option value="">{t('filter.any')}</option>
            <option value="none">{t('dashboard.noRelation')}</option>
            {RELATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`relation.${k}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dv-responsible" label={t('field.responsible')}>
          <select id="dv-responsible" name="responsibleUserId" defaultValue={p.get('responsibleUserId') ?? ''} className={SELECT}>
            <option value="">{t('filter.any')}</option>
            {d.people.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="dv-from" label={t('filter.from')}>
          <input id="dv-from" type="date" name="from" defaultValue={p.get('from') ?? ''} className={SELECT} />
        </Field>
        <Field id="dv-to" label={t('filter.to')}>
          <input id="dv-to" type="date" name="to" defaultValue={p.get('to') ?? ''} className={SELECT} />
        </Field>
        <Field id="dv-closed-from" label={t('filter.closedFrom')}>
          <input id="dv-closed-from" type="date" name="closedFrom" defaultValue={p.get('closedFrom') ?? ''} className={SELECT} />
        </Field>
        <Field id="dv-closed-to" label={t('filter.closedTo')}>
          <input id="dv-closed-to" type="date" name="closedTo" defaultValue={p.get('closedTo') ?? ''} className={SELECT} />
        </Field>
        <Field id="dv-q" label={t('filter.q')}>
          <input id="dv-q" type="search" name="q" defaultValue={p.get('q') ?? ''} className={SELECT} />
        </Field>
        <label className="flex min-h-11 items-center gap-2 self-end text-sm">
          <input type="checkbox" name="overdue" value="true" defaultChecked={p.get('overdue') === 'true'} className="size-5" />
          {t('filter.overdue')}
        </label>
      </ListFilters>
      {d.badFilter ? (
        <p role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          {t('emptyFiltered')}
        </p>
      ) : null}
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {t('count', { count: d.totalCount })}
      </p>
      <div className="mt-2">
        <DeviationTable rows={d.deviations} label={t('list.title')} empty={filtered ? t('emptyFiltered') : t('empty')} />
      </div>
      <ListPager className="mt-3" totalCount={d.totalCount} offset={d.offset} limit={d.limit} />
      {d.canCreate && !d.deviations.length && !filtered ? (
        <p className="mt-3 text-sm">
          <Link to="/deviations/new" className="text-brand-700 underline">
            {t('new')}
          </Link>
        </p>
      ) : null}
    </ListPage>
  );
}
