import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DiscountField } from '~/app/components/articles/discount-field';
import { moneyInput } from '~/app/components/articles/format';
import { ArticlePicker, isSupplierOption } from '~/app/components/inventory/pickers/article-picker';
import { Button, ConfirmDialog, Dialog, NativeSelect } from '~/app/components/ui';
import { INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field-classes';
import { useDragReorder } from '~/app/components/ui/use-drag-reorder';
import { formatNumber } from '~/core/i18n/number-format';
import { discountOf, formatDiscount, parseDiscount } from '~/core/pricing';
import type { ProposalRow, ProposalSettings } from '~/core/proposals/proposal.service';
import { proposalFigures, type ProposalFigures } from '~/core/proposals/proposal-rows';
import { SUPPLIER_OPTION_PREFIX } from '~/core/supplier-catalogues/catalogue.schema';

const apiType = (t: 'PERCENTAGE' | 'REGULAR' | 'NONE') =>
  t === 'PERCENTAGE' ? 'percentage' : t === 'REGULAR' ? 'amount' : null;
const coreType = (t: 'percentage' | 'amount' | null) =>
  t === 'percentage' ? 'PERCENTAGE' : t === 'amount' ? 'REGULAR' : null;

export function emptyRow(kind: 'article' | 'comment' | 'summary'): ProposalRow {
  const id = `new-${Math.random().toString(36).slice(2)}`;
  return {
    id,
    key: id,
    sortOrder: 0,
    comment: kind === 'comment' ? '' : null,
    isSummaryRow: kind === 'summary',
    articleId: null,
    articleTitle: null,
    articleDescription: null,
    articleUnit: null,
    articleAmount: kind === 'article' ? '1' : null,
    articlePrice: null,
    articlePurchasePrice: null,
    articleMonthlyPrice: null,
    articleDiscountType: null,
    articleDiscountValue: null,
    articleMonthlyDiscountType: null,
    articleMonthlyDiscountValue: null,
    articlePriceTag: null,
    articleTotalPrice: '0.00',
    articleMonthlyTotalPrice: '0.00',
    isInProjectScope: null,
    erpRef: { costCenter: { value: null }, stockPoint: { value: null } },
    ref: null,
  };
}

/**
 * The row's article as its picker holds it: ours by id, or a supplier catalogue's article picked
 * and not yet saved (the picker's `si:` option; the save makes the row of it, decision 056).
 */
const pickedId = (r: ProposalRow) =>
  r.articleId ?? (r.supplierArticleId ? `${SUPPLIER_OPTION_PREFIX}${r.supplierArticleId}` : null);

/** The row's change when its picker picks `id` (null: cleared); its prices are the save's to find. */
function picked(o: { id: string; label: string } | null): Partial<ProposalRow> {
  const fromSupplier = o !== null && isSupplierOption(o.id);
  return {
    articleId: o && !fromSupplier ? o.id : null,
    supplierArticleId: fromSupplier ? o.id.slice(SUPPLIER_OPTION_PREFIX.length) : null,
    articleTitle: o?.label ?? null,
    articlePrice: null,
    articlePurchasePrice: null,
    ref: null,
  };
}

/** A small text input of a row: its label is read aloud, the column heading shows it on screens. */
function Cell(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  disabled: boolean;
  error?: string;
  inputMode?: 'decimal' | 'text';
  className?: string;
  placeholder?: string;
  /** Show the label on large screens too (fields that have no column heading). */
  visibleLabel?: boolean;
}) {
  return (
    <label className={`flex flex-col gap-0.5 ${props.className ?? ''}`}>
      <span className={`text-xs text-gray-600 ${props.visibleLabel ? '' : 'sm:sr-only'}`}>{props.label}</span>
      <input
        aria-label={props.label}
        aria-invalid={props.error ? true : undefined}
        inputMode={props.inputMode ?? 'decimal'}
        value={props.value}
        placeholder={props.placeholder}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-2 text-end ${props.error ? 'border-red-600' : ''}`}
      />
      {props.error && <span className="text-xs text-red-700">{props.error}</span>}
    </label>
  );
}

/** The desktop row's columns: article, amount, price, discount, total (and the row's tools). */
const ROW_GRID = 'sm:grid-cols-[minmax(12rem,2fr)_repeat(4,minmax(5rem,1fr))]';
const ROW_GRID_WITH_TOOLS = 'sm:grid-cols-[minmax(12rem,2fr)_repeat(4,minmax(5rem,1fr))_8.5rem]';

/** An amount as people write it: "7", "2,5" (no trailing decimals on whole numbers). */
const amountText = (amount: string | null) => {
  const n = Number(amount ?? 0);
  return formatNumber(n, { decimals: Number.isInteger(n) ? 0 : 2 });
};

type Figures = ProposalFigures['rows'][number];

/** A row's kind as the editor shows it. */
const kindOf = (r: ProposalRow) =>
  r.isSummaryRow ? 'summary' : r.comment !== null && !r.articleId ? 'comment' : 'article';

interface RowProps {
  row: ProposalRow;
  index: number;
  figures: Figures;
  settings: ProposalSettings;
  readOnly: boolean;
  groupId: string | null;
  error: (field: string) => string | undefined;
  update: (patch: Partial<ProposalRow>) => void;
  discountField: (monthly: boolean) => ReactNode;
}

/**
 * One row's fields: the same on a large screen's table and in a phone's bottom sheet. An article
 * must be chosen before its prices show (spec section 5); the fields the proposal settings switch
 * on (purchase price, cost center, stock point, project scope) follow.
 */
function RowFields({ row: r, figures, settings, readOnly, groupId, error, update, discountField }: RowProps) {
  const { t } = useTranslation('proposals');
  const kind = kindOf(r);
  if (kind === 'summary')
    return (
      <p className="font-medium sm:col-span-5">
        {t('row.summary')}: <span className="tabular-nums">{formatNumber(Number(figures.summarySalesPrice ?? 0))}</span>
        {settings.monthlyPrice && (
          <span className="ms-3 text-gray-700 tabular-nums">
            {t('row.monthly')}: {formatNumber(Number(figures.summaryMonthlyPrice ?? 0))}
          </span>
        )}
      </p>
    );
  if (kind === 'comment')
    return (
      <label className="flex flex-col gap-0.5 sm:col-span-5">
        <span className="text-xs text-gray-600">{t('row.comment')}</span>
        <input
          value={r.comment ?? ''}
          disabled={readOnly}
          maxLength={2000}
          onChange={(e) => update({ comment: e.target.value })}
          className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-2`}
        />
      </label>
    );
  const decimal = (v: string) => v.replace(',', '.') || null;
  const selected = pickedId(r);
  const extras =
    selected && (settings.purchasePriceEdit || settings.costCenter || settings.stockPoint || settings.projectScope);
  return (
    <>
      <ArticlePicker
        label={t('row.article')}
        isDisabled={readOnly}
        groupId={groupId}
        supplierInventory
        defaultSelected={selected ? { id: selected, label: r.articleTitle ?? '' } : null}
        errorMessage={[error('articleId'), error('supplierArticleId')].filter(Boolean).join(' ') || undefined}
        onSelectionChange={(o) => (o?.id ?? null) !== selected && update(picked(o))}
      />
      {selected ? (
        <>
          <Cell
            label={t('row.amount')}
            value={moneyInput(r.articleAmount)}
            disabled={readOnly}
            error={error('articleAmount')}
            onChange={(v) => update({ articleAmount: decimal(v) })}
          />
          <Cell
            label={t('row.price')}
            value={moneyInput(r.articlePrice)}
            placeholder={t('row.pricePending')}
            disabled={readOnly}
            error={error('articlePrice')}
            onChange={(v) => update({ articlePrice: decimal(v) })}
          />
          {discountField(false)}
          <p className="text-end tabular-nums sm:pb-2" aria-label={t('row.total')}>
            {formatNumber(Number(figures.totalPrice))}
          </p>
        </>
      ) : (
        <p className="text-sm text-gray-600 sm:col-span-4">{t('row.pickArticle')}</p>
      )}
      {settings.monthlyPrice && selected && (
        <div className="grid grid-cols-3 gap-2 sm:col-span-5 sm:col-start-2">
          <Cell
            label={t('row.monthlyPrice')}
            visibleLabel
            value={moneyInput(r.articleMonthlyPrice)}
            disabled={readOnly}
            error={error('articleMonthlyPrice')}
            onChange={(v) => update({ articleMonthlyPrice: decimal(v) })}
          />
          {discountField(true)}
          <p className="flex flex-col gap-0.5 text-end sm:pb-2">
            <span className="text-xs text-gray-600">{t('row.monthlyTotal')}</span>
            <span className="tabular-nums">{formatNumber(Number(figures.monthlyTotalPrice))}</span>
          </p>
        </div>
      )}
      {extras && (
        <div className="grid grid-cols-2 items-end gap-2 sm:col-span-5 sm:col-start-2 sm:grid-cols-4">
          {settings.purchasePriceEdit && (
            <Cell
              label={t('row.purchasePrice')}
              visibleLabel
              value={moneyInput(r.articlePurchasePrice)}
              disabled={readOnly}
              error={error('articlePurchasePrice')}
              onChange={(v) => update({ articlePurchasePrice: decimal(v) })}
            />
          )}
          {settings.costCenter && (
            <Cell
              label={t('row.costCenter')}
              inputMode="text"
              visibleLabel
              value={r.erpRef?.costCenter?.value ?? ''}
              disabled={readOnly}
              error={error('erpRef')}
              onChange={(v) => update({ erpRef: { ...r.erpRef, costCenter: { value: v || null } } })}
            />
          )}
          {settings.stockPoint && (
            <Cell
              label={t('row.stockPoint')}
              inputMode="text"
              visibleLabel
              value={r.erpRef?.stockPoint?.value ?? ''}
              disabled={readOnly}
              error={error('erpRef')}
              onChange={(v) => update({ erpRef: { ...r.erpRef, stockPoint: { value: v || null } } })}
            />
          )}
          {settings.projectScope && (
            <label className="flex min-h-10 items-center gap-2 text-sm">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={r.isInProjectScope === 1}
                onChange={(e) => update({ isInProjectScope: e.target.checked ? 1 : 0 })}
              />
              {t('row.projectScope')}
            </label>
          )}
        </div>
      )}
    </>
  );
}

