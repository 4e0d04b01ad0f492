import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextArea, TextField as AriaTextField } from 'react-aria-components';
import { Form, useNavigation } from 'react-router';
import { Checkbox } from '~/app/components/access/checkbox';
import { Button, ProposeField, Select, TextField } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import {
  FIELD_CLASS,
  FieldErrorText,
  FieldLabel,
  hasError,
  INPUT_BOX_CLASS,
  INPUT_FOCUS_CLASS,
  type ErrorMessage,
} from '~/app/components/ui/field';
import { LINE_TYPES, PRODUCT_TYPES, type TArticle } from '~/core/articles/article.schema';
import { articleFromCatalogue } from '~/core/supplier-catalogues/article-from-catalogue';
import type { CatalogueArticle } from '~/core/supplier-catalogues/catalogue.service';
import { CatalogueProductSearch } from './catalogue-product-search';
import { moneyInput } from './format';

/** "No group" in the group select (a Select key cannot be empty). */
const NO_GROUP = 'none';

/** A new article's form before anything is typed. */
export const EMPTY_ARTICLE: TArticle = {
  id: 'new',
  articleId: '',
  title: '',
  description: null,
  status: 'active',
  unit: 'st',
  eNumber: null,
  articleGroupId: null,
  group: null,
  price: '',
  purchasePrice: '',
  recommendedPrice: null,
  productType: 'non_stock',
  lineType: 'regular',
  houseWork: false,
  security: false,
  stockAmount: '0',
  stockLocation: null,
  ref: null,
  createdAt: '',
  updatedAt: '',
};

/**
 * The article's fields from the posted form, for createArticle / updateArticle. Fields the form
 * did not show (group without the module, purchase price without articles:price) are left out,
 * so an update keeps them.
 */
export function articleFromForm(form: FormData, opts: { withPurchasePrice: boolean; withGroup: boolean }) {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const group = text('articleGroupId');
  return {
    articleId: text('articleId'),
    title: text('title'),
    description: text('description'),
    unit: text('unit'),
    eNumber: text('eNumber'),
    ...(opts.withGroup ? { articleGroupId: group && group !== NO_GROUP ? group : null } : {}),
    price: text('price') || '0',
    ...(opts.withPurchasePrice ? { purchasePrice: text('purchasePrice') || '0' } : {}),
    recommendedPrice: text('recommendedPrice') ?? '',
    productType: text('productType') || undefined,
    lineType: text('lineType') || undefined,
    houseWork: form.get('houseWork') === 'true',
    security: form.get('security') === 'true',
    stockLocation: text('stockLocation'),
  };
}

export interface ArticleFormProps {
  article: TArticle;
  /** Article groups as options; null when the article-groups module is off. */
  groups: { id: string; label: string }[] | null;
  errors: (field: string) => string[] | undefined;
  canEdit: boolean;
  canSeePurchasePrice: boolean;
  isNew: boolean;
  submitLabel: string;
  /** Extra buttons beside save (delete, set inactive). */
  children?: ReactNode;
  /** The suppliers' price lists can be searched to fill the form in (supplier-inventory module, articles:read). */
  catalogueSearch?: boolean;
}

/** The form's fields as they are now (what a person typed), over the article it was opened with. */
function typedArticle(form: HTMLFormElement, article: TArticle): TArticle {
  const data = new FormData(form);
  const text = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : null;
  };
  const group = text('articleGroupId');
  return {
    ...article,
    articleId: text('articleId') ?? article.articleId,
    title: text('title') ?? article.title,
    unit: text('unit') || null,
    eNumber: text('eNumber') || null,
    articleGroupId: group === null ? article.articleGroupId : group === NO_GROUP ? null : group,
    price: text('price') ?? article.price,
    ...(article.purchasePrice !== undefined ? { purchasePrice: text('purchasePrice') ?? article.purchasePrice } : {}),
    recommendedPrice: text('recommendedPrice') || null,
    productType: (text('productType') as TArticle['productType'] | null) ?? article.productType,
    lineType: (text('lineType') as TArticle['lineType'] | null) ?? article.lineType,
    houseWork: data.get('houseWork') === 'true',
    security: data.get('security') === 'true',
    stockLocation: text('stockLocation') || null,
    description: text('description') || null,
  };
}

/**
 * An article's fields (spec section 3) in one form: number (with "propose"), title, group, unit,
 * E-number, type, prices, stock place, house-work and security flags, description. Two columns
 * on wide screens, one on a phone.
 */
