import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/dashboard';
import { useCan } from '~/app/lib/can';
import { guard, run } from '~/app/lib/guard.server';
import { formatNumber } from '~/core/i18n/number-format';
import { getDashboardKpis } from '~/core/dashboard/kpi.service';
import { pageTitle } from '~/app/lib/page-title';

/** The dashboard (spec section 2): the company's key figures, for those whose start page it can be. */
export const middleware = guard({ permission: 'dashboard:read', module: 'dashboard' });

export async function loader({ context }: Route.LoaderArgs) {
  return run(context, (ctx) => getDashboardKpis(ctx));
}

function Card({ label, value, help, to }: { label: string; value: string; help: string; to?: string }) {
  const body = (
    <>
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold text-slate-900">{value}</p>
      <p className="mt-1 text-xs text-slate-500">{help}</p>
    </>
  );
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {to ? (
        <Link to={to} className="block">
          {body}
        </Link>
      ) : (
        body
      )}
    </li>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('dashboard.title');

export default function Dashboard({ loaderData: k }: Route.ComponentProps) {
  const { t } = useTranslation();
  const canAgreements = useCan()('agreements:read');
  return (
    <section aria-labelledby="dashboard-title" className="space-y-4">
      <h1 id="dashboard-title" className="text-2xl font-semibold">
        {t('dashboard.title')}
      </h1>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <Card
          label={t('dashboard.openWorkOrders')}
          value={formatNumber(k.openWorkOrders, { decimals: 0 })}
          help={t('dashboard.openWorkOrdersHelp')}
          to="/?list=open"
        />
        <Card
          label={t('dashboard.toInvoice')}
          value={formatNumber(k.toInvoice.count, { decimals: 0 })}
          help={t('dashboard.toInvoiceHelp', { total: formatNumber(Number(k.toInvoice.total)) })}
        />
        <Card
          label={t('dashboard.leadTime')}
          value={
            k.leadTimeDays === null ? '—' : t('dashboard.days', { days: formatNumber(k.leadTimeDays, { decimals: 1 }) })
          }
          help={t('dashboard.leadTimeHelp')}
        />
        <Card
          label={t('dashboard.newObjects')}
          value={formatNumber(k.newObjects, { decimals: 0 })}
          help={t('dashboard.newObjectsHelp')}
        />
        <Card
          label={t('dashboard.agreementInvoicing')}
          value={formatNumber(k.agreementInvoicing.due.count, { decimals: 0 })}
          help={t('dashboard.agreementInvoicingHelp', {
            amount: formatNumber(Number(k.agreementInvoicing.due.amount)),
            made: formatNumber(k.agreementInvoicing.invoiced.count, { decimals: 0 }),
            madeAmount: formatNumber(Number(k.agreementInvoicing.invoiced.amount)),
          })}
          to={canAgreements ? '/agreements/invoices' : undefined}
        />
      </ul>
    </section>
  );
}
