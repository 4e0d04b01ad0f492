import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '~/app/lib/can';
import { Button } from '~/app/components/ui';
import { filesBase, uploadFile } from '~/app/components/files/files-api';
import { SignaturePad, type SignatureValue } from '~/app/components/signature/signature-pad';
import {
  isFlagged,
  SERVICE_REPORT_LIMITS as L,
  type FieldValue,
  type ReportField,
} from '~/core/service-reports/service-report.types';

/** What the form holds for a field: text as typed ("3,5"), photo ids, or a signature. */
export type DraftValue = string | string[] | SignatureValue;

/** The saved value as the form shows it. */
export function draftOf(field: ReportField, v: FieldValue | undefined): DraftValue {
  if (field.kind === 'photo') return Array.isArray(v) ? v : [];
  if (field.kind === 'signature')
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { name: '', image: null };
  if (v === undefined) return '';
  if (typeof v === 'number') return String(v).replace('.', ',');
  return String(v);
}

/** The form's value as the API takes it (a signature without a name is no signature). */
export function sentOf(field: ReportField, d: DraftValue): unknown {
  if (field.kind === 'signature') return (d as SignatureValue).name.trim() ? d : null;
  return d;
}

/** The draft's value for the out-of-range check: numbers parsed as the server parses them. */
export function flaggedDraft(field: ReportField, d: DraftValue): boolean {
  if (field.kind === 'measure' && typeof d === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(d))
    return isFlagged(field, Number(d.trim().replace(',', '.')));
  if (field.kind === 'yesno' && typeof d === 'string') return isFlagged(field, d);
  return false;
}

const INPUT =
  'w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 text-base text-gray-900 shadow-xs min-h-12 focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600 disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-500';

/**
 * One field of a report page, sized for a thumb at 390 px: yes/no/not-applicable as three large
 * choices, numbers with the decimal keypad, photos from the camera, a signature on the pad. A
 * measure out of its limits and a "no" are marked with a hint to raise a deviation.
 */
