import { useTranslation } from 'react-i18next';
import { KpiCard } from '~/app/components/dashboard/kpi-card';
import type { Bar } from '~/app/components/reports/bar-chart';
import { useCan } from '~/app/lib/can';
import { formatNumber } from '~/core/i18n/number-format';

/**
 * The dashboard's "supplier orders with wrong work-order reference" card (spec section 2; decisions
 * 055 and 062): the order confirmations in error that arrived in the dashboard's period; a link to
 * them for whoever may handle them.
 */
export function SupplierOrdersCard({
  count,
  trend,
  trendTitle,
}: {
  count: number;
  trend?: readonly Bar[];
  trendTitle?: string;
}) {
  const { t } = useTranslation('supplierorders');
  const can = useCan();
  return (
    <KpiCard
      label={t('dashboard.card')}
      value={formatNumber(count, { decimals: 0 })}
      help={t('dashboard.help')}
      to={can('supplier_orders:edit', 'supplier_invoices') ? '/supplierorders' : undefined}
      trend={trend}
      trendTitle={trendTitle}
    />
  );
}
