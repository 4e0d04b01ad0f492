import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useFetcher } from 'react-router';
import type { Route } from './+types/agreements.price-adjustment';
import { AgreementsSubnav } from '~/app/components/agreements/agreements-subnav';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  DateTime,
  formatDate,
  formatNumber,
  TextField,
  dateValueOf,
  useTenantClock,
  useToast,
} from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import { listAgreementTypes } from '~/core/agreements/agreement-type.service';
import { tenantToday } from '~/core/agreements/generation.service';
import {
  createAdjustment,
  listAdjustments,
  previewAdjustment,
  type AdjustmentPreviewRow,
} from '~/core/agreements/price-adjustment.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Agreements → price adjustment (issue 16 item 5): raise (or lower) the prices of the agreements of
 * chosen types by a percentage from a date (1 January next year unless told). A preview lists every
 * agreement's amount per period before and after; applying asks first, changes the prices at once
 * when the date has come, else waits for that day's invoicing run. Below, the adjustments made.
 */
export const middleware = guard({ permission: 'agreements:edit' });

/** How many preview rows the page lists; the totals cover them all. */
const PREVIEW_ROWS = 500;

export async function loader({ context }: Route.LoaderArgs) {
  return run(context, async (ctx) => {
    const types = await listAgreementTypes(ctx, { limit: 200 });
    const { adjustments } = await listAdjustments(ctx);
    const today = tenantToday(ctx);
    return {
      types: types.agreements.map((a) => ({
        id: a.id,
        code: a.code,
        title: a.title,
        status: a.status,
        objectCount: a.objectCount,
      })),
      typesTotal: types.totalCount,
      adjustments,
      today,
      defaultDate: `${Number(today.slice(0, 4)) + 1}-01-01`,
    };
  });
}

interface AdjustmentBody {
  intent?: unknown;
  agreementIds?: unknown;
  objectAgreementIds?: unknown;
  percent?: unknown;
  effectiveFrom?: unknown;
}

export type PreviewResult = { ok: true; preview: Awaited<ReturnType<typeof previewAdjustment>> } | ActionError;
export type ApplyResult = { ok: true; result: Awaited<ReturnType<typeof createAdjustment>> } | ActionError;

export async function action({ request, context }: Route.ActionArgs) {
  const body = ((await request.json().catch(() => ({}))) ?? {}) as AdjustmentBody;
  // "2,5" as a Swede writes it is 2.5
  const percent = typeof body.percent === 'string' ? body.percent.replace(/\s/g, '').replace(',', '.') : body.percent;
  const input = {
    agreementIds: body.agreementIds,
    objectAgreementIds: body.objectAgreementIds,
    percent: percent === '' ? undefined : percent,
    effectiveFrom: body.effectiveFrom,
  };
  try {
    if (body.intent === 'apply')
      return { ok: true as const, result: await run(context, (ctx) => createAdjustment(ctx, input)) };
    return { ok: true as const, preview: await run(context, (ctx) => previewAdjustment(ctx, input)) };
  } catch (e) {
    return actionError(e);
  }
}

const money = (v: string) => formatNumber(Number(v));