export function ReportFieldInput({
  field,
  value,
  onChange,
  errors,
  disabled,
  workOrderId,
  onRaise,
}: {
  field: ReportField;
  value: DraftValue;
  onChange: (v: DraftValue) => void;
  errors?: string[];
  disabled: boolean;
  workOrderId: string;
  /** Raises a deviation from this field (the page saved first); absent where that is not possible. */
  onRaise?: () => void;
}) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const described = [errors ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');
  const flagged = flaggedDraft(field, value);
  const required = field.required ? (
    <span className="ms-1 text-xs text-slate-500">
      <span aria-hidden="true" className="text-red-700">
        *
      </span>
      <span className="sr-only">{t('fill.required')}</span>
    </span>
  ) : null;
  const label = (
    <label htmlFor={id} className="text-sm font-medium break-words text-gray-900">
      {field.label}
      {required}
    </label>
  );
  const hint =
    field.kind === 'measure'
      ? t('fill.limits', {
          limits: [field.min !== null ? `≥ ${field.min}` : null, field.max !== null ? `≤ ${field.max}` : null]
            .filter(Boolean)
            .join(' '),
          unit: field.unit ?? '',
        })
      : null;

  let input: React.ReactNode;
  switch (field.kind) {
    case 'heading':
      return (
        <h5 className="mt-2 border-b border-slate-200 pb-1 text-sm font-semibold text-slate-800">{field.label}</h5>
      );
    case 'longtext':
      input = (
        <textarea
          id={id}
          className={`${INPUT} min-h-28 py-2`}
          value={value as string}
          disabled={disabled}
          maxLength={L.longtext}
          aria-invalid={errors ? true : undefined}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'text':
    case 'number':
    case 'measure':
    case 'date':
      input = (
        <div className="flex items-center gap-2">
          <input
            id={id}
            type={field.kind === 'date' ? 'date' : 'text'}
            inputMode={field.kind === 'number' || field.kind === 'measure' ? 'decimal' : undefined}
            className={`${INPUT} ${field.kind === 'text' ? '' : 'max-w-48'}`}
            value={value as string}
            disabled={disabled}
            maxLength={field.kind === 'text' ? L.text : 30}
            aria-invalid={errors || flagged ? true : undefined}
            aria-describedby={described}
            onChange={(e) => onChange(e.target.value)}
          />
          {field.unit ? <span className="text-sm text-slate-700">{field.unit}</span> : null}
        </div>
      );
      break;
    case 'choice':
      input = (
        <select
          id={id}
          className={INPUT}
          value={value as string}
          disabled={disabled}
          aria-invalid={errors ? true : undefined}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{t('fill.choose')}</option>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'yesno':
      return (
        <fieldset className="grid gap-1" aria-describedby={described} data-testid="yesno">
          <legend className="text-sm font-medium break-words text-gray-900">
            {field.label}
            {required}
          </legend>
          <div className="grid grid-cols-3 gap-2">
            {(['yes', 'no', 'na'] as const).map((answer) => (
              <label
                key={answer}
                className={`flex min-h-12 cursor-pointer items-center justify-center rounded-md border text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-600 ${
                  value === answer
                    ? answer === 'no'
                      ? 'border-red-700 bg-red-50 text-red-800'
                      : 'border-brand-700 bg-brand-50 text-brand-800'
                    : 'border-gray-300 bg-white text-gray-800'
                } ${disabled ? 'cursor-not-allowed opacity-60' : ''}`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name={id}
                  value={answer}
                  checked={value === answer}
                  disabled={disabled}
                  onChange={() => onChange(answer)}
                  onClick={() => {
                    // a second tap on the chosen answer clears it
                    if (value === answer) onChange('');
                  }}
                />
                {t(`answer.${answer}`)}
              </label>
            ))}
          </div>
          <Flag id={`${id}-hint`} flagged={flagged} kind="no" />
          <RaiseDeviation flagged={flagged} onRaise={onRaise} label={field.label} />
          {errors ? (
            <span id={`${id}-error`} className="text-sm text-red-700">
              {errors.join(' ')}
            </span>
          ) : null}
        </fieldset>
      );
    case 'photo': {
      const ids = value as string[];
      input = (
        <div className="grid gap-2">
          {ids.length ? (
            <ul className="flex flex-wrap gap-2" aria-label={field.label}>
              {ids.map((fileId, n) => (
                <li key={fileId} className="relative">
                  <img
                    src={`/api/file/${fileId}/thumbnail`}
                    alt={t('fill.photoN', { n: n + 1 })}
                    className="size-20 rounded-md object-cover ring-1 ring-slate-300"
                  />
                  {disabled ? null : (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('fill.removePhoto', { n: n + 1 })}
                      onPress={() => onChange(ids.filter((x) => x !== fileId))}
                    >
                      ✕
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          ) : null}
          {disabled || ids.length >= L.photos ? null : (
            <label className="flex min-h-12 w-fit cursor-pointer items-center rounded-md border border-gray-300 bg-white px-4 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-600">
              {uploading ? t('fill.uploading') : t('fill.addPhoto')}
              <input
                id={id}
                type="file"
                accept="image/*"
                capture="environment"
                className="sr-only"
                disabled={uploading}
                aria-describedby={described}
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (!file) return;
                  setUploading(true);
                  setUploadError(null);
                  try {
                    const [saved] = await uploadFile(filesBase('wo', workOrderId), file, null, () => undefined);
                    if (saved) onChange([...ids, saved.id]);
                  } catch (err) {
                    setUploadError(tc((err as { code?: string }).code ?? 'FAILED_TO_UPLOAD_FILE'));
                  } finally {
                    setUploading(false);
                  }
                }}
              />
            </label>
          )}
          {uploadError ? (
            <p role="alert" className="text-sm text-red-700">
              {uploadError}
            </p>
          ) : null}
        </div>
      );
      break;
    }
    case 'signature':
      return (
        <div className="grid gap-1">
          <SignaturePad
            label={field.label}
            value={value as SignatureValue}
            onChange={onChange}
            isDisabled={disabled}
            nameError={errors}
          />
        </div>
      );
  }
  return (
    <div className="flex min-w-0 flex-col gap-1" data-testid="report-field-input">
      {field.kind === 'photo' ? (
        <span className="text-sm font-medium text-gray-900">
          {field.label}
          {required}
        </span>
      ) : (
        label
      )}
      {input}
      {hint ? <span className="text-xs text-slate-600">{hint}</span> : null}
      <Flag id={`${id}-hint`} flagged={flagged} kind="range" />
      <RaiseDeviation flagged={flagged} onRaise={onRaise} label={field.label} />
      {errors ? (
        <span id={`${id}-error`} className="text-sm text-red-700">
          {errors.join(' ')}
        </span>
      ) : null}
    </div>
  );
}

/**
 * A failed value's one tap to a deviation (issue 34), for whoever may raise deviations: the page is
 * saved and the deviation starts from the report's field (the report, its order, object and
 * customer come along; the field's label is its title).
 */
function RaiseDeviation({ flagged, onRaise, label }: { flagged: boolean; onRaise?: () => void; label: string }) {
  const { t } = useTranslation('deviations'); // loads the namespace the server rendered with
  const can = useCan();
  if (!flagged || !onRaise || !can('deviations:create', 'deviations')) return null;
  return (
    <button
      type="button"
      onClick={onRaise}
      aria-label={t('deviations:raiseFor', { label })}
      className="inline-flex min-h-11 w-fit items-center text-sm font-medium text-brand-700 underline"
    >
      {t('deviations:raise')}
    </button>
  );
}

/** The mark of a value worth a deviation. */
function Flag({ id, flagged, kind }: { id: string; flagged: boolean; kind: 'range' | 'no' }) {
  const { t } = useTranslation('servicereports');
  return (
    <span
      id={id}
      className={flagged ? 'text-sm font-medium text-red-700' : 'sr-only'}
      data-testid={flagged ? 'flagged' : undefined}
    >
      {flagged ? (kind === 'range' ? t('fill.outOfRange') : t('fill.answeredNo')) : ''}
    </span>
  );
}
