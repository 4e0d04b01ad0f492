import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Button, ConfirmDialog } from '~/app/components/ui';
import { INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field-classes';
import { formatNumber } from '~/core/i18n/number-format';
import { discountOf, formatDiscount, parseDiscount } from '~/core/pricing';
import type { ProposalRow, ProposalSettings } from '~/core/proposals/proposal.service';
import { proposalFigures } from '~/core/proposals/proposal-rows';

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
}) {
  return (
    <label className={`flex flex-col gap-0.5 ${props.className ?? ''}`}>
      <span className="text-xs text-gray-600 sm:sr-only">{props.label}</span>
      <input
        aria-label={props.label}
        aria-invalid={props.error ? true : undefined}
        inputMode={props.inputMode ?? 'decimal'}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-2 text-end ${props.error ? 'border-red-600' : ''}`}
      />
      {props.error && <span className="text-xs text-red-700">{props.error}</span>}
    </label>
  );
}

/**
 * The rows of a proposal (spec section 5): article rows with amount, price, discount as typed
 * ("10%" or "250") and, when the setting is on, a monthly price with its own discount; comment rows;
 * summary rows with the running subtotal since the last one. Totals follow as you type (the same
 * arithmetic the server stores). Rows move up and down by buttons; removing one asks first.
 */
export function RowsEditor(props: {
  rows: ProposalRow[];
  settings: ProposalSettings;
  readOnly: boolean;
  fields: Record<string, string[]>;
  onChange: (rows: ProposalRow[]) => void;
}) {
  const { t } = useTranslation('proposals');
  const { t: tc } = useTranslation('common');
  const { rows, settings, readOnly } = props;
  const [removing, setRemoving] = useState<number | null>(null);
  const [discountText, setDiscountText] = useState<Record<string, string>>({});
  const figures = proposalFigures(
    rows.map((r) => ({
      articleId: r.articleId,
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
  const move = (i: number, by: -1 | 1) => {
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    props.onChange(next);
  };
  const error = (i: number, field: string) => props.fields[`rows.${i}.${field}`]?.map((c) => tc(c)).join(' ');
  const discountField = (i: number, r: ProposalRow, monthly: boolean) => {
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
      <Cell
        label={monthly ? t('row.monthlyDiscount') : t('row.discount')}
        value={shown}
        disabled={readOnly}
        inputMode="text"
        error={
          !parsed.ok ? tc(parsed.error) : error(i, monthly ? 'articleMonthlyDiscountValue' : 'articleDiscountValue')
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

  return (
    <div>
      {rows.length === 0 ? (
        <p className="text-sm text-gray-700">{t('row.empty')}</p>
      ) : (
        <ol className="divide-y divide-slate-100" aria-label={t('section.rows')}>
          {rows.map((r, i) => (
            <li
              key={r.key ?? r.id}
              className="grid gap-2 py-3 sm:grid-cols-[minmax(12rem,2fr)_repeat(4,minmax(5rem,1fr))_auto] sm:items-end"
              data-testid="proposal-row"
            >
              {r.isSummaryRow ? (
                <p className="font-medium sm:col-span-5">
                  {t('row.summary')}:{' '}
                  <span className="tabular-nums">{formatNumber(Number(figures.rows[i]!.summarySalesPrice ?? 0))}</span>
                  {settings.monthlyPrice && (
                    <span className="ms-3 text-gray-700 tabular-nums">
                      {t('row.monthly')}: {formatNumber(Number(figures.rows[i]!.summaryMonthlyPrice ?? 0))}
                    </span>
                  )}
                </p>
              ) : r.comment !== null && !r.articleId ? (
                <label className="flex flex-col gap-0.5 sm:col-span-5">
                  <span className="text-xs text-gray-600">{t('row.comment')}</span>
                  <input
                    value={r.comment}
                    disabled={readOnly}
                    maxLength={2000}
                    onChange={(e) => update(i, { comment: e.target.value })}
                    className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-2`}
                  />
                </label>
              ) : (
                <>
                  <ArticlePicker
                    label={t('row.article')}
                    isDisabled={readOnly}
                    defaultSelected={r.articleId ? { id: r.articleId, label: r.articleTitle ?? '' } : null}
                    errorMessage={error(i, 'articleId')}
                    onSelectionChange={(o) =>
                      o?.id !== r.articleId &&
                      update(i, {
                        articleId: o?.id ?? null,
                        articleTitle: o?.label ?? null,
                        articlePrice: null,
                        articlePurchasePrice: null,
                      })
                    }
                  />
                  {r.articleId ? (
                    <>
                      <Cell
                        label={t('row.amount')}
                        value={r.articleAmount ?? ''}
                        disabled={readOnly}
                        error={error(i, 'articleAmount')}
                        onChange={(v) => update(i, { articleAmount: v.replace(',', '.') || null })}
                      />
                      <Cell
                        label={t('row.price')}
                        value={r.articlePrice ?? ''}
                        disabled={readOnly}
                        error={error(i, 'articlePrice')}
                        onChange={(v) => update(i, { articlePrice: v.replace(',', '.') || null })}
                      />
                      {discountField(i, r, false)}
                      <p className="text-end tabular-nums sm:pb-2" aria-label={t('row.total')}>
                        {formatNumber(Number(figures.rows[i]!.totalPrice))}
                      </p>
                    </>
                  ) : (
                    <p className="text-sm text-gray-600 sm:col-span-4">{t('row.pickArticle')}</p>
                  )}
                  {settings.monthlyPrice && r.articleId && (
                    <div className="grid grid-cols-3 gap-2 sm:col-span-5 sm:col-start-2">
                      <Cell
                        label={t('row.monthlyPrice')}
                        value={r.articleMonthlyPrice ?? ''}
                        disabled={readOnly}
                        error={error(i, 'articleMonthlyPrice')}
                        onChange={(v) => update(i, { articleMonthlyPrice: v.replace(',', '.') || null })}
                      />
                      {discountField(i, r, true)}
                      <p className="text-end tabular-nums sm:pb-2" aria-label={t('row.monthlyTotal')}>
                        {formatNumber(Number(figures.rows[i]!.monthlyTotalPrice))}
                      </p>
                    </div>
                  )}
                </>
              )}
              {!readOnly && (
                <div className="flex gap-1 sm:row-start-1 sm:col-start-6">
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={i === 0}
                    onPress={() => move(i, -1)}
                    aria-label={t('row.up', { n: i + 1 })}
                  >
                    ↑
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    isDisabled={i === rows.length - 1}
                    onPress={() => move(i, 1)}
                    aria-label={t('row.down', { n: i + 1 })}
                  >
                    ↓
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onPress={() => setRemoving(i)}
                    aria-label={t('row.remove', { n: i + 1 })}
                  >
                    ✕
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {!readOnly && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" onPress={() => props.onChange([...rows, emptyRow('article')])}>
            {t('row.addArticle')}
          </Button>
          <Button size="sm" onPress={() => props.onChange([...rows, emptyRow('comment')])}>
            {t('row.addComment')}
          </Button>
          {settings.summaryRows && (
            <Button size="sm" onPress={() => props.onChange([...rows, emptyRow('summary')])}>
              {t('row.addSummary')}
            </Button>
          )}
        </div>
      )}
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('row.removeTitle')}
        confirmLabel={t('row.removeConfirm')}
        variant="danger"
        onConfirm={() => {
          if (removing !== null) props.onChange(rows.filter((_, j) => j !== removing));
          setRemoving(null);
        }}
      />
    </div>
  );
}
