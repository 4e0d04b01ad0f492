import { parseDate } from '@internationalized/date';
import { usePrintDiscount } from '~/app/lib/use-currency';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useFetcher,
  useNavigation,
  useSearchParams,
  useSubmit,
} from 'react-router';
import type { Route } from './+types/agreements.$id';
import { type ActionError, actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { NONE, useAgreementWords } from '~/app/components/agreements/agreement-words';
import { formatMoney, moneyInput } from '~/app/components/articles/format';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Card, TextArea, useFieldErrors } from '~/app/components/objects/shared';
import {
  Button,
  ConfirmDialog,
  DatePicker,
  Dialog,
  Select,
  SortableTable,
  TextField,
  useToast,
} from '~/app/components/ui';
import {
  addAgreementArticle,
  deleteAgreementType,
  getAgreementPricing,
  getAgreementType,
  listAgreementArticles,
  removeAgreementArticle,
  setAgreementTypeStatus,
  updateAgreementArticle,
  updateAgreementPricing,
  updateAgreementType,
  type AgreementArticle,
} from '~/core/agreements/agreement-type.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { readWorkTypes } from '~/core/work-orders/settings/settings.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * One agreement type (spec section 3 "Agreement"): its fields, when it makes work orders and
 * invoices, its default price and the articles it includes with their discounts. A type in use
 * cannot be deleted; the page then offers to set it inactive.
 */
