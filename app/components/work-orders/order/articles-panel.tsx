import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { DiscountField } from '~/app/components/articles/discount-field';
import { ArticlePicker, isSupplierOption } from '~/app/components/inventory/pickers/article-picker';
import { SUPPLIER_OPTION_PREFIX } from '~/core/supplier-catalogues/catalogue.schema';
import { Button, ConfirmDialog, formatNumber, useToast } from '~/app/components/ui';
import { CloseIcon } from '~/app/components/ui/icons';
import type { ArticlesActionResult } from '~/app/routes/work-orders.$id.articles';
import type { ArticlesPanelData, WorkOrderArticleRow } from '~/core/work-orders/articles.service';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';

export interface ArticlesPanelProps {
  workOrderId: string;
  customerId: string | null;
  businessObjectId: string | null;
  data: ArticlesPanelData;
  /** The order may change (open, unlocked, not deleted); with data.canReport the rows can be edited. */
  editable: boolean;
}

/** A row as the panel edits it: saved rows carry their id; new rows are priced when saved. */
interface EditRow {
  key: string;
  id?: string;
  articleId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  freeText: boolean;
  description: string;
  amount: string;
  discount: string;
  price: string | null;
  total: string | null;
  purchasePrice: string | null;
  margin: string | null;
}

let counter = 0;
const newKey = () => `new-${++counter}`;

const toEditRows = (rows: WorkOrderArticleRow[]): EditRow[] =>
  rows.map((r) => ({
    key: r.id,
    id: r.id,
    articleId: r.articleId,
    articleNumber: r.articleNumber,
    title: r.title,
    unit: r.unit,
    freeText: r.lineType === 'freetext',
    description: r.description ?? '',
    amount: trimAmount(r.amount),
    discount: r.discount,
    price: r.price,
    total: r.total,
    purchasePrice: r.purchasePrice,
    margin: r.margin,
  }));

/** "2.500" → "2,5", "1.000" → "1": how people type a quantity. */
function trimAmount(amount: string): string {
  return amount.replace(/\.?0+$/, '').replace('.', ',');
}

/** Money for people: "1 250,00"; an unknown value (a new row before it is priced) is a dash. */
const money = (v: string | null) => (v === null ? '—' : formatNumber(Number(v)));

const INPUT =
  'w-full min-w-0 rounded-md border border-gray-300 bg-white px-2 text-base text-gray-900 shadow-xs min-h-11 sm:min-h-9 sm:text-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600 disabled:bg-gray-100';

/**
 * The articles reported on a work order (spec section 3; issue 5 item 5): article, description,
 * amount, price, discount and total per row, with purchase price and margin for those with
 * workorders:read_cost. Articles are added with the article picker and saved at once (priced on the
 * server by the customer's and object's price lookup); amount and discount are edited inline and
 * saved with Save; removing a row asks first. A table on wide screens, cards on a phone.
 */
