import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { useAgreementWords } from '~/app/components/agreements/agreement-words';
import { moneyInput } from '~/app/components/articles/format';
import { IncludedArticles } from './object-agreement-included';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { Button, ConfirmDialog, DatePicker, dateValueOf, Select, TextField, useToast } from '~/app/components/ui';
import { EntityPicker, type PickerOption } from '~/app/components/ui/entity-picker';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type {
  AddressOption,
  AgreementActionResult,
  AgreementLoaderResult,
  AgreementPanelData,
  AgreementTypeFacts,
} from '~/app/routes/inventory.objects.$id.agreement';
import type { ObjectAgreement, IncludedArticleView } from '~/core/agreements/object-agreement.service';
import { agreementUrl, Notice, useAgreementDates } from './object-agreement-shared';
import { TextArea, useFieldErrors } from './shared';

/** The object the agreement is on, as the page knows it. */
export interface AgreementObject {
  id: string;
  customerId: string | null;
  /** "10001 – Brf Solrosen". */
  customerLabel: string | null;
}

/** "The customer's primary address" in the address Select (a Select key cannot be empty). */
const PRIMARY = 'primary';

export interface AgreementFormProps {
  object: AgreementObject;
  agreement: ObjectAgreement | null;
  addresses: AddressOption[];
  invoiceCustomer: AgreementPanelData['invoiceCustomer'];
  canEdit: boolean;
  canReadCustomers: boolean;
  canPickArticles: boolean;
  /** The articles the agreement includes at a discount (the object's own, then its type's). */
  included: IncludedArticleView[];
  /** Loads the tab again (after AGREEMENT_CHANGED). */
  onReload: () => void;
}

const typeFactsOf = (a: ObjectAgreement): AgreementTypeFacts => ({
  id: a.agreementId,
  code: a.agreement.code,
  title: a.agreement.title,
  price: a.totalPrice,
  priceModel: a.agreement.priceModel,
  woInterval: a.agreement.woInterval,
  woDay: a.agreement.woDay,
  invoiceInterval: a.agreement.invoiceInterval,
  invoiceDay: a.agreement.invoiceDay,
});

/**
 * Putting an agreement on the object, or changing it (spec "Agreement on object"): the type, its
 * validity, the price per invoice period, where invoicing starts, whom the invoice goes to, the
 * invoice reference and the spec's free fields; with an agreement also the next work-order and
 * invoice dates. Saving sends the version read: a stale form is refused (AGREEMENT_CHANGED) and
 * the tab offers to reload; moving the invoice date into a period already invoiced asks first
 * (AGREEMENT_DOUBLE_INVOICING) and is sent again confirmed.
 */
export function AgreementForm(props: AgreementFormProps) {
  const { t } = useTranslation('objectagreement');
  const { t: tc } = useTranslation();
  const dates = useAgreementDates();
  const toast = useToast();
  const url = agreementUrl(props.object.id);
  const saver = useFetcher<AgreementActionResult>();
  const lastForm = useRef<{ form: FormData; isNew: boolean } | null>(null);
  const [conflict, setConflict] = useState(false);
  const [doubleInvoicing, setDoubleInvoicing] = useState<{ from: string; to: string } | null>(null);

  const result = useFetcherResult(saver, (r) => {
    if (r.ok) {
      setConflict(false);
      toast.show({ kind: 'success', message: lastForm.current?.isNew ? t('created') : tc('SUCCESSFULLY_SAVED') });
    } else if (r.code === 'AGREEMENT_CHANGED') setConflict(true);
    else if (r.code === 'AGREEMENT_DOUBLE_INVOICING' && r.period) setDoubleInvoicing(r.period);
    else if (r.code !== 'VALIDATION_FAILED') toast.show({ kind: 'error', message: tc(r.code) });
  });

  function confirmDoubleInvoicing() {
    const last = lastForm.current;
    setDoubleInvoicing(null);
    if (!last) return;
    last.form.set('confirmDoubleInvoicing', 'true');
    void saver.submit(last.form, { method: 'post', action: url });
  }

  const { agreement } = props;
  return (
    <>
      {conflict ? (
        <Notice tone="warning" className="mb-4">
          <p>{tc('AGREEMENT_CHANGED')}</p>
          <Button
            size="sm"
            variant="secondary"
            className="mt-2"
            onPress={() => {
              setConflict(false);
              props.onReload();
            }}
          >
            {t('reload')}
          </Button>
        </Notice>
      ) : null}
      <AgreementFields
        // a save or a reload brings a new version: the fields start from what was saved
        key={agreement ? `${agreement.id}:${agreement.version}` : 'new'}
        {...props}
        saver={saver}
        errors={result && !result.ok ? result : undefined}
        onSubmitForm={(form) => {
          lastForm.current = { form, isNew: !agreement };
        }}
      />
      <ConfirmDialog
        isOpen={doubleInvoicing !== null}
        onOpenChange={(open) => (open ? null : setDoubleInvoicing(null))}
        title={t('double.title')}
        message={
          doubleInvoicing
            ? t('double.message', { period: dates.range(doubleInvoicing.from, doubleInvoicing.to) })
            : undefined
        }
        confirmLabel={t('double.confirm')}
        onConfirm={confirmDoubleInvoicing}
      />
    </>
  );
}

