import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WorkOrder } from '~/core/work-orders/work-order-read';

/** Opening an order from the list gives its tab a title and customer before it loads. */
export function orderHref(wo: Pick<WorkOrder, 'id' | 'title' | 'customerName'>): string {
  const q = new URLSearchParams({ open: '1', workOrderTitle: wo.title });
  if (wo.customerName) q.set('customerName', wo.customerName);
  return `/work-orders/${wo.id}?${q.toString()}`;
}

function Tags({ wo }: { wo: WorkOrder }) {
  return wo.tags.length ? (
    <span className="flex flex-wrap gap-1">
      {wo.tags.map((tag) => (
        <span key={tag.id} className="rounded px-1.5 text-xs text-white" style={{ backgroundColor: tag.color }}>
          {tag.name}
        </span>
      ))}
    </span>
  ) : null;
}

/**
 * The list's rows: a table from 640 px up, cards on a phone. The order's title is its link; a
 * click anywhere on the row opens it too.
 */
export function WorkOrderRows({ rows, format }: { rows: WorkOrder[]; format: (iso: string) => string }) {
  const { t } = useTranslation('workorders');
  const who = (wo: WorkOrder) => wo.assignees.map((a) => a.name).join(', ') || t('list.unassigned');
  return (
    <>
      <ul className="space-y-2 sm:hidden" aria-label={t('list.title')}>
        {rows.map((wo) => (
          <li key={wo.id} className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <Link to={orderHref(wo)} className="block space-y-1">
              <span className="flex items-baseline justify-between gap-2">
                <span className="font-medium text-blue-800">{wo.title}</span>
                <span className="shrink-0 text-xs text-slate-500">{wo.number}</span>
              </span>
              <span className="block text-sm text-slate-700">{wo.customerName ?? t('list.noCustomer')}</span>
              <span className="block text-xs text-slate-500">
                {wo.statusName} · {wo.workTypeName} · {who(wo)}
              </span>
              {wo.plannedStart ? (
                <span className="block text-xs text-slate-500">
                  {t('list.planned', { when: format(wo.plannedStart) })}
                </span>
              ) : null}
            </Link>
            <Tags wo={wo} />
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 sm:block">
        <table className="w-full text-left text-sm" aria-label={t('list.title')}>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t('col.number')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.title')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.customer')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.status')}
              </th>
              <th scope="col" className="hidden px-3 py-2 lg:table-cell">
                {t('col.workType')}
              </th>
              <th scope="col" className="px-3 py-2">
                {t('col.assignees')}
              </th>
              <th scope="col" className="hidden px-3 py-2 md:table-cell">
                {t('col.planned')}
              </th>
              <th scope="col" className="hidden px-3 py-2 xl:table-cell">
                {t('col.intake')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((wo) => (
              <tr key={wo.id} className="hover:bg-slate-50">
                <td className="px-3 py-2 whitespace-nowrap text-slate-600">{wo.number}</td>
                <th scope="row" className="px-3 py-2 font-normal">
                  <Link to={orderHref(wo)} className="font-medium text-blue-800 hover:underline">
                    {wo.title}
                  </Link>
                  <Tags wo={wo} />
                </th>
                <td className="px-3 py-2">{wo.customerName ?? '—'}</td>
                <td className="px-3 py-2">
                  {wo.statusName}
                  {wo.isLocked ? <span className="ml-1 text-xs text-slate-500">({t('order.locked')})</span> : null}
                </td>
                <td className="hidden px-3 py-2 lg:table-cell">{wo.workTypeName}</td>
                <td className="px-3 py-2">{who(wo)}</td>
                <td className="hidden px-3 py-2 whitespace-nowrap md:table-cell">
                  {wo.plannedStart ? format(wo.plannedStart) : '—'}
                </td>
                <td className="hidden px-3 py-2 whitespace-nowrap xl:table-cell">{format(wo.intakeTs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
