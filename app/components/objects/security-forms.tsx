import { parseDate } from '@internationalized/date';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, DatePicker, Select, TextField } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import {
  SECURITY_FORM_TYPES,
  SECURITY_FORMS,
  type FormField,
  type SecurityFormType,
} from '~/core/business-objects/security-forms';
import { DateTime, TextArea, useFieldErrors, useResultToast, type ActionResult } from './shared';

export interface SecurityFormData {
  data: Record<string, unknown>;
  updatedAt: string | null;
  updatedBy: string | null;
}

function safeDate(v: unknown) {
  try {
    return typeof v === 'string' && v ? parseDate(v) : null;
  } catch {
    return null;
  }
}

function Field({
  type,
  field,
  value,
  isDisabled,
  errorMessage,
}: {
  type: SecurityFormType;
  field: FormField;
  value: unknown;
  isDisabled: boolean;
  errorMessage?: string[];
}) {
  const { t } = useTranslation('objects');
  const label = t(`sec.${type}.${field.key}`);
  const common = { name: field.key, label, isDisabled, errorMessage };
  switch (field.kind) {
    case 'text':
      return <TextField {...common} defaultValue={value == null ? '' : String(value)} />;
    case 'number':
      return <TextField {...common} inputMode="numeric" defaultValue={value == null ? '' : String(value)} />;
    case 'textarea':
      return <TextArea {...common} defaultValue={value == null ? '' : String(value)} className="sm:col-span-2" />;
    case 'date':
      return <DatePicker {...common} defaultValue={safeDate(value)} />;
    case 'select':
      return (
        <Select
          {...common}
          defaultSelectedKey={value == null ? '' : String(value)}
          items={[
            { id: '', label: t('sec.notSet') },
            ...(field.options ?? []).map((o) => ({ id: o, label: t(`sec.option.${o}`) })),
          ]}
        />
      );
    case 'boolean':
      return (
        <label className="flex min-h-11 items-center gap-2 self-end text-sm">
          <input type="hidden" name={field.key} value="false" />
          <input
            type="checkbox"
            name={field.key}
            value="true"
            defaultChecked={value === true}
            disabled={isDisabled}
            className="size-5 accent-blue-700"
          />
          {label}
        </label>
      );
  }
}

/**
 * The object's security-system documentation: one form per system (burglary, passage, camera,
 * fire alarm, assault), chosen with the buttons above it; fields come from core's list.
 */
export function SecurityForms({ forms, canEdit }: { forms: Record<string, SecurityFormData>; canEdit: boolean }) {
  const { t } = useTranslation('objects');
  const [type, setType] = useState<SecurityFormType>(
    () => SECURITY_FORM_TYPES.find((x) => Object.keys(forms[x]?.data ?? {}).length) ?? 'burglary',
  );
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.state === 'idle' ? fetcher.data : undefined);
  const err = useFieldErrors(fetcher.data?.intent === `sec-${type}` ? fetcher.data : undefined, 'data');
  const form = forms[type] ?? { data: {}, updatedAt: null, updatedBy: null };
  return (
    <div className="grid gap-4">
      <div role="group" aria-label={t('sec.systems')} className="flex flex-wrap gap-2 print:hidden">
        {SECURITY_FORM_TYPES.map((x) => (
          <Button
            key={x}
            size="sm"
            variant={x === type ? 'primary' : 'secondary'}
            aria-pressed={x === type}
            onPress={() => setType(x)}
          >
            {t(`sec.type.${x}`)}
            {Object.keys(forms[x]?.data ?? {}).length ? ' ✓' : ''}
          </Button>
        ))}
      </div>
      <fetcher.Form method="post" key={`${type}-${form.updatedAt}`} className="grid gap-6" noValidate>
        <input type="hidden" name="intent" value={`sec-${type}`} />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-base font-semibold">{t(`sec.type.${type}`)}</h3>
          {form.updatedAt ? (
            <p className="text-sm text-slate-600">
              {t('sec.updated')} <DateTime iso={form.updatedAt} /> {form.updatedBy ? `· ${form.updatedBy}` : ''}
            </p>
          ) : null}
        </div>
        {SECURITY_FORMS[type].map((section) => (
          <fieldset key={section.key} className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-semibold tracking-wide text-slate-700 uppercase">
              {t(`sec.section.${section.key}`)}
            </legend>
            {section.fields.map((f) => (
              <Field
                key={f.key}
                type={type}
                field={f}
                value={form.data[f.key]}
                isDisabled={!canEdit}
                errorMessage={err(f.key)}
              />
            ))}
          </fieldset>
        ))}
        <div className={cx('flex flex-wrap gap-2 print:hidden')}>
          {canEdit ? (
            <Button type="submit" variant="primary" isPending={fetcher.state !== 'idle'}>
              {t('sec.save')}
            </Button>
          ) : null}
          <Button variant="secondary" onPress={() => window.print()}>
            {t('print')}
          </Button>
        </div>
      </fetcher.Form>
    </div>
  );
}
