import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useFetcher } from 'react-router';
import { Button, DatePicker, dateValueOf, Select, TextField } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { SignaturePad, type SignatureValue } from '~/app/components/signature/signature-pad';
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
      return <DatePicker {...common} defaultValue={dateValueOf(value)} />;
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
/**
 * Export documentation: the object page and each filled form as Word or PDF, with a signature
 * drawn on the signature pad or typed; a plain form post, so the browser downloads the file.
 */
function SecurityExport({ boId, forms }: { boId: string; forms: Record<string, SecurityFormData> }) {
  const { t } = useTranslation('objects');
  const filled = SECURITY_FORM_TYPES.filter((x) => Object.keys(forms[x]?.data ?? {}).length);
  const [signature, setSignature] = useState<SignatureValue>({ name: '', image: null });
  return (
    <details className="rounded-lg border border-slate-200 p-3 print:hidden">
      <summary className="cursor-pointer text-sm font-medium">{t('sec.export.title')}</summary>
      <Form
        method="post"
        action={`/inventory/objects/${boId}/security-export`}
        reloadDocument
        className="mt-3 grid gap-3 sm:grid-cols-2"
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">{t('sec.export.type')}</span>
          <select name="type" defaultValue="pdf" className="rounded-md border border-gray-300 bg-white px-3 py-2">
            <option value="pdf">PDF</option>
            <option value="docx">{t('sec.export.word')}</option>
          </select>
        </label>
        <div className="sm:col-span-2">
          {/* drawn on the shared pad (issue 32); the export takes the drawing, or the typed name alone */}
          <SignaturePad
            label={t('sec.export.draw')}
            nameLabel={t('sec.export.signature')}
            isNameRequired={false}
            value={signature}
            onChange={setSignature}
          />
          <input type="hidden" name="signature" value={signature.image ?? signature.name} />
        </div>
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-700">{t('sec.export.pages')}</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {(['object', ...filled] as const).map((page) => (
              <label key={page} className="flex min-h-10 items-center gap-2 text-sm">
                <input type="checkbox" name="include" value={page} defaultChecked className="size-4" />
                {page === 'object' ? t('sec.export.objectPage') : t(`sec.type.${page}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary">
            {t('sec.export.download')}
          </Button>
        </div>
      </Form>
    </details>
  );
}

export function SecurityForms({
  boId,
  forms,
  canEdit,
}: {
  boId: string;
  forms: Record<string, SecurityFormData>;
  canEdit: boolean;
}) {
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
      <SecurityExport boId={boId} forms={forms} />
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
