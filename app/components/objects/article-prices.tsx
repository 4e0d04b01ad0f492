import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, ConfirmDialog, SortableTable, TextField } from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { formatNumber } from '~/core/i18n/number-format';
import { useFieldErrors, useResultToast, type ActionResult } from './shared';

export interface PriceRow {
  articleId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  price: string;
  listPrice: string;
}

const money = (v: string) => formatNumber(Number(v));

/** The object's own article prices: a table, and a form to set one for an article. */
export function ArticlePrices({ rows, canEdit }: { rows: PriceRow[]; canEdit: boolean }) {
  const { t } = useTranslation('objects');
  const saver = useFetcher<ActionResult>();
  const remover = useFetcher<ActionResult>();
  useResultToast(saver.state === 'idle' ? saver.data : undefined);
  useResultToast(remover.state === 'idle' ? remover.data : undefined);
  const err = useFieldErrors(saver.data);
  const [removing, setRemoving] = useState<PriceRow | null>(null);
  const columns = [
    {
      id: 'article',
      header: t('prices.article'),
      isRowHeader: true,
      render: (r: PriceRow) => `${r.articleNumber} – ${r.title}`,
    },
    { id: 'unit', header: t('prices.unit'), render: (r: PriceRow) => r.unit ?? '—' },
    { id: 'list', header: t('prices.listPrice'), align: 'end' as const, render: (r: PriceRow) => money(r.listPrice) },
    { id: 'price', header: t('prices.price'), align: 'end' as const, render: (r: PriceRow) => money(r.price) },
    ...(canEdit
      ? [
          {
            id: 'remove',
            header: t('actions'),
            render: (r: PriceRow) => (
              <Button
                size="sm"
                variant="ghost"
                onPress={() => setRemoving(r)}
                aria-label={t('prices.removeNamed', { name: r.title })}
              >
                {t('remove')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-600">{t('prices.help')}</p>
      <SortableTable
        aria-label={t('prices.title')}
        columns={columns}
        rows={rows.map((r) => ({ ...r, id: r.articleId }))}
        emptyState={t('prices.empty')}
      />
      {canEdit ? (
        <saver.Form
          method="post"
          // A saved price changes the rows: the form starts empty again.
          key={rows.map((r) => `${r.articleId}:${r.price}`).join('|')}
          className="grid items-start gap-3 sm:grid-cols-[2fr_1fr_auto]"
          noValidate
        >
          <input type="hidden" name="intent" value="price-save" />
          <EntityPicker
            name="articleId"
            label={t('prices.article')}
            source="/inventory/articles/options"
            isRequired
            errorMessage={err('articleId')}
          />
          <TextField
            name="price"
            label={t('prices.price')}
            inputMode="decimal"
            isRequired
            errorMessage={err('price')}
          />
          <div className="sm:pt-6">
            <Button type="submit" variant="secondary" isPending={saver.state !== 'idle'}>
              {t('prices.set')}
            </Button>
          </div>
        </saver.Form>
      ) : null}
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={t('prices.remove')}
        message={t('prices.removeConfirm', { name: removing?.title ?? '' })}
        confirmLabel={t('remove')}
        variant="danger"
        onConfirm={() => {
          if (removing)
            void remover.submit({ intent: 'price-delete', articleId: removing.articleId }, { method: 'post' });
          setRemoving(null);
        }}
      />
    </div>
  );
}