type Saver = ReturnType<typeof useFetcher<AgreementActionResult>>;

interface AgreementFieldsProps extends AgreementFormProps {
  saver: Saver;
  /** The last refusal, for the field errors. */
  errors: Extract<AgreementActionResult, { code: string }> | undefined;
  onSubmitForm: (form: FormData) => void;
}

/** The form's fields, remounted on each saved version (the dates are uncontrolled). */
function AgreementFields({
  object,
  agreement,
  addresses: firstAddresses,
  invoiceCustomer,
  canEdit,
  canReadCustomers,
  canPickArticles,
  included,
  saver,
  errors,
  onSubmitForm,
}: AgreementFieldsProps) {
  const { t } = useTranslation('objectagreement');
  const words = useAgreementWords();
  const url = agreementUrl(object.id);
  const typeLoader = useFetcher<AgreementLoaderResult>();
  const addressLoader = useFetcher<AgreementLoaderResult>();

  const [type, setType] = useState<AgreementTypeFacts | null>(agreement ? typeFactsOf(agreement) : null);
  const [totalPrice, setTotalPrice] = useState(moneyInput(agreement?.totalPrice ?? ''));
  const objectCustomer: PickerOption | null = object.customerId
    ? { id: object.customerId, label: object.customerLabel ?? '' }
    : null;
  const [customer, setCustomer] = useState<PickerOption | null>(invoiceCustomer ?? objectCustomer);
  const [addresses, setAddresses] = useState(firstAddresses);
  const [addressId, setAddressId] = useState(agreement?.invoiceAddressId ?? PRIMARY);

  const err = useFieldErrors(errors, 'agreement');
  const moreHasError = [
    'fieldText1',
    'fieldText2',
    'fieldText3',
    'fieldTextArea1',
    'fieldTextArea2',
    'fieldDate1',
  ].some((f) => err(f));

  // a type picked: its schedule, and its price as the object's price per period
  useFetcherResult(typeLoader, (r) => {
    if ('type' in r && r.type) {
      setType(r.type);
      setTotalPrice(moneyInput(r.type.price));
    }
  });
  useFetcherResult(addressLoader, (r) => {
    if ('addresses' in r) setAddresses(r.addresses);
  });

  function pickType(option: PickerOption | null) {
    if (!option) return setType(null);
    if (option.id === type?.id) return;
    void typeLoader.load(`${url}?${new URLSearchParams({ part: 'type', id: option.id })}`);
  }

  function pickCustomer(option: PickerOption | null) {
    setCustomer(option);
    setAddressId(PRIMARY);
    setAddresses([]);
    if (option) void addressLoader.load(`${url}?${new URLSearchParams({ part: 'addresses', customerId: option.id })}`);
  }

  const disabled = !canEdit;
  // the object's own customer is not stored: the invoice then follows the object's customer
  // an address no longer among the customer's is not sent
  const shownAddress = addresses.some((a) => a.id === addressId) ? addressId : PRIMARY;
  const postedCustomer = customer && customer.id !== object.customerId ? customer.id : '';
  const periodStartHelp = t('field.periodStart.help');

  return (
    <saver.Form
      method="post"
      action={url}
      noValidate
      aria-label={agreement ? t('form.edit') : t('form.new')}
      className="grid gap-4"
      onSubmit={(e) => onSubmitForm(new FormData(e.currentTarget))}
    >
      <input type="hidden" name="intent" value="save" />
      {agreement ? <input type="hidden" name="version" value={agreement.version} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1 sm:col-span-2">
          <EntityPicker
            name="agreementId"
            label={t('field.type')}
            source={url}
            params={{ part: 'types' }}
            defaultSelected={
              agreement
                ? { id: agreement.agreementId, label: `${agreement.agreement.code} – ${agreement.agreement.title}` }
                : null
            }
            onSelectionChange={pickType}
            isRequired
            isDisabled={disabled}
            errorMessage={err('agreementId')}
          />
          {type ? (
            <p className="text-sm text-slate-600" data-testid="agreement-type-schedule">
              {t('type.schedule', {
                wo: words.schedule(type.woInterval, type.woDay),
                invoice: words.schedule(type.invoiceInterval, type.invoiceDay),
              })}
            </p>
          ) : null}
        </div>
        <DatePicker
          name="validFrom"
          label={t('field.validFrom')}
          defaultValue={dateValueOf(agreement?.validFrom)}
          isRequired
          isDisabled={disabled}
          errorMessage={err('validFrom')}
        />
        <DatePicker
          name="validTo"
          label={t('field.validTo')}
          description={t('field.validTo.help')}
          defaultValue={dateValueOf(agreement?.validTo)}
          isDisabled={disabled}
          errorMessage={err('validTo')}
        />
        <TextField
          name="totalPrice"
          label={t('field.totalPrice')}
          inputMode="decimal"
          value={totalPrice}
          onChange={setTotalPrice}
          description={type?.priceModel === 'articles' ? t('field.totalPrice.articles') : t('field.totalPrice.help')}
          isDisabled={disabled}
          errorMessage={err('totalPrice')}
        />
        <DatePicker
          name="invoicePeriodFrom"
          label={t('field.invoicePeriodFrom')}
          description={t('field.invoicePeriodFrom.help')}
          defaultValue={dateValueOf(agreement?.invoicePeriodFrom)}
          isDisabled={disabled || (type !== null && !type.invoiceInterval)}
          errorMessage={err('invoicePeriodFrom')}
        />
        {agreement?.agreement.woInterval ? (
          <DatePicker
            name="woScheduledTo"
            label={t('field.woScheduledTo')}
            description={periodStartHelp}
            defaultValue={dateValueOf(agreement.woScheduledTo)}
            isDisabled={disabled}
            errorMessage={err('woScheduledTo')}
          />
        ) : null}
        {agreement?.agreement.invoiceInterval ? (
          <DatePicker
            name="invoiceScheduledTo"
            label={t('field.invoiceScheduledTo')}
            description={periodStartHelp}
            defaultValue={dateValueOf(agreement.invoiceScheduledTo)}
            isDisabled={disabled}
            errorMessage={err('invoiceScheduledTo')}
          />
        ) : null}
      </div>

      <fieldset className="grid gap-4 border-t border-slate-200 pt-4 sm:grid-cols-2">
        <legend className="float-left mb-1 w-full text-base font-medium sm:col-span-2">{t('section.invoiceTo')}</legend>
        {canReadCustomers ? (
          <>
            <CustomerPicker
              label={t('field.invoiceCustomer')}
              description={t('field.invoiceCustomer.help')}
              defaultSelected={customer}
              onSelectionChange={pickCustomer}
              isDisabled={disabled}
              errorMessage={err('invoiceCustomerId')}
            />
            <input type="hidden" name="invoiceCustomerId" value={postedCustomer} />
            <Select
              label={t('field.invoiceAddress')}
              items={[
                { id: PRIMARY, label: t('field.invoiceAddress.primary') },
                ...addresses.map((a) => ({
                  id: a.id,
                  label: a.isPrimary ? t('field.invoiceAddress.isPrimary', { address: a.label }) : a.label,
                })),
              ]}
              selectedKey={shownAddress}
              onSelectionChange={(key) => setAddressId(String(key ?? PRIMARY))}
              isDisabled={disabled || !customer}
              errorMessage={err('invoiceAddressId')}
            />
            <input type="hidden" name="invoiceAddressId" value={shownAddress === PRIMARY ? '' : shownAddress} />
          </>
        ) : (
          <>
            {/* without customers:read the invoice customer and address stay as they are */}
            <p className="text-sm text-slate-700 sm:col-span-2">
              {invoiceCustomer?.label ?? object.customerLabel ?? t('field.invoiceCustomer.none')}
            </p>
            <input type="hidden" name="invoiceCustomerId" value={agreement?.invoiceCustomerId ?? ''} />
            <input type="hidden" name="invoiceAddressId" value={agreement?.invoiceAddressId ?? ''} />
          </>
        )}
        <TextField
          name="invoiceExtra"
          label={t('field.invoiceExtra')}
          description={t('field.invoiceExtra.help')}
          defaultValue={agreement?.invoiceExtra ?? ''}
          isDisabled={disabled}
          errorMessage={err('invoiceExtra')}
          className="sm:col-span-2"
        />
      </fieldset>

      <IncludedArticles included={included} canEdit={canEdit} canPickArticles={canPickArticles} />

      <details className="group rounded-md border border-slate-200" open={moreHasError || undefined}>
        <summary className="flex min-h-11 cursor-pointer items-center px-3 text-sm font-medium text-slate-900 select-none focus-visible:outline-2 focus-visible:outline-blue-600">
          {t('section.more')}
        </summary>
        <div className="grid gap-4 p-3 sm:grid-cols-2">
          {(['fieldText1', 'fieldText2', 'fieldText3'] as const).map((f) => (
            <TextField
              key={f}
              name={f}
              label={t(`field.${f}`)}
              defaultValue={agreement?.[f] ?? ''}
              isDisabled={disabled}
              errorMessage={err(f)}
            />
          ))}
          <DatePicker
            name="fieldDate1"
            label={t('field.fieldDate1')}
            defaultValue={dateValueOf(agreement?.fieldDate1)}
            isDisabled={disabled}
            errorMessage={err('fieldDate1')}
          />
          {(['fieldTextArea1', 'fieldTextArea2'] as const).map((f) => (
            <TextArea
              key={f}
              name={f}
              label={t(`field.${f}`)}
              defaultValue={agreement?.[f] ?? ''}
              isDisabled={disabled}
              errorMessage={err(f)}
              className="sm:col-span-2"
            />
          ))}
        </div>
      </details>

      {canEdit ? (
        <div>
          <Button type="submit" variant="primary" isPending={saver.state !== 'idle'}>
            {agreement ? t('save') : t('create')}
          </Button>
        </div>
      ) : null}
    </saver.Form>
  );
}