export function ArticlesPanel({ workOrderId, customerId, businessObjectId, data, editable }: ArticlesPanelProps) {
  const { t } = useTranslation('workorderrows');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<ArticlesActionResult>();
  const [saved, setSaved] = useState(data);
  const [rows, setRows] = useState(() => toEditRows(data.rows));
  const [dirty, setDirty] = useState(false);
  const [pickerKey, setPickerKey] = useState(0);
  const [removing, setRemoving] = useState<EditRow | null>(null);
  /** The row keys in the order they were sent: field errors name rows by index. */
  const sentKeys = useRef<string[]>([]);

  // fresh page data (after any save on the screen) replaces the rows unless the user is editing
  useEffect(() => {
    setSaved(data);
    if (!dirty) setRows(toEditRows(data.rows));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);

  const result = useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      setSaved(result.data);
      setRows(toEditRows(result.data.rows));
      setDirty(false);
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    } else {
      // what was sent is still on screen but not saved: the user can fix it, save again or undo
      setDirty(true);
      toast.show({ kind: 'error', message: tc(result.code) });
    }
  });

  const fieldErrors = result && !result.ok ? (result.fields ?? {}) : {};
  const errorsOf = (row: EditRow, field: string) => {
    const index = sentKeys.current.indexOf(row.key);
    return index < 0 ? undefined : fieldErrors[`rows.${index}.${field}`]?.map((k) => tc(k));
  };

  const canEdit = editable && saved.canReport;
  const busy = fetcher.state !== 'idle';
  const showCost = saved.canReadCost;

  function submit(next: EditRow[]) {
    sentKeys.current = next.map((r) => r.key);
    const payload = next.map((r) => ({
      id: r.id,
      // a supplier price list's article is sent as such; the server makes the row from it
      ...(isSupplierOption(r.articleId)
        ? { supplierArticleId: r.articleId.slice(SUPPLIER_OPTION_PREFIX.length) }
        : { articleId: r.articleId }),
      amount: r.amount.replace(/\s/g, '').replace(',', '.'),
      discount: r.discount,
      // only a free-text article's row has its own description
      ...(r.freeText ? { description: r.description } : {}),
    }));
    void fetcher.submit(
      { rows: JSON.stringify(payload) },
      { method: 'post', action: `/work-orders/${workOrderId}/articles` },
    );
  }

  function addArticle(option: { id: string; label: string } | null) {
    if (!option) return;
    const row: EditRow = {
      key: newKey(),
      articleId: option.id,
      articleNumber: '',
      title: option.label,
      unit: null,
      freeText: false,
      description: '',
      amount: '1',
      discount: '',
      price: null,
      total: null,
      purchasePrice: null,
      margin: null,
    };
    const next = [...rows, row];
    setRows(next);
    setPickerKey((k) => k + 1);
    submit(next);
  }

  function change(key: string, patch: Partial<EditRow>) {
    setDirty(true);
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  }

  function remove(row: EditRow) {
    const next = rows.filter((r) => r.key !== row.key);
    setRows(next);
    submit(next);
  }

  const label = (r: EditRow) => (r.articleNumber ? `${r.articleNumber} – ${r.title}` : r.title);

  const amountInput = (r: EditRow, withLabel: boolean) => {
    const errors = errorsOf(r, 'amount');
    return (
      <label className="flex min-w-0 flex-col gap-1 text-sm">
        <span className={withLabel ? 'text-gray-700' : 'sr-only'}>
          {t('articles.amount')} {withLabel ? null : label(r)}
        </span>
        <input
          className={INPUT}
          inputMode="decimal"
          value={r.amount}
          disabled={!canEdit || busy}
          aria-invalid={errors ? true : undefined}
          onChange={(e) => change(r.key, { amount: e.target.value })}
        />
        {errors ? <span className="text-sm text-red-700">{errors.join(' ')}</span> : null}
      </label>
    );
  };
  const discountInput = (r: EditRow, withLabel: boolean) => {
    const errors = errorsOf(r, 'discount');
    return (
      <DiscountField
        label={withLabel ? t('articles.discount') : `${t('articles.discount')} ${label(r)}`}
        labelClassName={withLabel ? 'text-sm text-gray-700' : 'sr-only'}
        value={r.discount}
        unit={r.unit}
        disabled={!canEdit || busy}
        error={errors ? errors.join(' ') : undefined}
        onChange={(discount) => change(r.key, { discount })}
      />
    );
  };
  const description = (r: EditRow) => {
    if (r.freeText && canEdit) {
      const errors = errorsOf(r, 'description');
      return (
        <label className="mt-1 flex min-w-0 flex-col gap-1 text-sm">
          <span className="text-gray-700">{t('articles.description')}</span>
          <input
            className={INPUT}
            value={r.description}
            disabled={busy}
            aria-invalid={errors ? true : undefined}
            onChange={(e) => change(r.key, { description: e.target.value })}
          />
          {errors ? <span className="text-sm text-red-700">{errors.join(' ')}</span> : null}
        </label>
      );
    }
    return r.description ? <div className="break-words text-slate-700">{r.description}</div> : null;
  };
  const rowErrors = (r: EditRow) => {
    const list = [
      ...(errorsOf(r, 'articleId') ?? []),
      ...(errorsOf(r, 'supplierArticleId') ?? []),
      ...(errorsOf(r, 'id') ?? []),
    ];
    return list.length ? (
      <p role="alert" className="text-sm text-red-700">
        {list.join(' ')}
      </p>
    ) : null;
  };
  const removeButton = (r: EditRow) =>
    canEdit ? (
      <Button
        size="sm"
        variant="ghost"
        isIconOnly
        aria-label={t('articles.remove', { name: label(r) })}
        isDisabled={busy}
        onPress={() => setRemoving(r)}
      >
        <CloseIcon />
      </Button>
    ) : null;

  return (
    <section
      aria-labelledby={`wo-articles-${workOrderId}`}
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h3 id={`wo-articles-${workOrderId}`} className="text-base font-semibold">
        {t('articles.title')}
      </h3>

      {rows.length === 0 ? <p className="mt-2 text-sm text-slate-600">{t('articles.empty')}</p> : null}

      {rows.length > 0 ? (
        <>
          {/* wide screens: a table */}
          <table className="mt-3 hidden w-full text-sm sm:table">
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-600">
                <th scope="col" className="py-2 pr-2 font-medium">
                  {t('articles.article')}
                </th>
                <th scope="col" className="w-24 px-2 py-2 font-medium">
                  {t('articles.amount')}
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  {t('articles.price')}
                </th>
                <th scope="col" className="w-36 px-2 py-2 font-medium">
                  {t('articles.discount')}
                </th>
                <th scope="col" className="px-2 py-2 text-right font-medium">
                  {t('articles.total')}
                </th>
                {showCost ? (
                  <>
                    <th scope="col" className="px-2 py-2 text-right font-medium">
                      {t('articles.purchasePrice')}
                    </th>
                    <th scope="col" className="px-2 py-2 text-right font-medium">
                      {t('articles.margin')}
                    </th>
                  </>
                ) : null}
                <th scope="col" className="w-10 py-2">
                  <span className="sr-only">{t('articles.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-2">
                    <div className="font-medium">{label(r)}</div>
                    {r.unit ? <div className="text-slate-600">{r.unit}</div> : null}
                    {description(r)}
                    {rowErrors(r)}
                  </td>
                  <td className="px-2 py-1">{amountInput(r, false)}</td>
                  <td className="px-2 py-2 text-right tabular-nums">{money(r.price)}</td>
                  <td className="px-2 py-1">{discountInput(r, false)}</td>
                  <td className="px-2 py-2 text-right tabular-nums">{money(r.total)}</td>
                  {showCost ? (
                    <>
                      <td className="px-2 py-2 text-right tabular-nums">{money(r.purchasePrice)}</td>
                      <td className="px-2 py-2 text-right tabular-nums">{money(r.margin)}</td>
                    </>
                  ) : null}
                  <td className="py-1">{removeButton(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>

          {/* phones: one card per row */}
          <ul className="mt-3 grid gap-3 sm:hidden">
            {rows.map((r) => (
              <li key={r.key} className="rounded-lg border border-slate-200 p-3">
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <div className="font-medium break-words">{label(r)}</div>
                    {r.unit ? <div className="text-sm text-slate-600">{r.unit}</div> : null}
                  </div>
                  {removeButton(r)}
                </div>
                <div className="text-sm">{description(r)}</div>
                {rowErrors(r)}
                <div className="mt-2 grid grid-cols-2 gap-2">
                  {amountInput(r, true)}
                  {discountInput(r, true)}
                </div>
                <dl className="mt-2 grid grid-cols-2 gap-x-2 gap-y-1 text-sm">
                  <dt className="text-slate-600">{t('articles.price')}</dt>
                  <dd className="text-right tabular-nums">{money(r.price)}</dd>
                  <dt className="text-slate-600">{t('articles.total')}</dt>
                  <dd className="text-right font-medium tabular-nums">{money(r.total)}</dd>
                  {showCost ? (
                    <>
                      <dt className="text-slate-600">{t('articles.purchasePrice')}</dt>
                      <dd className="text-right tabular-nums">{money(r.purchasePrice)}</dd>
                      <dt className="text-slate-600">{t('articles.margin')}</dt>
                      <dd className="text-right tabular-nums">{money(r.margin)}</dd>
                    </>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
        </>
      ) : null}

      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm sm:ml-auto sm:max-w-xs">
        <dt className="font-medium">{t('articles.net')}</dt>
        <dd className="text-right font-semibold tabular-nums">{money(saved.totals.net)}</dd>
        {showCost ? (
          <>
            <dt className="text-slate-600">{t('articles.purchaseTotal')}</dt>
            <dd className="text-right tabular-nums">{money(saved.totals.purchase)}</dd>
            <dt className="text-slate-600">{t('articles.margin')}</dt>
            <dd className="text-right tabular-nums">
              {money(saved.totals.margin)}
              {saved.totals.marginPercent !== null ? ` (${formatNumber(Number(saved.totals.marginPercent))} %)` : null}
            </dd>
          </>
        ) : null}
      </dl>

      {canEdit ? (
        <div className="mt-4 grid gap-3 sm:flex sm:items-end sm:justify-between">
          <div className="min-w-0 sm:w-96">
            <ArticlePicker
              key={pickerKey}
              label={t('articles.add')}
              supplierInventory
              isDisabled={busy}
              onSelectionChange={addArticle}
              description={customerId || businessObjectId ? t('articles.pricedForCustomer') : undefined}
            />
          </div>
          <div className="flex items-center gap-2">
            {dirty ? <span className="text-sm text-amber-800">{t('articles.unsaved')}</span> : null}
            <Button
              variant="secondary"
              isDisabled={!dirty || busy}
              onPress={() => {
                setRows(toEditRows(saved.rows));
                setDirty(false);
              }}
            >
              {t('articles.undo')}
            </Button>
            <Button isDisabled={!dirty} isPending={busy} onPress={() => submit(rows)}>
              {t('articles.save')}
            </Button>
          </div>
        </div>
      ) : null}

      <ConfirmDialog
        title={t('articles.removeTitle')}
        message={removing ? t('articles.removeMessage', { name: label(removing) }) : undefined}
        confirmLabel={t('articles.removeConfirm')}
        variant="danger"
        isOpen={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        onConfirm={() => {
          if (removing) remove(removing);
          setRemoving(null);
        }}
      />
    </section>
  );
}