/**
 * The rows of a proposal or a sales order (spec section 5): article rows with amount, price,
 * discount as typed ("10%" or "250") and, when the setting is on, a monthly price with its own
 * discount; comment rows; summary rows with the running subtotal since the last one. Totals follow
 * as you type (the same arithmetic the server stores). On a large screen the rows are edited in
 * place and dragged to a new place (or moved with the arrow buttons); on a phone each row is a
 * line that opens its fields in a bottom sheet. Removing a row asks first.
 */
export function RowsEditor(props: {
  rows: ProposalRow[];
  settings: ProposalSettings;
  readOnly: boolean;
  fields: Record<string, string[]>;
  onChange: (rows: ProposalRow[]) => void;
  /** Article groups to filter the article pickers by (the article-groups module). */
  groups?: { id: string; title: string }[];
  /** The test id of the totals under the rows. */
  totalsTestId?: string;
}) {
  const { t } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const { rows, settings, readOnly } = props;
  const [removing, setRemoving] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [discountText, setDiscountText] = useState<Record<string, string>>({});
  const figures = proposalFigures(
    rows.map((r) => ({
      articleId: pickedId(r),
      isSummaryRow: r.isSummaryRow,
      amount: r.articleAmount,
      price: r.articlePrice,
      purchasePrice: r.articlePurchasePrice,
      monthlyPrice: r.articleMonthlyPrice,
      discount: discountOf(coreType(r.articleDiscountType), r.articleDiscountValue),
      monthlyDiscount: discountOf(coreType(r.articleMonthlyDiscountType), r.articleMonthlyDiscountValue),
    })),
  );
  const update = (i: number, patch: Partial<ProposalRow>) =>
    props.onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  /** Moves a row; the server numbers them from 1 in this order. */
  const moveTo = (from: number, to: number) => {
    if (from === to || to < 0 || to >= rows.length) return;
    const next = [...rows];
    const [row] = next.splice(from, 1);
    next.splice(to, 0, row!);
    props.onChange(next);
    if (editing === from) setEditing(to);
  };
  const add = (kind: 'article' | 'comment' | 'summary') => {
    props.onChange([...rows, emptyRow(kind)]);
    // on a phone the new article or comment row opens in the sheet at once
    if (kind !== 'summary' && typeof window !== 'undefined' && window.matchMedia?.('(max-width: 639px)').matches)
      setEditing(rows.length);
  };
  const error = (i: number) => (field: string) => props.fields[`rows.${i}.${field}`]?.map((c) => tc(c)).join(' ');
  const discountField = (i: number, r: ProposalRow) => (monthly: boolean) => {
    const key = `${r.key ?? r.id}:${monthly ? 'm' : 's'}`;
    const shown =
      discountText[key] ??
      formatDiscount(
        discountOf(
          coreType(monthly ? r.articleMonthlyDiscountType : r.articleDiscountType),
          monthly ? r.articleMonthlyDiscountValue : r.articleDiscountValue,
        ),
      );
    const parsed = parseDiscount(shown);
    return (
      <DiscountField
        label={monthly ? t('row.monthlyDiscount') : t('row.discount')}
        labelClassName={`text-xs text-gray-600 ${monthly ? '' : 'sm:sr-only'}`}
        value={shown}
        unit={r.articleUnit}
        disabled={readOnly}
        error={
          !parsed.ok ? tc(parsed.error) : error(i)(monthly ? 'articleMonthlyDiscountValue' : 'articleDiscountValue')
        }
        onChange={(text) => {
          setDiscountText((d) => ({ ...d, [key]: text }));
          const p = parseDiscount(text);
          if (!p.ok) return;
          const type = apiType(p.discount.type);
          const value = p.discount.type === 'NONE' ? null : p.discount.value;
          update(
            i,
            monthly
              ? { articleMonthlyDiscountType: type, articleMonthlyDiscountValue: value }
              : { articleDiscountType: type, articleDiscountValue: value },
          );
        }}
      />
    );
  };
  const rowProps = (i: number): RowProps => ({
    row: rows[i]!,
    index: i,
    figures: figures.rows[i]!,
    settings,
    readOnly,
    groupId,
    error: error(i),
    update: (patch) => update(i, patch),
    discountField: discountField(i, rows[i]!),
  });
  const tools = (i: number) => (
    <div className="flex gap-1">
      <Button
        size="sm"
        variant="ghost"
        isDisabled={i === 0}
        onPress={() => moveTo(i, i - 1)}
        aria-label={t('row.up', { n: i + 1 })}
      >
        ↑
      </Button>
      <Button
        size="sm"
        variant="ghost"
        isDisabled={i === rows.length - 1}
        onPress={() => moveTo(i, i + 1)}
        aria-label={t('row.down', { n: i + 1 })}
      >
        ↓
      </Button>
      <Button size="sm" variant="ghost" onPress={() => setRemoving(i)} aria-label={t('row.remove', { n: i + 1 })}>
        ✕
      </Button>
    </div>
  );
  const { drag, dragged } = useDragReorder({ enabled: !readOnly, handleOnly: true, onMove: moveTo });
  const summaryLine = (r: ProposalRow, i: number) => {
    const kind = kindOf(r);
    if (kind === 'summary')
      return `${t('row.summary')}: ${formatNumber(Number(figures.rows[i]!.summarySalesPrice ?? 0))}`;
    if (kind === 'comment') return r.comment || t('row.comment');
    return pickedId(r)
      ? `${r.articleTitle ?? ''} · ${amountText(r.articleAmount)} × ${formatNumber(Number(r.articlePrice ?? 0))}`
      : t('row.pickArticle');
  };
  const open = editing !== null && rows[editing] ? editing : null;

  return (
    <div>
      {props.groups && props.groups.length > 0 && !readOnly && (
        <NativeSelect
          label={t('row.group')}
          className="mb-3 max-w-xs"
          value={groupId ?? ''}
          onChange={(v) => setGroupId(v || null)}
          items={[{ id: '', label: t('row.allGroups') }, ...props.groups.map((g) => ({ id: g.id, label: g.title }))]}
        />
      )}
      {rows.length === 0 ? (
        <p className="text-sm text-gray-700">{t('row.empty')}</p>
      ) : (
        <>
          {/* large screens: the rows edited in place, under column headings (each input names itself too) */}
          <div
            aria-hidden
            className={`hidden gap-2 border-b border-slate-200 pb-1 text-xs font-medium text-gray-600 sm:grid ${
              readOnly ? ROW_GRID : ROW_GRID_WITH_TOOLS
            }`}
            data-testid="proposal-row-headings"
          >
            <span />
            <span className="text-end">{t('row.amount')}</span>
            <span className="text-end">{t('row.price')}</span>
            <span className="text-end">{t('row.discount')}</span>
            <span className="text-end">{t('row.total')}</span>
          </div>
          <ol className="hidden divide-y divide-slate-100 sm:block" aria-label={t('section.rows')}>
            {rows.map((r, i) => (
              <li
                key={r.key ?? r.id}
                {...drag(i)}
                className={`grid gap-2 py-3 sm:items-end ${readOnly ? ROW_GRID : ROW_GRID_WITH_TOOLS} ${
                  dragged === i ? 'opacity-50' : ''
                }`}
                data-testid="proposal-row"
              >
                <RowFields {...rowProps(i)} />
                {!readOnly && (
                  <div className="flex items-center gap-1 sm:col-start-6 sm:row-start-1">
                    <span
                      data-drag-handle
                      aria-hidden
                      title={t('row.drag')}
                      className="cursor-grab px-1 text-lg text-gray-500 select-none"
                    >
                      ⠿
                    </span>
                    {tools(i)}
                  </div>
                )}
              </li>
            ))}
          </ol>
          {/* phones: one line per row, its fields in a bottom sheet */}
          <ol className="divide-y divide-slate-100 sm:hidden" aria-label={t('section.rows')}>
            {rows.map((r, i) => (
              <li
                key={r.key ?? r.id}
                className="flex items-center justify-between gap-2 py-2"
                data-testid="proposal-row-line"
              >
                <span className="min-w-0 flex-1 truncate text-sm">{summaryLine(r, i)}</span>
                {kindOf(r) === 'article' && (
                  <span className="text-sm tabular-nums">{formatNumber(Number(figures.rows[i]!.totalPrice))}</span>
                )}
                <Button
                  size="sm"
                  variant="secondary"
                  onPress={() => setEditing(i)}
                  aria-label={t('row.edit', { n: i + 1 })}
                >
                  {readOnly ? t('row.show') : t('row.editShort')}
                </Button>
              </li>
            ))}
          </ol>
        </>
      )}
      <dl
        className="mt-4 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:flex sm:justify-end"
        data-testid={props.totalsTestId}
      >
        <dt className="text-gray-700">{t('total.sales')}</dt>
        <dd className="text-end font-semibold tabular-nums">{formatNumber(Number(figures.totalPrice))}</dd>
        {settings.monthlyPrice && (
          <>
            <dt className="text-gray-700">{t('total.monthly')}</dt>
            <dd className="text-end font-semibold tabular-nums">{formatNumber(Number(figures.totalMonthlyPrice))}</dd>
          </>
        )}
        <dt className="text-gray-700">{t('total.margin')}</dt>
        <dd className="text-end tabular-nums">
          {formatNumber(Number(figures.margin.amount))}
          {figures.margin.percent !== null && ` (${formatNumber(Number(figures.margin.percent))} %)`}
        </dd>
      </dl>
      {!readOnly && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" onPress={() => add('article')}>
            {t('row.addArticle')}
          </Button>
          <Button size="sm" onPress={() => add('comment')}>
            {t('row.addComment')}
          </Button>
          {settings.summaryRows && (
            <Button size="sm" onPress={() => add('summary')}>
              {t('row.addSummary')}
            </Button>
          )}
        </div>
      )}
      <Dialog
        isOpen={open !== null}
        onOpenChange={(o) => !o && setEditing(null)}
        title={open !== null ? t('row.sheetTitle', { n: open + 1 }) : ''}
        footer={({ close }) => (
          <>
            {!readOnly && open !== null && tools(open)}
            <Button variant="primary" onPress={close}>
              {t('row.done')}
            </Button>
          </>
        )}
      >
        {open !== null && (
          <div className="grid gap-3" data-testid="proposal-row-sheet">
            <RowFields {...rowProps(open)} />
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={t('row.removeTitle')}
        confirmLabel={t('row.removeConfirm')}
        variant="danger"
        onConfirm={() => {
          if (removing !== null) props.onChange(rows.filter((_, j) => j !== removing));
          if (removing !== null && editing !== null) setEditing(null);
          setRemoving(null);
        }}
      />
    </div>
  );
}
