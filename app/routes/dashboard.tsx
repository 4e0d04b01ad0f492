import { useTranslation } from 'react-i18next';
import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/dashboard';
import { useCan } from '~/app/lib/can';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { hasAccess } from '~/core/permissions/access';
import { EDIT_BOARD, listMessagePosts } from '~/core/message-board/message-board.service';
import { MessageBoard } from '~/app/components/dashboard/message-board';
import { formatNumber } from '~/core/i18n/number-format';
import { getDashboardCards, saveDashboardSettings, type TrendPoint } from '~/core/dashboard/kpi.service';
import { DASHBOARD_PERIODS, parsePeriod } from '~/core/dashboard/dashboard-period';
import { pageTitle } from '~/app/lib/page-title';
import { KpiCard as Card } from '~/app/components/dashboard/kpi-card';
import { SupplierOrdersCard } from '~/app/components/supplier-orders/supplier-orders-card';
import { monthName } from '~/app/components/projects/costs-panel';
import type { Bar } from '~/app/components/reports/bar-chart';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { useFieldErrors } from '~/app/components/objects/shared';
import { Button, TextField } from '~/app/components/ui';

/**
 * The dashboard (spec section 2; decision 062): the company's key figures over the period in the
 * address (`?period=12m|year|2m`), each with its months and a link to the list behind it.
 */
export const middleware = guard({ permission: 'dashboard:read', module: 'dashboard' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const period = parsePeriod(new URL(request.url).searchParams.get('period'));
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    ...(await getDashboardCards(ctx, period)),
    // the message board (broadcast module; decision 066) sits on the dashboard
    board: hasAccess(auth, { permission: 'signed-in', module: 'broadcast' })
      ? { ...(await listMessagePosts(ctx)), canEdit: hasAccess(auth, EDIT_BOARD) }
      : null,
  }));
}

