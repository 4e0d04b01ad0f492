import { useTranslation } from 'react-i18next';
import { DateTime, formatDate, SortableTable, useTenantClock, type TableColumn } from '~/app/components/ui';
import type { DeviationListRow } from '~/core/deviations/deviation.service';

/** Deviations as the list, the dashboard and the record pages show them; each row opens its deviation. */
export function DeviationTable({
  rows,
  label,
  empty,
  compact = false,
}: {
  rows: readonly DeviationListRow[];
  label: string;
  empty: string;
  /** Fewer columns (the dashboard's short lists, a record's card). */
  compact?: boolean;
}) {
  const { t } = useTranslation('deviations');
  const { dateFormat } = useTenantClock();
  const date = (d: string | null) => (d ? formatDate(d, dateFormat) : t('none'));
  const columns: TableColumn<DeviationListRow>[] = [
    { id: 'number', header: t('field.number'), isRowHeader: true, render: (d) => String(d.number) },
    { id: 'title', header: t('field.title'), render: (d) => d.title },
    {
      id: 'status',
      header: t('field.status'),
      render: (d) =>
        d.overdue ? (
          <span className="font-medium text-red-700">{t('overdue')}</span>
        ) : (
          t(`status.${d.status}`)
        ),
    },
    ...(compact
      ? []
      : ([
          { id: 'category', header: t('field.category'), render: (d) => d.categoryName ?? t('none') },
          {
            id: 'relations',
            header: t('field.relations'),
            render: (d) => (d.relationKinds.length ? d.relationKinds.map((k) => t(`relation.${k}`)).join(', ') : t('none')),
          },
          { id: 'responsible', header: t('field.responsible'), render: (d) => d.responsibleName ?? t('none') },
        ] satisfies TableColumn<DeviationListRow>[])),
    { id: 'due', header: t('field.dueDate'), render: (d) => date(d.dueDate) },
    ...(compact ? [] : [{ id: 'created', header: t('field.created'), render: (d: DeviationListRow) => <DateTime iso={d.createdAt} withTime={false} /> }]),
  ];
  return (
    <SortableTable
      aria-label={label}
      columns={columns}
      rows={rows}
      emptyState={<p className="p-4 text-sm text-slate-600">{empty}</p>}
      getRowHref={(d) => `/deviations/${d.id}`}
    />
  );
}
