import { useId, useState } from 'react';
import { moneyInput } from '~/app/components/articles/format';
import { useTranslation } from 'react-i18next';
import { ArticlePicker } from '~/app/components/inventory/pickers/article-picker';
import { Button, NativeSelect, TextField } from '~/app/components/ui';
import { FIELD_CLASS, INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field-classes';
import {
  ErrorText,
  newKey,
  RowListItems,
  Section,
  useRowList,
  useSectionSave,
} from '~/app/components/work-orders/settings/shared';
import type {
  CustomField,
  PriceTemplate,
  ProposalConfiguration,
  StandardText,
} from '~/core/proposals/proposal-configuration.service';

/** The tiers of spec section 9 (kept here too: the service module is server-only). */
const TIER_PRESETS = [
  ['2800.00', '4400.00', '6000.00'],
  ['5600.00', '8200.00', '10000.00'],
] as const;
const CUSTOM_FIELD_TYPES = ['text', 'number', 'date'] as const;

type Save = ReturnType<typeof useSectionSave>;
const submit = (save: Save, body: Record<string, unknown>) =>
  save.fetcher.submit(body as never, { method: 'post', encType: 'application/json' });

function Check(props: { label: string; checked: boolean; onChange: (v: boolean) => void; disabled: boolean }) {
  return (
    <label className="flex min-h-10 items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
        className="size-4"
      />
      {props.label}
    </label>
  );
}

function TextArea(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  disabled: boolean;
  rows?: number;
  error?: string[];
}) {
  const id = useId();
  return (
    <div className={FIELD_CLASS}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {props.label}
      </label>
      <textarea
        id={id}
        rows={props.rows ?? 3}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} px-3 py-2`}
      />
      <ErrorText messages={props.error} />
    </div>
  );
}

const SWITCHES = [
  'summaryRows',
  'monthlyPrice',
  'negativePrices',
  'files',
  'purchasePriceEdit',
  'stockPoint',
  'costCenter',
  'projectScope',
  'validTo',
] as const;
type Switch = (typeof SWITCHES)[number];

/** The switches of spec section 6, the default terms and the numbering of proposals and sales orders. */
export function ProposalOptionsForm({ config, canEdit }: { config: ProposalConfiguration; canEdit: boolean }) {
  const { t } = useTranslation('proposalsettings');
  const save = useSectionSave(() => {});
  const [form, setForm] = useState(() => ({
    ...(Object.fromEntries(SWITCHES.map((s) => [s, config[s]])) as Record<Switch, boolean>),
    generalTerms: config.generalTerms,
    paymentTerms: config.paymentTerms,
    nextSequence: String(config.nextSequence),
    salesOrderNextNumber: String(config.salesOrderNextNumber),
  }));
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  return (
    <Section id="proposal-options" title={t('options.title')} intro={t('options.intro')}>
      <form
        className="mt-4 grid gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(save, { intent: 'options', ...form });
        }}
      >
        <fieldset className="grid gap-1 sm:grid-cols-2">
          <legend className="mb-1 text-sm font-medium">{t('options.switches')}</legend>
          {SWITCHES.map((s) => (
            <Check
              key={s}
              label={t(`switch.${s}`)}
              checked={form[s]}
              disabled={!canEdit}
              onChange={(v) => set({ [s]: v })}
            />
          ))}
        </fieldset>
        <TextArea
          label={t('options.generalTerms')}
          value={form.generalTerms}
          onChange={(generalTerms) => set({ generalTerms })}
          disabled={!canEdit}
          error={save.err('generalTerms')}
        />
        <TextArea
          label={t('options.paymentTerms')}
          value={form.paymentTerms}
          onChange={(paymentTerms) => set({ paymentTerms })}
          disabled={!canEdit}
          rows={2}
          error={save.err('paymentTerms')}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('options.nextSequence')}
            inputMode="numeric"
            value={form.nextSequence}
            onChange={(nextSequence) => set({ nextSequence })}
            isDisabled={!canEdit}
            errorMessage={save.err('nextSequence')}
          />
          <TextField
            label={t('options.salesOrderNextNumber')}
            inputMode="numeric"
            value={form.salesOrderNextNumber}
            onChange={(salesOrderNextNumber) => set({ salesOrderNextNumber })}
            isDisabled={!canEdit}
            errorMessage={save.err('salesOrderNextNumber')}
          />
        </div>
        {canEdit && (
          <div>
            <Button type="submit" variant="primary" isPending={save.busy}>
              {t('options.save')}
            </Button>
          </div>
        )}
      </form>
    </Section>
  );
}

interface TextRow extends StandardText {
  key: string;
  id: string;
  name: string;
}
const toTextRows = (texts: StandardText[]): TextRow[] => texts.map((x) => ({ ...x, key: x.id, name: x.title }));

/** Standard texts (spec section 2): a title and a text the proposal screen inserts into the description. */
export function StandardTextsForm({ texts, canEdit }: { texts: StandardText[]; canEdit: boolean }) {
  const { t } = useTranslation('proposalsettings');
  const list = useRowList(texts, toTextRows);
  const { rows, save } = list;
  // a row's name (for its remove and move buttons) is its title
  const set = (i: number, patch: Partial<TextRow>) =>
    list.set(i, patch.title === undefined ? patch : { ...patch, name: patch.title });
  return (
    <Section id="proposal-texts" title={t('texts.title')} intro={t('texts.intro')}>
      <form
        className="mt-4 grid gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(save, {
            intent: 'standardTexts',
            standardTexts: rows.map(({ id, title, body }) => ({ id: id || undefined, title, body })),
          });
        }}
      >
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('texts.title')}
          empty={t('texts.empty')}
          newRow={() => ({ key: newKey(), id: '', title: '', body: '', name: '' })}
          addLabel={t('texts.add')}
          saveLabel={t('texts.save')}
          rowTestId="text-row"
          rowClassName="grid gap-2"
          renderRow={(row, i, tools) => (
            <>
              <div className="flex flex-wrap items-end gap-2">
                <TextField
                  label={t('texts.name')}
                  value={row.title}
                  onChange={(title) => set(i, { title })}
                  isDisabled={!canEdit}
                  isRequired
                  maxLength={100}
                  className="min-w-40 flex-1"
                  errorMessage={save.err(`standardTexts.${i}.title`)}
                />
                {tools}
              </div>
              <TextArea
                label={t('texts.body')}
                value={row.body}
                onChange={(body) => set(i, { body })}
                disabled={!canEdit}
                error={save.err(`standardTexts.${i}.body`)}
              />
              <ErrorText messages={save.err(`standardTexts.${i}`)} />
            </>
          )}
        />
      </form>
    </Section>
  );
}

interface FieldRow extends CustomField {
  key: string;
  name: string;
}
const toFieldRows = (fields: CustomField[]): FieldRow[] => fields.map((f) => ({ ...f, key: f.id, name: f.label }));

/** Custom fields (spec section 2): what every proposal asks for beyond the standard fields; some required. */
export function CustomFieldsForm({ fields, canEdit }: { fields: CustomField[]; canEdit: boolean }) {
  const { t } = useTranslation('proposalsettings');
  const list = useRowList(fields, toFieldRows);
  const { rows, save } = list;
  // a row's name (for its remove and move buttons) is its label
  const set = (i: number, patch: Partial<FieldRow>) =>
    list.set(i, patch.label === undefined ? patch : { ...patch, name: patch.label });
  return (
    <Section id="proposal-fields" title={t('fields.title')} intro={t('fields.intro')}>
      <form
        className="mt-4 grid gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(save, {
            intent: 'customFields',
            customFields: rows.map(({ id, label, type, required }) => ({ id: id || undefined, label, type, required })),
          });
        }}
      >
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('fields.title')}
          empty={t('fields.empty')}
          newRow={() => ({ key: newKey(), id: '', label: '', type: 'text' as const, required: false, name: '' })}
          addLabel={t('fields.add')}
          saveLabel={t('fields.save')}
          rowTestId="field-row"
          rowClassName="flex flex-wrap items-end gap-x-4 gap-y-2"
          renderRow={(row, i, tools) => (
            <>
              <TextField
                label={t('fields.label')}
                value={row.label}
                onChange={(label) => set(i, { label })}
                isDisabled={!canEdit}
                isRequired
                maxLength={100}
                className="min-w-40 flex-1"
                errorMessage={save.err(`customFields.${i}.label`)}
              />
              <NativeSelect
                label={t('fields.type')}
                value={row.type}
                isDisabled={!canEdit}
                onChange={(type) => set(i, { type: type as CustomField['type'] })}
                items={CUSTOM_FIELD_TYPES.map((type) => ({ id: type, label: t(`fields.types.${type}`) }))}
              />
              <Check
                label={t('fields.required')}
                checked={row.required}
                disabled={!canEdit}
                onChange={(required) => set(i, { required })}
              />
              {tools}
              <div className="basis-full empty:hidden">
                <ErrorText messages={save.err(`customFields.${i}`)} />
              </div>
            </>
          )}
        />
      </form>
    </Section>
  );
}

interface TemplateRow extends PriceTemplate {
  key: string;
  name: string;
}
const toTemplateRows = (templates: PriceTemplate[]): TemplateRow[] =>
  templates.map((x) => ({ ...x, key: x.id, name: x.title }));

/**
 * Price templates (spec sections 2 and 9): an article offered at tiers of prices, which a proposal
 * adds as a row. A new template starts at the spec's 2800/4400/6000 kr; 5600/8200/10000 is a click.
 */
export function PriceTemplatesForm({ templates, canEdit }: { templates: PriceTemplate[]; canEdit: boolean }) {
  const { t } = useTranslation('proposalsettings');
  const list = useRowList(templates, toTemplateRows);
  const { rows, save } = list;
  // a row's name (for its remove and move buttons) is its title
  const set = (i: number, patch: Partial<TemplateRow>) =>
    list.set(i, patch.title === undefined ? patch : { ...patch, name: patch.title });
  const tiersOf = (preset: readonly string[]) =>
    preset.map((price, n) => ({ label: t(`templates.tierNames.${n}`), price }));
  const setTier = (i: number, n: number, patch: Partial<{ label: string; price: string }>) =>
    set(i, { tiers: rows[i]!.tiers.map((tier, m) => (m === n ? { ...tier, ...patch } : tier)) });
  return (
    <Section id="proposal-templates" title={t('templates.title')} intro={t('templates.intro')}>
      <form
        className="mt-4 grid gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit(save, {
            intent: 'priceTemplates',
            priceTemplates: rows.map(({ id, title, articleId, monthly, tiers }) => ({
              id: id || undefined,
              title,
              articleId,
              monthly,
              tiers,
            })),
          });
        }}
      >
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('templates.title')}
          empty={t('templates.empty')}
          newRow={() => ({
            key: newKey(),
            id: '',
            title: '',
            articleId: '',
            articleTitle: '',
            monthly: false,
            tiers: tiersOf(TIER_PRESETS[0]),
            name: '',
          })}
          addLabel={t('templates.add')}
          saveLabel={t('templates.save')}
          rowTestId="template-row"
          rowClassName="grid gap-3"
          renderRow={(row, i, tools) => (
            <>
              <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
                <TextField
                  label={t('templates.name')}
                  value={row.title}
                  onChange={(title) => set(i, { title })}
                  isDisabled={!canEdit}
                  isRequired
                  maxLength={100}
                  className="min-w-40 flex-1"
                  errorMessage={save.err(`priceTemplates.${i}.title`)}
                />
                <div className="min-w-56 flex-1">
                  <ArticlePicker
                    isDisabled={!canEdit}
                    defaultSelected={row.articleId ? { id: row.articleId, label: row.articleTitle } : null}
                    errorMessage={save.err(`priceTemplates.${i}.articleId`)?.join(' ')}
                    onSelectionChange={(o) =>
                      o?.id !== row.articleId && set(i, { articleId: o?.id ?? '', articleTitle: o?.label ?? '' })
                    }
                  />
                </div>
                <Check
                  label={t('templates.monthly')}
                  checked={row.monthly}
                  disabled={!canEdit}
                  onChange={(monthly) => set(i, { monthly })}
                />
                {tools}
              </div>
              <fieldset className="grid gap-2 sm:grid-cols-3">
                <legend className="mb-1 text-sm font-medium">{t('templates.tiers')}</legend>
                {row.tiers.map((tier, n) => (
                  <div key={n} className="grid grid-cols-2 gap-2">
                    <TextField
                      label={t('templates.tierLabel', { n: n + 1 })}
                      value={tier.label}
                      onChange={(label) => setTier(i, n, { label })}
                      isDisabled={!canEdit}
                      maxLength={50}
                      errorMessage={save.err(`priceTemplates.${i}.tiers.${n}.label`)}
                    />
                    <TextField
                      label={t('templates.tierPrice', { n: n + 1 })}
                      inputMode="decimal"
                      value={moneyInput(tier.price)}
                      onChange={(price) => setTier(i, n, { price: price.replace(',', '.') })}
                      isDisabled={!canEdit}
                      errorMessage={save.err(`priceTemplates.${i}.tiers.${n}.price`)}
                    />
                  </div>
                ))}
              </fieldset>
              {canEdit && (
                <div className="flex flex-wrap gap-2">
                  {TIER_PRESETS.map((preset) => (
                    <Button
                      key={preset[0]}
                      size="sm"
                      variant="ghost"
                      onPress={() => set(i, { tiers: tiersOf(preset) })}
                    >
                      {t('templates.usePreset', { tiers: preset.map((p) => Number(p)).join(' / ') })}
                    </Button>
                  ))}
                </div>
              )}
              <ErrorText messages={save.err(`priceTemplates.${i}`)} />
            </>
          )}
        />
      </form>
    </Section>
  );
}
