import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, moneyInput } from '~/app/components/articles/format';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { TextArea } from '~/app/components/objects/shared';
import {
  Button,
  DatePicker,
  dateValueOf,
  FormSection,
  recordFields,
  peopleItems,
  ProposeField,
  RecordForm,
  Select,
  TextField,
} from '~/app/components/ui';
import type { Contract } from '~/core/contracts/contract.service';
import { MAX_CONTRACT_SERVICES } from '~/core/contracts/contract-constants';
import { add, formatDecimal, isNegative, parseDecimal, sub, ZERO, type Decimal } from '~/core/pricing/decimal';

/** What the form starts from: a saved contract, or the empty one of a new contract. */
export type ContractDraft = Pick<
  Contract,
  | 'number'
  | 'title'
  | 'customerId'
  | 'customerName'
  | 'customerNumber'
  | 'contactName'
  | 'contactEmail'
  | 'contactPhone'
  | 'salesUserId'
  | 'salesUserName'
  | 'startDate'
  | 'stopDate'
  | 'invoiceReference'
  | 'note'
  | 'version'
> & { services: { name: string; value: string; cost: string }[] };

export const emptyContract = (salesUserId: string | null): ContractDraft => ({
  number: '',
  title: '',
  customerId: '',
  customerName: '',
  customerNumber: null,
  contactName: null,
  contactEmail: null,
  contactPhone: null,
  salesUserId,
  salesUserName: null,
  startDate: null,
  stopDate: null,
  invoiceReference: null,
  note: null,
  version: 0,
  services: [],
});

/** The sales-user choice "nobody" (a Select needs a key). */
const NO_USER = 'none';
const SERVICE_FIELDS = ['name', 'value', 'cost'] as const;
const serviceField = (f: (typeof SERVICE_FIELDS)[number]) => `service.${f}`;

/**
 * Reads the posted form as the contract the services take (`{contract: …}` without id and
 * version): empty text is sent as empty, and the server makes it "none".
 */
export function contractFromForm(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? '');
  const [names, values, costs] = SERVICE_FIELDS.map((f) => form.getAll(serviceField(f)).map(String));
  const salesUserId = text('salesUserId');
  return {
    number: text('number'),
    title: text('title'),
    customerId: text('customerId'),
    contactName: text('contactName'),
    contactEmail: text('contactEmail'),
    contactPhone: text('contactPhone'),
    salesUserId: salesUserId === NO_USER ? '' : salesUserId,
    startDate: text('startDate'),
    stopDate: text('stopDate'),
    invoiceReference: text('invoiceReference'),
    note: text('note'),
    services: names!.map((name, i) => ({ name, value: values![i] ?? '', cost: costs![i] ?? '' })),
  };
}

/** A typed amount as a decimal: empty is zero, what is not a number counts as nothing (the save says why). */
const amount = (text: string): Decimal | null => (text.trim() === '' ? ZERO : parseDecimal(text));

export interface ContractFormProps {
  contract: ContractDraft;
  /** Active users to choose the sales user from. */
  users: { id: string; name: string }[];
  /** Field errors of the last save, by field (`number`, `services.0.value`), already translated. */
  errors: (field: string) => string[] | undefined;
  canEdit: boolean;
  /** A contract ID the page proposes (new contracts only: an existing one's ID is only retyped). */
  proposal?: string | null;
  submitLabel: string;
  /** Why the last save was refused, when no field says it (translated). */
  formError?: string | null;
  /** Extra buttons next to save (close, reopen, delete). */
  children?: React.ReactNode;
}

/**
 * The contract's fields (spec section 3: contract ID, customer, contact, sales user, start and
 * stop date, invoice reference) and its services with the live totals of value, cost and margin,
 * saved together.
 */
export function ContractForm({
  contract,
  users,
  errors,
  canEdit,
  proposal,
  submitLabel,
  formError,
  children,
}: ContractFormProps) {
  const { t } = useTranslation('contracts');
  const disabled = !canEdit;
  const field = recordFields(errors, disabled);
  return (
    <RecordForm
      version={contract.version}
      canEdit={canEdit}
      submitLabel={submitLabel}
      actions={children}
      error={formError}
    >
      <FormSection title={t('section.contract')}>
        <ProposeField
          {...field('number')}
          label={t('field.number')}
          defaultValue={contract.number}
          proposal={proposal}
          canPropose={proposal !== undefined}
          proposeLabel={t('field.number.propose')}
          description={proposal !== undefined ? t('field.number.help') : undefined}
          isRequired={proposal === undefined}
        />
        <TextField {...field('title')} label={t('field.title')} defaultValue={contract.title} isRequired />
        <CustomerPicker
          {...field('customerId')}
          label={t('field.customer')}
          defaultSelected={
            contract.customerId
              ? {
                  id: contract.customerId,
                  label: contract.customerNumber
                    ? `${contract.customerNumber} – ${contract.customerName}`
                    : contract.customerName,
                }
              : null
          }
          isRequired
        />
        <Select
          {...field('salesUserId')}
          label={t('field.salesUser')}
          defaultSelectedKey={contract.salesUserId ?? NO_USER}
          items={peopleItems(
            users,
            { id: NO_USER, label: t('field.salesUser.none') },
            { id: contract.salesUserId, name: contract.salesUserName },
          )}
        />
        <DatePicker
          {...field('startDate')}
          label={t('field.startDate')}
          defaultValue={dateValueOf(contract.startDate)}
        />
        <DatePicker {...field('stopDate')} label={t('field.stopDate')} defaultValue={dateValueOf(contract.stopDate)} />
        <TextField
          {...field('invoiceReference')}
          label={t('field.invoiceReference')}
          description={t('field.invoiceReference.help')}
          defaultValue={contract.invoiceReference ?? ''}
        />
      </FormSection>
      <FormSection title={t('section.contact')} columns={3}>
        <TextField {...field('contactName')} label={t('field.contactName')} defaultValue={contract.contactName ?? ''} />
        <TextField
          {...field('contactEmail')}
          type="email"
          label={t('field.contactEmail')}
          defaultValue={contract.contactEmail ?? ''}
        />
        <TextField
          {...field('contactPhone')}
          type="tel"
          label={t('field.contactPhone')}
          defaultValue={contract.contactPhone ?? ''}
        />
      </FormSection>
      <ServicesEditor defaultValue={contract.services} errors={errors} isDisabled={disabled} />
      <TextArea {...field('note')} label={t('field.note')} defaultValue={contract.note ?? ''} />
    </RecordForm>
  );
}