export function ArticleForm({
  article,
  groups,
  errors,
  canEdit,
  canSeePurchasePrice,
  isNew,
  submitLabel,
  children,
  catalogueSearch,
}: ArticleFormProps) {
  const { t } = useTranslation('articles');
  const navigation = useNavigation();
  // a product taken from a price list fills the form in anew (its inputs are uncontrolled), over
  // what was typed; nothing is saved until Save
  const formRef = useRef<HTMLFormElement>(null);
  const [shown, setShown] = useState<{ article: TArticle; key: number; taken: CatalogueArticle | null }>({
    article,
    key: 0,
    taken: null,
  });
  const take = (product: CatalogueArticle) =>
    setShown((s) => ({
      article: articleFromCatalogue(product, formRef.current ? typedArticle(formRef.current, s.article) : s.article),
      key: s.key + 1,
      taken: product,
    }));
  const a = shown.article;
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const disabled = !canEdit;
  const money = (name: 'price' | 'purchasePrice' | 'recommendedPrice', label: string, isRequired = false) => (
    <TextField
      name={name}
      label={label}
      inputMode="decimal"
      defaultValue={moneyInput(a[name])}
      isRequired={isRequired}
      isDisabled={disabled}
      errorMessage={errors(name)}
    />
  );
  return (
    <div className="grid gap-4">
      {catalogueSearch && canEdit ? <CatalogueProductSearch onTake={take} /> : null}
      <p role="status" className={shown.taken ? 'rounded-md bg-sky-50 p-2 text-sm text-sky-900' : 'sr-only'}>
        {shown.taken
          ? t('catalogue.taken', { number: shown.taken.articleNumber, supplier: shown.taken.supplierTitle })
          : null}
      </p>
      <Form key={shown.key} ref={formRef} method="post" className="grid gap-6" noValidate>
        <input type="hidden" name="intent" value="save" />
        <div className="grid gap-4 sm:grid-cols-2">
          <ProposeField
            name="articleId"
            label={t('field.articleId')}
            description={t('field.articleId.help')}
            defaultValue={a.articleId}
            proposeUrl="/inventory/articles/propose"
            proposeLabel={t('field.articleId.propose')}
            canPropose={isNew}
            isRequired
            isDisabled={disabled}
            errorMessage={errors('articleId')}
            autoFocus={isNew}
          />
          <TextField
            name="title"
            label={t('field.title')}
            defaultValue={a.title}
            isRequired
            isDisabled={disabled}
            errorMessage={errors('title')}
          />
          {groups ? (
            <Select
              name="articleGroupId"
              label={t('field.group')}
              defaultSelectedKey={a.articleGroupId ?? NO_GROUP}
              isDisabled={disabled}
              items={[{ id: NO_GROUP, label: t('field.group.none') }, ...groups]}
              errorMessage={errors('articleGroupId')}
            />
          ) : null}
          <TextField
            name="unit"
            label={t('field.unit')}
            description={t('field.unit.help')}
            defaultValue={a.unit ?? ''}
            isDisabled={disabled}
            errorMessage={errors('unit')}
          />
          <TextField
            name="eNumber"
            label={t('field.eNumber')}
            defaultValue={a.eNumber ?? ''}
            isDisabled={disabled}
            errorMessage={errors('eNumber')}
          />
          <Select
            name="productType"
            label={t('field.productType')}
            defaultSelectedKey={a.productType}
            isDisabled={disabled}
            items={PRODUCT_TYPES.map((p) => ({ id: p, label: t(`productType.${p}`) }))}
            errorMessage={errors('productType')}
          />
          <Select
            name="lineType"
            label={t('field.lineType')}
            description={t('field.lineType.help')}
            defaultSelectedKey={a.lineType}
            isDisabled={disabled}
            items={LINE_TYPES.map((l) => ({ id: l, label: t(`lineType.${l}`) }))}
            errorMessage={errors('lineType')}
          />
          {money('price', t('field.price'))}
          {canSeePurchasePrice ? money('purchasePrice', t('field.purchasePrice')) : null}
          {money('recommendedPrice', t('field.recommendedPrice'))}
          <TextField
            name="stockLocation"
            label={t('field.stockLocation')}
            defaultValue={a.stockLocation ?? ''}
            isDisabled={disabled}
            errorMessage={errors('stockLocation')}
          />
          <div className="flex flex-col justify-end gap-1 sm:col-span-2 sm:flex-row sm:gap-6">
            <Checkbox name="houseWork" value="true" defaultSelected={a.houseWork} isDisabled={disabled}>
              {t('field.houseWork')}
            </Checkbox>
            <Checkbox name="security" value="true" defaultSelected={a.security} isDisabled={disabled}>
              {t('field.security')}
            </Checkbox>
          </div>
          <TextAreaField
            name="description"
            label={t('field.description')}
            defaultValue={a.description ?? ''}
            isDisabled={disabled}
            errorMessage={errors('description')}
            className="sm:col-span-2"
          />
        </div>
        {canEdit ? (
          <div className="flex flex-col-reverse gap-2 border-t border-gray-100 pt-4 sm:flex-row sm:justify-between">
            <div className="flex flex-col gap-2 sm:flex-row">{children}</div>
            <Button type="submit" variant="primary" isPending={busy}>
              {submitLabel}
            </Button>
          </div>
        ) : null}
      </Form>
    </div>
  );
}

/** A labelled multi-line text input that posts under `name`. */
function TextAreaField({
  label,
  errorMessage,
  className,
  ...props
}: {
  name: string;
  label: string;
  defaultValue?: string;
  isDisabled?: boolean;
  errorMessage?: ErrorMessage;
  className?: string;
}) {
  return (
    <AriaTextField {...props} isInvalid={hasError(errorMessage) || undefined} className={cx(FIELD_CLASS, className)}>
      <FieldLabel>{label}</FieldLabel>
      <TextArea rows={4} className={cx(INPUT_BOX_CLASS, INPUT_FOCUS_CLASS, 'px-3 py-2')} />
      <FieldErrorText errorMessage={errorMessage} />
    </AriaTextField>
  );
}