export const middleware = guard({ permission: 'agreements:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  try {
    return await run(context, async (ctx) => {
      const { agreement } = await getAgreementType(ctx, params.id);
      const pricing = await getAgreementPricing(ctx, agreement.id);
      const { articles } = await listAgreementArticles(ctx, agreement.id);
      const workTypes = (await readWorkTypes(ctx)).map((w) => ({ id: w.id, name: w.name }));
      return {
        agreement,
        pricing,
        articles,
        workTypes,
        canEdit: hasAccess(auth, { permission: 'agreements:edit' }),
        canDelete: hasAccess(auth, { permission: 'agreements:delete' }),
        // The article picker searches the article register.
        canPickArticles: hasAccess(auth, { permission: 'articles:read' }),
      };
    });
  } catch (e) {
    // Another tenant's id, or none at all: the not-found page.
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = Partial<ActionError> & { ok?: boolean; intent?: string };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const text = (name: string) => (typeof form.get(name) === 'string' ? String(form.get(name)) : undefined);
  const choice = (name: string) => (text(name) === NONE ? '' : text(name));
  const id = params.id;
  try {
    switch (intent) {
      case 'delete':
        await run(context, (ctx) => deleteAgreementType(ctx, id));
        return redirect('/agreements?deleted=1');
      case 'activate':
      case 'deactivate':
        await run(context, (ctx) => setAgreementTypeStatus(ctx, id, intent === 'activate' ? 'active' : 'inactive'));
        break;
      case 'addArticle':
      case 'updateArticle': {
        const input = {
          agreementId: id,
          articleId: text('articleId') ?? '',
          discountType: text('discountType'),
          discountValue: text('discountValue'),
        };
        await run(context, (ctx) =>
          intent === 'addArticle' ? addAgreementArticle(ctx, input) : updateAgreementArticle(ctx, input),
        );
        break;
      }
      case 'removeArticle':
        await run(context, (ctx) => removeAgreementArticle(ctx, id, text('articleId')));
        break;
      default:
        // One transaction: the type and its pricing are saved together or not at all.
        await run(context, async (ctx) => {
          await updateAgreementType(ctx, {
            agreement: {
              id,
              code: text('code'),
              title: text('title'),
              description: text('description'),
              status: text('status'),
              type: text('type'),
              validFrom: text('validFrom') ?? '',
              validTo: text('validTo') ?? '',
              woDay: text('woDay'),
              woInterval: choice('woInterval'),
              workTypeId: choice('workTypeId'),
              invoiceDay: text('invoiceDay'),
              invoiceInterval: choice('invoiceInterval'),
            },
          });
          await updateAgreementPricing(ctx, {
            id,
            priceModel: text('priceModel'),
            price: text('price'),
            priceArticleId: text('priceArticleId') ?? '',
          });
        });
    }
    return data<ActionResult>({ ok: true, intent });
  } catch (e) {
    // 409 IN_USE carries what still uses the agreement (usedBy)
    return actionError<ActionResult>(e, { intent });
  }
}

const safeDate = (v: string | null) => {
  try {
    return v ? parseDate(v) : null;
  } catch {
    return null;
  }
};

/** Changes an included article's discount, in a dialog. */
function DiscountDialog({ article, onClose }: { article: AgreementArticle; onClose: () => void }) {
  const { t } = useTranslation('agreements');
  const { t: tc } = useTranslation();
  const fetcher = useFetcher<ActionResult>();
  const err = useFieldErrors(fetcher.data);
  const toast = useToast();
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      onClose();
    } else if (fetcher.data.code && !fetcher.data.fields) toast.show({ kind: 'error', message: tc(fetcher.data.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  return (
    <Dialog
      title={t('articles.editDiscount', { name: `${article.articleNumber} ${article.title}` })}
      size="sm"
      isOpen
      onOpenChange={(open) => (open ? null : onClose())}
    >
      <fetcher.Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value="updateArticle" />
        <input type="hidden" name="articleId" value={article.articleId} />
        <div className="flex flex-wrap items-start gap-3">
          <DiscountFields
            defaultType={article.discountType}
            defaultValue={article.discountType === 'NONE' ? '' : moneyInput(article.discountValue)}
            errorMessage={err('discountValue')}
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onPress={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
            {t('save')}
          </Button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}

/** "10 %", "150,00 kr", or "—": the one printed form of a discount. */
function useDiscountText() {
  const printDiscount = usePrintDiscount();
  return (a: AgreementArticle) => printDiscount({ type: a.discountType, value: a.discountValue }) || '—';
}

/** Discount type (none, percent, amount) and value: the spec's discount types, as the UI words them. */
function DiscountFields({
  defaultType,
  defaultValue,
  errorMessage,
}: {
  defaultType: string;
  defaultValue: string;
  errorMessage?: string[];
}) {
  const { t } = useTranslation('agreements');
  const [type, setType] = useState(defaultType);
  return (
    <>
      <Select
        name="discountType"
        label={t('articles.discountType')}
        selectedKey={type}
        onSelectionChange={(k) => setType(String(k ?? 'NONE'))}
        className="w-36"
        items={[
          { id: 'NONE', label: t('discount.NONE') },
          { id: 'PERCENTAGE', label: t('discount.PERCENTAGE') },
          { id: 'REGULAR', label: t('discount.REGULAR') },
        ]}
      />
      <TextField
        name="discountValue"
        label={type === 'PERCENTAGE' ? t('articles.discountPercent') : t('articles.discountAmount')}
        inputMode="decimal"
        defaultValue={defaultValue}
        isDisabled={type === 'NONE'}
        errorMessage={errorMessage}
        className="w-32"
      />
    </>
  );
}

function AddArticle() {
  const { t } = useTranslation('agreements');
  const fetcher = useFetcher<ActionResult>();
  const err = useFieldErrors(fetcher.data);
  const { t: tc } = useTranslation();
  const [round, setRound] = useState(0);
  const toast = useToast();
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.show({ kind: 'success', message: t('articles.added') });
      setRound((r) => r + 1);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  const general = fetcher.data?.code && !fetcher.data.fields ? tc(fetcher.data.code) : null;
  const duplicate = fetcher.data?.code === 'DUPLICATE_AGREEMENT_ARTICLE' ? tc(fetcher.data.code) : null;
  return (
    <fetcher.Form key={round} method="post" className="mt-4 grid gap-3 rounded-lg bg-slate-50 p-3" noValidate>
      <h3 className="text-base font-medium">{t('articles.add')}</h3>
      <input type="hidden" name="intent" value="addArticle" />
      <div className="flex flex-wrap items-start gap-3">
        <ArticlePicker
          name="articleId"
          isRequired
          className="min-w-60 flex-1"
          errorMessage={duplicate ? [duplicate] : err('articleId')}
        />
        <DiscountFields defaultType="NONE" defaultValue="" errorMessage={err('discountValue')} />
      </div>
      {general && !duplicate ? (
        <p role="alert" className="text-sm text-red-700">
          {general}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="secondary" isPending={fetcher.state !== 'idle'}>
          {t('articles.addButton')}
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.agreement', (d: Route.ComponentProps['loaderData']) => d.agreement.title);

export default function AgreementPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('agreements');
  const { t: tc } = useTranslation();
  const words = useAgreementWords();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [offerInactive, setOfferInactive] = useState(false);
  const [removing, setRemoving] = useState<AgreementArticle | null>(null);
  const [editing, setEditing] = useState<AgreementArticle | null>(null);
  const discountText = useDiscountText();
  const { agreement, pricing, articles, canEdit } = loaderData;
  const [priceModel, setPriceModel] = useState(pricing.priceModel);
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const err = useFieldErrors(result?.intent === 'save' ? result : undefined);

  useEffect(() => {
    if (!result) return;
    if (result.code === 'IN_USE') setOfferInactive(true);
    else if (result.ok)
      toast.show({
        kind: 'success',
        message:
          result.intent === 'deactivate'
            ? t('deactivated')
            : result.intent === 'activate'
              ? t('activated')
              : result.intent === 'removeArticle'
                ? t('articles.removed')
                : tc('SUCCESSFULLY_SAVED'),
      });
    else if (result.code) toast.show({ kind: 'error', message: tc(result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const disabled = !canEdit;
  const day = (name: 'woDay' | 'invoiceDay', value: number) => (
    <Select
      name={name}
      label={name === 'woDay' ? t('field.woDay') : t('field.invoiceDay')}
      description={t('field.day.help')}
      defaultSelectedKey={String(value)}
      items={words.dayItems}
      isDisabled={disabled}
      errorMessage={err(name)}
    />
  );
  const interval = (name: 'woInterval' | 'invoiceInterval', value: string | null) => (
    <Select
      name={name}
      label={name === 'woInterval' ? t('field.woInterval') : t('field.invoiceInterval')}
      defaultSelectedKey={value ?? NONE}
      items={words.intervalItems}
      isDisabled={disabled}
      errorMessage={err(name)}
    />
  );
  const articleColumns = [
    {
      id: 'number',
      header: t('articles.number'),
      isRowHeader: true,
      render: (a: AgreementArticle) => <span className="tabular-nums">{a.articleNumber}</span>,
    },
    {
      id: 'title',
      header: t('articles.articleTitle'),
      render: (a: AgreementArticle) => (
        <span>
          {a.title}
          {a.status === 'inactive' ? (
            <span className="ms-2 text-xs text-amber-800">({t('status.inactive')})</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'price',
      header: t('articles.listPrice'),
      align: 'end' as const,
      render: (a: AgreementArticle) => (
        <span className="tabular-nums">
          {formatMoney(a.listPrice)}
          {a.unit ? ` / ${a.unit}` : ''}
        </span>
      ),
    },
    {
      id: 'discount',
      header: t('articles.discount'),
      render: (a: AgreementArticle) => discountText(a),
    },
    ...(canEdit
      ? [
          {
            id: 'actions',
            header: t('articles.actions'),
            render: (a: AgreementArticle) => (
              <div className="flex gap-1">
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setEditing(a)}
                  // the name starts with the visible text (axe: label-content-name-mismatch)
                  aria-label={`${t('articles.edit')}: ${a.articleNumber} ${a.title}`}
                >
                  {t('articles.edit')}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setRemoving(a)}
                  aria-label={`${t('articles.remove')}: ${a.articleNumber} ${a.title}`}
                >
                  {t('articles.remove')}
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="grid gap-6">
      <Card>
        <Link to="/agreements" className="text-sm text-brand-700 underline">
          ← {t('back')}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold break-words">
          {agreement.code} · {agreement.title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          {agreement.status === 'inactive' ? (
            <span className="me-2 inline-block rounded-full bg-amber-100 px-3 py-0.5 text-amber-900">
              {t('status.inactive')}
            </span>
          ) : null}
          {t('objectCount', { count: agreement.objectCount })}
        </p>
        {params.get('created') ? (
          <p role="status" className="mt-3 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('created')}
          </p>
        ) : null}
        <Form method="post" className="mt-6 grid gap-6" noValidate key={agreement.updatedAt}>
          <input type="hidden" name="intent" value="save" />
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-lg font-medium">{t('section.general')}</legend>
            <TextField
              name="code"
              label={t('field.code')}
              defaultValue={agreement.code}
              isRequired
              isDisabled={disabled}
              errorMessage={err('code')}
            />
            <TextField
              name="title"
              label={t('field.title')}
              defaultValue={agreement.title}
              isRequired
              isDisabled={disabled}
              errorMessage={err('title')}
            />
            <Select
              name="type"
              label={t('field.type')}
              defaultSelectedKey={agreement.type}
              items={words.typeItems}
              isDisabled={disabled}
              errorMessage={err('type')}
            />
            <Select
              name="status"
              label={t('field.status')}
              defaultSelectedKey={agreement.status}
              items={[
                { id: 'active', label: t('status.active') },
                { id: 'inactive', label: t('status.inactive') },
              ]}
              isDisabled={disabled}
              errorMessage={err('status')}
            />
            <DatePicker
              name="validFrom"
              label={t('field.validFrom')}
              defaultValue={safeDate(agreement.validFrom)}
              isRequired
              isDisabled={disabled}
              errorMessage={err('validFrom')}
            />
            <DatePicker
              name="validTo"
              label={t('field.validTo')}
              description={t('field.validTo.help')}
              defaultValue={safeDate(agreement.validTo)}
              isDisabled={disabled}
              errorMessage={err('validTo')}
            />
            <TextArea
              name="description"
              label={t('field.description')}
              defaultValue={agreement.description ?? ''}
              isDisabled={disabled}
              errorMessage={err('description')}
              className="sm:col-span-2"
            />
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-lg font-medium">{t('section.workOrders')}</legend>
            {interval('woInterval', agreement.woInterval)}
            {day('woDay', agreement.woDay)}
            <Select
              name="workTypeId"
              label={t('field.workType')}
              defaultSelectedKey={agreement.workTypeId ?? NONE}
              items={[
                { id: NONE, label: t('field.workType.default') },
                ...loaderData.workTypes.map((w) => ({ id: w.id, label: w.name })),
              ]}
              isDisabled={disabled}
              errorMessage={err('workTypeId')}
            />
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-lg font-medium">{t('section.invoicing')}</legend>
            {interval('invoiceInterval', agreement.invoiceInterval)}
            {day('invoiceDay', agreement.invoiceDay)}
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 text-lg font-medium">{t('section.pricing')}</legend>
            <Select
              name="priceModel"
              label={t('field.priceModel')}
              selectedKey={priceModel}
              onSelectionChange={(k) => setPriceModel(k === 'articles' ? 'articles' : 'fixed')}
              items={[
                { id: 'fixed', label: t('priceModel.fixed') },
                { id: 'articles', label: t('priceModel.articles') },
              ]}
              description={t(`priceModel.${priceModel}.help`)}
              isDisabled={disabled}
              errorMessage={err('priceModel')}
            />
            <TextField
              name="price"
              label={t('field.price')}
              inputMode="decimal"
              defaultValue={moneyInput(pricing.price)}
              isDisabled={disabled}
              errorMessage={err('price')}
            />
            <ArticlePicker
              name="priceArticleId"
              label={t('field.priceArticle')}
              defaultSelected={
                pricing.priceArticle
                  ? {
                      id: pricing.priceArticle.id,
                      label: `${pricing.priceArticle.articleNumber} – ${pricing.priceArticle.title}`,
                    }
                  : null
              }
              isDisabled={disabled || !loaderData.canPickArticles}
              errorMessage={err('priceArticleId')}
            />
          </fieldset>
          <div className="flex flex-wrap gap-2">
            {canEdit ? (
              <Button type="submit" variant="primary" isPending={busyIntent === 'save'}>
                {t('save')}
              </Button>
            ) : null}
            {loaderData.canDelete ? (
              <Button variant="danger" onPress={() => setConfirmDelete(true)} isPending={busyIntent === 'delete'}>
                {t('delete')}
              </Button>
            ) : null}
          </div>
        </Form>
      </Card>

      <Card title={t('articles.title')}>
        <p className="mb-3 text-sm text-slate-600">{t('articles.help')}</p>
        <SortableTable
          aria-label={t('articles.title')}
          columns={articleColumns}
          rows={articles.map((a) => ({ ...a, id: a.articleId }))}
          emptyState={t('articles.empty')}
        />
        {canEdit && loaderData.canPickArticles ? <AddArticle /> : null}
      </Card>

      <ConfirmDialog
        isOpen={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('delete')}
        message={t('delete.confirm', { name: `${agreement.code} · ${agreement.title}` })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirmDelete(false);
        }}
      />
      {editing ? <DiscountDialog key={editing.articleId} article={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={t('articles.remove')}
        message={t('articles.removeConfirm', { name: removing ? `${removing.articleNumber} ${removing.title}` : '' })}
        confirmLabel={t('articles.remove')}
        variant="danger"
        onConfirm={() => {
          if (removing) void submit({ intent: 'removeArticle', articleId: removing.articleId }, { method: 'post' });
          setRemoving(null);
        }}
      />
      <Dialog
        title={t('inUse.title')}
        role="alertdialog"
        size="sm"
        isOpen={offerInactive}
        onOpenChange={setOfferInactive}
        footer={({ close }) => (
          <>
            <Button variant="secondary" onPress={close} autoFocus>
              {t('inUse.keep')}
            </Button>
            {canEdit && agreement.status === 'active' ? (
              <Button
                variant="primary"
                onPress={() => {
                  void submit({ intent: 'deactivate' }, { method: 'post' });
                  close();
                }}
              >
                {t('deactivate')}
              </Button>
            ) : null}
          </>
        )}
      >
        <p>{tc('DELETE_NOT_POSSIBLE_SET_INACTIVE')}</p>
        <p className="mt-2 text-sm text-slate-600">
          {t('inUse.objects', { count: result?.usedBy?.objects ?? agreement.objectCount })}
        </p>
      </Dialog>
    </div>
  );
}