interface ServiceRow {
  key: number;
  name: string;
  value: string;
  cost: string;
}

/**
 * The services (name, value, cost) as rows: add, edit and remove, with the totals of value and
 * cost and the margin between them updated as you type. Each row posts its three fields, so the
 * order on screen is the order saved.
 */
function ServicesEditor({
  defaultValue,
  errors,
  isDisabled,
}: {
  defaultValue: ContractDraft['services'];
  errors: (field: string) => string[] | undefined;
  isDisabled: boolean;
}) {
  const { t } = useTranslation('contracts');
  const nextKey = useRef(defaultValue.length);
  const [rows, setRows] = useState<ServiceRow[]>(() =>
    defaultValue.map((s, i) => ({ key: i, name: s.name, value: moneyInput(s.value), cost: moneyInput(s.cost) })),
  );
  const change = (key: number, patch: Partial<ServiceRow>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const sum = (field: 'value' | 'cost') => rows.reduce((acc, r) => add(acc, amount(r[field]) ?? ZERO), ZERO);
  const totalValue = sum('value');
  const totalCost = sum('cost');
  const margin = sub(totalValue, totalCost);
  const listErrors = errors('services');
  return (
    <fieldset className="grid gap-3">
      <legend className="text-lg font-medium">{t('services.title')}</legend>
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('services.empty')}</p> : null}
      {rows.length ? (
        <ol className="grid gap-3">
          {rows.map((row, i) => {
            const label = row.name.trim() || t('services.unnamed', { n: i + 1 });
            return (
              <li
                key={row.key}
                className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
              >
                <TextField
                  name={serviceField('name')}
                  label={t('services.name')}
                  value={row.name}
                  onChange={(v) => change(row.key, { name: v })}
                  isRequired
                  isDisabled={isDisabled}
                  errorMessage={errors(`services.${i}.name`)}
                />
                <TextField
                  name={serviceField('value')}
                  label={t('services.value')}
                  inputMode="decimal"
                  value={row.value}
                  onChange={(v) => change(row.key, { value: v })}
                  isDisabled={isDisabled}
                  errorMessage={errors(`services.${i}.value`)}
                />
                <TextField
                  name={serviceField('cost')}
                  label={t('services.cost')}
                  inputMode="decimal"
                  value={row.cost}
                  onChange={(v) => change(row.key, { cost: v })}
                  isDisabled={isDisabled}
                  errorMessage={errors(`services.${i}.cost`)}
                />
                {isDisabled ? null : (
                  <div className="sm:mt-6">
                    <Button
                      variant="ghost"
                      size="sm"
                      onPress={() => setRows((all) => all.filter((r) => r.key !== row.key))}
                      aria-label={t('services.remove', { name: label })}
                    >
                      {t('services.removeShort')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      ) : null}
      {listErrors ? (
        <p role="alert" className="text-sm text-red-700">
          {listErrors.join(' ')}
        </p>
      ) : null}
      {isDisabled || rows.length >= MAX_CONTRACT_SERVICES ? null : (
        <div>
          <Button
            variant="secondary"
            onPress={() => setRows((all) => [...all, { key: nextKey.current++, name: '', value: '', cost: '' }])}
          >
            {t('services.add')}
          </Button>
        </div>
      )}
      <dl aria-live="polite" className="grid grid-cols-3 gap-2 rounded-lg bg-slate-50 p-3 text-sm">
        <div>
          <dt className="text-slate-600">{t('totals.value')}</dt>
          <dd className="font-semibold tabular-nums" data-testid="contract-total-value">
            {formatMoney(formatDecimal(totalValue))}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('totals.cost')}</dt>
          <dd className="font-semibold tabular-nums" data-testid="contract-total-cost">
            {formatMoney(formatDecimal(totalCost))}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('totals.margin')}</dt>
          <dd
            className={`font-semibold tabular-nums ${isNegative(margin) ? 'text-red-700' : ''}`}
            data-testid="contract-margin"
          >
            {formatMoney(formatDecimal(margin))}
          </dd>
        </div>
      </dl>
    </fieldset>
  );
}
