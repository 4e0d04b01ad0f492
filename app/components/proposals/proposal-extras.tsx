import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, DatePicker, TextField, dateValueOf } from '~/app/components/ui';
import { INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field-classes';
import { formatNumber } from '~/core/i18n/number-format';
import type { CustomField, PriceTemplate, StandardText } from '~/core/proposals/proposal-configuration.service';
import type { ProposalRow } from '~/core/proposals/proposal.service';
import { emptyRow } from './rows-editor';

/** The labels of required custom fields left empty (price templates and accepting wait for them). */
export function missingRequired(fields: CustomField[], data: Record<string, unknown>): string[] {
  return fields.filter((f) => f.required && !String(data[f.id] ?? '').trim()).map((f) => f.label);
}

/** Inserts one of the tenant's standard texts at the end of a text (spec section 2: "description with standard texts"). */
export function StandardTextInsert(props: {
  texts: StandardText[];
  disabled: boolean;
  onInsert: (body: string) => void;
}) {
  const { t } = useTranslation('proposals');
  const id = useId();
  if (props.texts.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {t('standardText.insert')}
      </label>
      <select
        id={id}
        value=""
        disabled={props.disabled}
        onChange={(e) => {
          const text = props.texts.find((x) => x.id === e.target.value);
          if (text) props.onInsert(text.body);
        }}
        className={`${INPUT_BOX_CLASS} ${INPUT_FOCUS_CLASS} min-h-10 px-2`}
      >
        <option value="">{t('standardText.choose')}</option>
        {props.texts.map((x) => (
          <option key={x.id} value={x.id}>
            {x.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The tenant's custom fields, their values in the proposal's customData; required ones marked. */
export function CustomFieldInputs(props: {
  fields: CustomField[];
  data: Record<string, unknown>;
  disabled: boolean;
  errors: Record<string, string[]>;
  onChange: (data: Record<string, unknown>) => void;
}) {
  const { t: tc } = useTranslation('common');
  if (props.fields.length === 0) return null;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {props.fields.map((f) =>
        // A date field is the kit's date field, as everywhere (issue 29 item 4); it keeps the ISO date.
        f.type === 'date' ? (
          <DatePicker
            key={f.id}
            label={f.label}
            isRequired={f.required}
            value={dateValueOf(String(props.data[f.id] ?? ''))}
            isDisabled={props.disabled}
            errorMessage={props.errors[`customData.${f.id}`]?.map((c) => tc(c))}
            onChange={(v) => props.onChange({ ...props.data, [f.id]: v?.toString() ?? '' })}
          />
        ) : (
          <TextField
            key={f.id}
            label={f.label}
            isRequired={f.required}
            inputMode={f.type === 'number' ? 'decimal' : undefined}
            value={String(props.data[f.id] ?? '')}
            isDisabled={props.disabled}
            maxLength={500}
            errorMessage={props.errors[`customData.${f.id}`]?.map((c) => tc(c))}
            onChange={(v) => props.onChange({ ...props.data, [f.id]: v })}
          />
        ),
      )}
    </div>
  );
}

/**
 * The price templates (spec section 2: disabled while required custom fields are empty): each
 * tier a button that adds the template's article as a row at the tier's price (or monthly price).
 */
export function PriceTemplateButtons(props: {
  templates: PriceTemplate[];
  monthlyEnabled: boolean;
  missing: string[];
  disabled: boolean;
  onAdd: (row: ProposalRow) => void;
}) {
  const { t } = useTranslation('proposals');
  const templates = props.templates.filter((x) => !x.monthly || props.monthlyEnabled);
  if (templates.length === 0) return null;
  const blocked = props.disabled || props.missing.length > 0;
  return (
    <div className="mt-4 grid gap-2 rounded-lg bg-slate-50 p-3" data-testid="price-templates">
      <p className="text-sm font-medium">{t('priceTemplates.title')}</p>
      {props.missing.length > 0 && !props.disabled && (
        <p className="text-sm text-gray-700">{t('priceTemplates.blocked', { fields: props.missing.join(', ') })}</p>
      )}
      {templates.map((tpl) => (
        <div key={tpl.id} className="flex flex-wrap items-center gap-2">
          <span className="min-w-32 text-sm">{tpl.title}</span>
          {tpl.tiers.map((tier) => (
            <Button
              key={tier.label}
              size="sm"
              isDisabled={blocked}
              onPress={() => {
                const row = emptyRow('article');
                props.onAdd({
                  ...row,
                  articleId: tpl.articleId,
                  articleTitle: tpl.articleTitle,
                  ...(tpl.monthly
                    ? { articlePrice: '0.00', articleMonthlyPrice: tier.price }
                    : { articlePrice: tier.price }),
                });
              }}
            >
              {tier.label} · {formatNumber(Number(tier.price))}
              {tpl.monthly ? ` ${t('priceTemplates.perMonth')}` : ''}
            </Button>
          ))}
        </div>
      ))}
    </div>
  );
}