function Change({ from, to }: { from: string; to: string }) {
  const diff = Number(to) - Number(from);
  return (
    <span className={cx('tabular-nums', diff < 0 ? 'text-red-800' : diff > 0 ? 'text-green-800' : '')}>
      {diff > 0 ? '+' : ''}
      {formatNumber(diff)}
    </span>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.priceAdjustment', null, { within: 'nav.agreements' });

export default function PriceAdjustment({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('agreementinvoices');
  const { t: tc } = useTranslation();
  const { dateFormat } = useTenantClock();
  const toast = useToast();
  const previewer = useFetcher<PreviewResult>();
  const applier = useFetcher<ApplyResult>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [percent, setPercent] = useState('');
  const [effectiveFrom, setEffectiveFrom] = useState(loaderData.defaultDate);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [previewed, setPreviewed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const asked = JSON.stringify({ chosen: [...chosen].sort(), percent, effectiveFrom });
  const previewResult = previewer.state === 'idle' ? previewer.data : undefined;
  const preview = previewResult && 'ok' in previewResult && previewed === asked ? previewResult.preview : null;
  useFetcherResult(previewer, (r) => {
    if ('ok' in r) {
      setExcluded(new Set());
    } else if (!r.fields) toast.show({ kind: 'error', message: tc(r.code) });
  });
  useFetcherResult(applier, (r) => {
    if ('ok' in r) {
      toast.show({
        kind: 'success',
        message: r.result.applied
          ? t('adjust.applied', { count: r.result.agreements })
          : t('adjust.waiting', { count: r.result.agreements, date: formatDate(effectiveFrom, dateFormat) }),
      });
      setPreviewed(null);
      setChosen([]);
      setPercent('');
    } else toast.show({ kind: 'error', message: tc(r.fields ? 'VALIDATION_FAILED' : r.code) });
  });
  const failed = previewResult && !('ok' in previewResult) ? previewResult : undefined;
  const fieldError = (...names: string[]) => {
    const keys = names.flatMap((n) => failed?.fields?.[n] ?? []);
    return keys.length ? keys.map((k) => tc(k)) : undefined;
  };
  // the service names a missing choice once the percent and date are right; say it at once
  const typesError =
    fieldError('agreementIds', 'objectAgreementIds') ??
    (failed && chosen.length === 0 ? [tc('AGREEMENT_ADJUSTMENT_NOTHING_CHOSEN')] : undefined);

  const body = (intent: 'preview' | 'apply') => {
    const rows = preview?.rows ?? [];
    // every agreement of the types, unless some were taken out of the preview
    const some = intent === 'apply' && excluded.size > 0;
    return {
      intent,
      agreementIds: some ? [] : chosen,
      objectAgreementIds: some
        ? rows.filter((r) => !excluded.has(r.objectAgreementId)).map((r) => r.objectAgreementId)
        : [],
      percent,
      effectiveFrom,
    };
  };
  const showPreview = () => {
    setPreviewed(asked);
    void previewer.submit(body('preview'), { method: 'post', encType: 'application/json' });
  };
  const included = useMemo(
    () => (preview ? preview.rows.filter((r) => !excluded.has(r.objectAgreementId)) : []),
    [preview, excluded],
  );
  const sum = (rows: AdjustmentPreviewRow[], key: 'oldAmount' | 'newAmount') =>
    rows.reduce((s, r) => s + Number(r[key]), 0).toFixed(2);
  const toggle = (id: string) =>
    setExcluded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const atOnce = effectiveFrom <= loaderData.today;

  return (
    <div className="grid gap-4">
      <section className="min-w-0 space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <AgreementsSubnav />
        <h1 className="text-2xl font-semibold">{t('adjust.title')}</h1>
        <p className="text-sm text-slate-700">{t('adjust.help')}</p>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            showPreview();
          }}
        >
          <fieldset>
            <legend className="text-sm font-medium text-gray-900">{t('adjust.types')}</legend>
            {loaderData.types.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                {t('adjust.noTypes')}{' '}
                <Link to="/agreements" className="text-blue-800 underline">
                  {t('subnav.types')}
                </Link>
              </p>
            ) : (
              <div className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2">
                {loaderData.types.map((type) => (
                  <label key={type.id} className="flex min-h-10 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="agreementIds"
                      value={type.id}
                      checked={chosen.includes(type.id)}
                      onChange={(e) =>
                        setChosen((c) => (e.target.checked ? [...c, type.id] : c.filter((x) => x !== type.id)))
                      }
                      aria-invalid={typesError ? true : undefined}
                      className="size-4 accent-brand-600"
                    />
                    <span>
                      {type.code} – {type.title}{' '}
                      <span className="text-slate-600">
                        ({t('adjust.objects', { count: type.objectCount })}
                        {type.status === 'inactive' ? `, ${t('adjust.inactive')}` : ''})
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            )}
            {loaderData.typesTotal > loaderData.types.length ? (
              <p className="mt-1 text-sm text-slate-600">
                {t('adjust.typesCut', { count: loaderData.types.length, total: loaderData.typesTotal })}
              </p>
            ) : null}
            {typesError ? (
              <p role="alert" className="mt-1 text-sm text-red-700">
                {typesError.join(' ')}
              </p>
            ) : null}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <TextField
              label={t('adjust.percent')}
              description={t('adjust.percentHelp')}
              name="percent"
              inputMode="decimal"
              value={percent}
              onChange={setPercent}
              isRequired
              errorMessage={fieldError('percent')}
            />
            <DatePicker
              label={t('adjust.effectiveFrom')}
              name="effectiveFrom"
              isRequired
              value={dateValueOf(effectiveFrom)}
              onChange={(v) => setEffectiveFrom(v?.toString() ?? '')}
              errorMessage={fieldError('effectiveFrom')}
            />
          </div>
          <div>
            <Button type="submit" variant="secondary" isPending={previewer.state !== 'idle'}>
              {t('adjust.preview')}
            </Button>
          </div>
        </form>

        {preview ? (
          <section aria-labelledby="adjust-preview-title" className="space-y-3">
            <h2 id="adjust-preview-title" className="text-lg font-semibold">
              {t('adjust.previewTitle')}
            </h2>
            {preview.rows.length === 0 ? (
              <p className="rounded-lg border border-dashed border-gray-300 p-6 text-center text-gray-700">
                {t('adjust.previewEmpty')}
              </p>
            ) : (
              <>
                <p className="text-sm text-slate-700" aria-live="polite">
                  {t('adjust.previewSummary', {
                    count: included.length,
                    old: money(excluded.size ? sum(included, 'oldAmount') : preview.oldTotal),
                    new: money(excluded.size ? sum(included, 'newAmount') : preview.newTotal),
                  })}
                </p>
                <div className="overflow-x-auto rounded-lg border border-gray-200">
                  <table className="w-full min-w-max text-sm" aria-label={t('adjust.previewTitle')}>
                    <thead className="border-b border-gray-200 bg-gray-50 text-gray-700">
                      <tr>
                        <th scope="col" className="px-3 py-2 text-start">
                          {t('adjust.include')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-start">
                          {t('col.object')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-start">
                          {t('col.customer')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-start">
                          {t('col.agreement')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-end">
                          {t('adjust.oldAmount')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-end">
                          {t('adjust.newAmount')}
                        </th>
                        <th scope="col" className="px-3 py-2 text-end">
                          {t('adjust.change')}
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-gray-100">
                      {preview.rows.slice(0, PREVIEW_ROWS).map((r) => (
                        <tr key={r.objectAgreementId} data-testid="preview-row">
                          <td className="px-3 py-2">
                            <input
                              type="checkbox"
                              checked={!excluded.has(r.objectAgreementId)}
                              onChange={() => toggle(r.objectAgreementId)}
                              aria-label={t('adjust.includeOne', { serial: r.serialCode })}
                              className="size-4 accent-brand-600"
                            />
                          </td>
                          <th scope="row" className="px-3 py-2 text-start font-medium whitespace-nowrap">
                            {r.serialCode}
                          </th>
                          <td className="px-3 py-2">{r.customerName ?? '—'}</td>
                          <td className="px-3 py-2">{r.agreementTitle}</td>
                          <td className="px-3 py-2 text-end tabular-nums">{money(r.oldAmount)}</td>
                          <td className="px-3 py-2 text-end tabular-nums">{money(r.newAmount)}</td>
                          <td className="px-3 py-2 text-end">
                            <Change from={r.oldAmount} to={r.newAmount} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                    <tfoot className="border-t border-gray-200 bg-gray-50 font-semibold">
                      <tr>
                        <th scope="row" colSpan={4} className="px-3 py-2 text-start">
                          {t('total')}
                        </th>
                        <td className="px-3 py-2 text-end tabular-nums">{money(sum(included, 'oldAmount'))}</td>
                        <td className="px-3 py-2 text-end tabular-nums">{money(sum(included, 'newAmount'))}</td>
                        <td className="px-3 py-2 text-end">
                          <Change from={sum(included, 'oldAmount')} to={sum(included, 'newAmount')} />
                        </td>
                      </tr>
                    </tfoot>
                  </table>
                </div>
                {preview.rows.length > PREVIEW_ROWS ? (
                  <p className="text-sm text-slate-600">
                    {t('adjust.previewCut', { count: PREVIEW_ROWS, total: preview.rows.length })}
                  </p>
                ) : null}
                <Button
                  variant="primary"
                  onPress={() => setConfirming(true)}
                  isDisabled={included.length === 0}
                  isPending={applier.state !== 'idle'}
                >
                  {t('adjust.apply')}
                </Button>
              </>
            )}
          </section>
        ) : null}
      </section>

      <section
        aria-labelledby="adjustments-title"
        className="min-w-0 space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <h2 id="adjustments-title" className="text-lg font-semibold">
          {t('adjust.listTitle')}
        </h2>
        {loaderData.adjustments.length === 0 ? (
          <p className="text-sm text-slate-600">{t('adjust.listEmpty')}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-gray-200">
            <table className="w-full min-w-max text-sm" aria-label={t('adjust.listTitle')}>
              <thead className="border-b border-gray-200 bg-gray-50 text-gray-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t('adjust.effectiveFrom')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('adjust.percent')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-end">
                    {t('adjust.agreements')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t('col.status')}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t('adjust.madeBy')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {loaderData.adjustments.map((a) => (
                  <tr key={a.id} data-testid="adjustment-row">
                    <th scope="row" className="px-3 py-2 text-start font-normal whitespace-nowrap tabular-nums">
                      {formatDate(a.effectiveFrom, dateFormat)}
                    </th>
                    <td className="px-3 py-2 text-end tabular-nums">
                      {Number(a.percent) > 0 ? '+' : ''}
                      {formatNumber(Number(a.percent))} %
                    </td>
                    <td className="px-3 py-2 text-end tabular-nums">{a.agreements}</td>
                    <td className="px-3 py-2">
                      {a.appliedAt ? (
                        <span className="inline-flex items-center gap-1 rounded bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900">
                          {t('adjust.statusApplied')} <DateTime iso={a.appliedAt} withTime={false} />
                        </span>
                      ) : (
                        <span className="inline-flex rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
                          {t('adjust.statusWaiting')}
                        </span>
                      )}
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {a.createdBy ?? '—'} · <DateTime iso={a.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('adjust.confirmTitle')}
        message={
          atOnce
            ? t('adjust.confirmNow', { count: included.length, percent, date: formatDate(effectiveFrom, dateFormat) })
            : t('adjust.confirmLater', { count: included.length, percent, date: formatDate(effectiveFrom, dateFormat) })
        }
        confirmLabel={t('adjust.apply')}
        isPending={applier.state !== 'idle'}
        onConfirm={() => applier.submit(body('apply'), { method: 'post', encType: 'application/json' })}
      />
    </div>
  );
}
