import type { ReactNode } from 'react';
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
}: ArticleFormProps) {
  const { t } = useTranslation('articles');
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const disabled = !canEdit;
  const money = (name: 'price' | 'purchasePrice' | 'recommendedPrice', label: string, isRequired = false) => (
    <TextField
      name={name}
      label={label}
      inputMode="decimal"
      defaultValue={moneyInput(article[name])}
      isRequired={isRequired}
      isDisabled={disabled}
      errorMessage={errors(name)}
    />
  );
  return (
    <Form method="post" className="grid gap-6" noValidate>
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <ProposeField
          name="articleId"
          label={t('field.articleId')}
          description={t('field.articleId.help')}
          defaultValue={article.articleId}
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
          defaultValue={article.title}
          isRequired
          isDisabled={disabled}
          errorMessage={errors('title')}
        />
        {groups ? (
          <Select
            name="articleGroupId"
            label={t('field.group')}
            defaultSelectedKey={article.articleGroupId ?? NO_GROUP}
            isDisabled={disabled}
            items={[{ id: NO_GROUP, label: t('field.group.none') }, ...groups]}
            errorMessage={errors('articleGroupId')}
          />
        ) : null}
        <TextField
          name="unit"
          label={t('field.unit')}
          description={t('field.unit.help')}
          defaultValue={article.unit ?? ''}
          isDisabled={disabled}
          errorMessage={errors('unit')}
        />
        <TextField
          name="eNumber"
          label={t('field.eNumber')}
          defaultValue={article.eNumber ?? ''}
          isDisabled={disabled}
          errorMessage={errors('eNumber')}
        />
        <Select
          name="productType"
          label={t('field.productType')}
          defaultSelectedKey={article.productType}
          isDisabled={disabled}
          items={PRODUCT_TYPES.map((p) => ({ id: p, label: t(`productType.${p}`) }))}
          errorMessage={errors('productType')}
        />
        <Select
          name="lineType"
          label={t('field.lineType')}
          description={t('field.lineType.help')}
          defaultSelectedKey={article.lineType}
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
          defaultValue={article.stockLocation ?? ''}
          isDisabled={disabled}
          errorMessage={errors('stockLocation')}
        />
        <div className="flex flex-col justify-end gap-1 sm:col-span-2 sm:flex-row sm:gap-6">
          <Checkbox name="houseWork" value="true" defaultSelected={article.houseWork} isDisabled={disabled}>
            {t('field.houseWork')}
          </Checkbox>
          <Checkbox name="security" value="true" defaultSelected={article.security} isDisabled={disabled}>
            {t('field.security')}
          </Checkbox>
        </div>
        <TextAreaField
          name="description"
          label={t('field.description')}
          defaultValue={article.description ?? ''}
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