/** The open work orders card's price per hour and debit factor (`dashboard:open_workorders_kpi_edit`). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  try {
    await run(context, (ctx) => saveDashboardSettings(ctx, form));
    return data<{ ok: boolean; code?: string; fields?: Record<string, string[]> }>({ ok: true });
  } catch (e) {
    return actionError(e);
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('dashboard.title');

export default function Dashboard({ loaderData: k }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const money = (v: string | number) => formatNumber(Number(v));
  const whole = (v: number) => formatNumber(v, { decimals: 0 });
  const bars = (trend: readonly TrendPoint[], text: (v: number) => string): Bar[] =>
    trend.map((p) => ({
      id: p.month,
      label: monthName(p.month, i18n.language, trend.length > 12 || p.month.endsWith('-01')),
      value: p.value,
      valueText: text(p.value),
    }));
  const period = k.period.period;
  const hours = formatNumber(k.openToInvoice.minutes / 60, { decimals: 1 });
  const workOrders = can('workorders:read');
  return (
    <section aria-labelledby="dashboard-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="dashboard-title" className="text-2xl font-semibold">
          {t('dashboard.title')}
        </h1>
        <nav aria-label={t('dashboard.period')}>
          <ul className="flex rounded-lg bg-slate-100 p-1 text-sm">
            {DASHBOARD_PERIODS.map((p) => (
              <li key={p}>
                <Link
                  to={`/dashboard?period=${p}`}
                  aria-current={p === period ? 'page' : undefined}
                  className={
                    p === period
                      ? 'block rounded-md bg-white px-3 py-1.5 font-medium text-slate-900 shadow-sm'
                      : 'block rounded-md px-3 py-1.5 text-slate-700 hover:bg-white/70'
                  }
                >
                  {t(`dashboard.period.${p}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="text-sm text-slate-600">{t('dashboard.periodRange', { from: k.period.from, to: k.period.to })}</p>
      {k.board ? <MessageBoard posts={k.board.posts} canEdit={k.board.canEdit} /> : null}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        <Card
          label={t('dashboard.openToInvoice')}
          value={money(k.openToInvoice.value)}
          help={t('dashboard.openToInvoiceHelp', {
            orders: whole(k.openToInvoice.openOrders),
            hours,
            price: money(k.settings.pricePerHour),
            factor: formatNumber(Number(k.settings.debitFactor), { decimals: 2 }),
          })}
          to={workOrders ? '/?list=open' : undefined}
          trend={bars(k.openToInvoice.trend, money)}
          trendTitle={t('dashboard.valuePerMonth')}
        />
        <Card
          label={t('dashboard.agreementInvoicing')}
          value={money(k.agreementInvoicing.amount)}
          help={t('dashboard.agreementInvoicingHelp', {
            made: whole(k.agreementInvoicing.count),
            due: whole(k.agreementInvoicing.due.count),
            dueAmount: money(k.agreementInvoicing.due.amount),
          })}
          to={can('agreements:read') ? '/agreements/invoices' : undefined}
          trend={bars(k.agreementInvoicing.trend, money)}
          trendTitle={t('dashboard.amountPerMonth')}
        />
        <Card
          label={t('dashboard.openProjects')}
          value={money(k.openProjects.leftToInvoice)}
          help={t('dashboard.openProjectsHelp', {
            projects: whole(k.openProjects.count),
            invoiced: money(k.openProjects.invoiced),
          })}
          to={can('projects:read') ? '/projects' : undefined}
          trend={bars(k.openProjects.trend, money)}
          trendTitle={t('dashboard.invoicedPerMonth')}
        />
        <Card
          label={t('dashboard.leadTime')}
          value={
            k.leadTime.days === null
              ? '—'
              : t('dashboard.days', { days: formatNumber(k.leadTime.days, { decimals: 1 }) })
          }
          help={t('dashboard.leadTimeHelp', { closed: whole(k.leadTime.closed), from: k.period.leadFrom })}
          to={workOrders ? '/?list=closed' : undefined}
          trend={bars(k.leadTime.trend, (v) => t('dashboard.days', { days: formatNumber(v, { decimals: 1 }) }))}
          trendTitle={t('dashboard.daysPerMonth')}
        />
        <Card
          label={t('dashboard.accruedIncome')}
          value={money(k.accruedIncome.value)}
          help={t('dashboard.accruedIncomeHelp', { orders: whole(k.accruedIncome.orders) })}
          to={workOrders ? '/?list=closed' : undefined}
          trend={bars(k.accruedIncome.trend, money)}
          trendTitle={t('dashboard.amountPerMonth')}
        />
        <Card
          label={t('dashboard.invoicedVsNot')}
          value={`${whole(k.invoicedVsNot.invoiced)} / ${whole(k.invoicedVsNot.notInvoiced)}`}
          help={t('dashboard.invoicedVsNotHelp')}
          to={can('invoices:read') ? '/invoices' : undefined}
          trend={bars(k.invoicedVsNot.trend, (v) => `${whole(v)} %`)}
          trendTitle={t('dashboard.invoicedSharePerMonth')}
        />
        <Card
          label={t('dashboard.objects')}
          value={`+${whole(k.objects.added)} / −${whole(k.objects.lost)}`}
          help={t('dashboard.objectsHelp')}
          to={can('bo:read') ? '/objects' : undefined}
          trend={bars(k.objects.trend, whole)}
          trendTitle={t('dashboard.addedPerMonth')}
        />
        <SupplierOrdersCard
          count={k.supplierOrdersInError.count}
          trend={bars(k.supplierOrdersInError.trend, whole)}
          trendTitle={t('dashboard.countPerMonth')}
        />
      </ul>
      {can('dashboard:open_workorders_kpi_edit', 'dashboard') ? <PriceSettings settings={k.settings} /> : null}
    </section>
  );
}

/** The price per hour and debit factor the open work orders are valued at. */
function PriceSettings({ settings }: { settings: { pricePerHour: string; debitFactor: string } }) {
  const { t } = useTranslation();
  const result = useActionData<ActionError | { ok: boolean; code?: string; fields?: Record<string, string[]> }>();
  useActionToast(result);
  const errors = useFieldErrors(result);
  const busy = useNavigation().state === 'submitting';
  const decimal = (v: string) => v.replace('.', ',');
  return (
    <section aria-labelledby="dashboard-prices" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="dashboard-prices" className="text-lg font-semibold">
        {t('dashboard.prices')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('dashboard.pricesHelp')}</p>
      <Form method="post" className="mt-3 grid gap-4 sm:grid-cols-3 sm:items-end" noValidate>
        <TextField
          name="pricePerHour"
          label={t('dashboard.pricePerHour')}
          defaultValue={decimal(settings.pricePerHour)}
          errorMessage={errors('pricePerHour')}
        />
        <TextField
          name="debitFactor"
          label={t('dashboard.debitFactor')}
          defaultValue={decimal(settings.debitFactor)}
          errorMessage={errors('debitFactor')}
        />
        <div>
          <Button type="submit" variant="primary" isPending={busy}>
            {t('dashboard.savePrices')}
          </Button>
        </div>
      </Form>
    </section>
  );
}
