import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, Dialog, Select, TextField, useToast } from '~/app/components/ui';
import { moved, newKey, RowTools } from '~/app/components/work-orders/settings/shared';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import {
  FIELD_KINDS,
  SERVICE_REPORT_LIMITS as L,
  type FieldKind,
  type ServiceReportTemplate,
} from '~/core/service-reports/service-report.types';

/** What the settings page's action answers. */
export interface TemplateEditorResult {
  ok?: boolean;
  intent?: string;
  id?: string;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
}

interface FieldRow {
  key: string;
  id: string | null;
  kind: FieldKind;
  label: string;
  required: boolean;
  unit: string;
  min: string;
  max: string;
  /** one option a line */
  options: string;
}
interface PageRow {
  key: string;
  id: string | null;
  title: string;
  fields: FieldRow[];
}

const text = (n: number | null) => (n === null ? '' : String(n).replace('.', ','));
const num = (s: string) => {
  const t = s.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

const pagesOf = (t: ServiceReportTemplate | null): PageRow[] =>
  t
    ? t.pages.map((p) => ({
        key: p.id,
        id: p.id,
        title: p.title,
        fields: p.fields.map((f) => ({
          key: f.id,
          id: f.id,
          kind: f.kind,
          label: f.label,
          required: f.required,
          unit: f.unit ?? '',
          min: text(f.min),
          max: text(f.max),
          options: f.options.join('\n'),
        })),
      }))
    : [{ key: newKey(), id: null, title: '', fields: [] }];

const newField = (): FieldRow => ({
  key: newKey(),
  id: null,
  kind: 'yesno',
  label: '',
  required: false,
  unit: '',
  min: '',
  max: '',
  options: '',
});

/**
 * Creates or edits one service-report template in a dialog (issue 32): title, description, whether
 * it is filled per door automatic and offered on every order, the work types it belongs to, and its
 * pages with their fields in order (kind, label, required; unit and limits for numbers and measured
 * values; options for a choice). Saves the whole template at once; errors show on their field.
 */
export function TemplateEditor({
  template,
  workTypes,
  onClose,
}: {
  template: ServiceReportTemplate | null;
  workTypes: { id: string; name: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation('servicereports');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<TemplateEditorResult>();
  const [title, setTitle] = useState(template?.title ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [perDoor, setPerDoor] = useState(template?.perDoor ?? false);
  const [onDemand, setOnDemand] = useState(template?.onDemand ?? false);
  const [typeIds, setTypeIds] = useState<string[]>(template?.workTypeIds ?? []);
  const [pages, setPages] = useState<PageRow[]>(() => pagesOf(template));
  const [fields, setFields] = useState<Record<string, string[]>>({});

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
      onClose();
    } else {
      setFields(result.fields ?? {});
      toast.show({ kind: 'error', message: tc(result.code ?? 'VALIDATION_FAILED') });
    }
  });

  const busy = fetcher.state !== 'idle';
  const err = (key: string) => fields[key]?.map((k) => tc(k));
  const restructure = (next: PageRow[]) => {
    setPages(next);
    setFields({});
  };
  const setPage = (i: number, patch: Partial<PageRow>) =>
    setPages((rows) => rows.map((r, j) => (i === j ? { ...r, ...patch } : r)));
  const setField = (i: number, k: number, patch: Partial<FieldRow>) =>
    setPages((rows) =>
      rows.map((r, j) => (i === j ? { ...r, fields: r.fields.map((f, m) => (m === k ? { ...f, ...patch } : f)) } : r)),
    );

  function save() {
    const payload = {
      ...(template ? { id: template.id } : {}),
      title,
      description,
      perDoor,
      onDemand,
      active: template?.active ?? true,
      workTypeIds: typeIds,
      pages: pages.map((p) => ({
        id: p.id,
        title: p.title,
        fields: p.fields.map((f) => ({
          id: f.id,
          kind: f.kind,
          label: f.label,
          required: f.kind === 'heading' ? false : f.required,
          unit: f.unit,
          min: num(f.min),
          max: num(f.max),
          options: f.options
            .split('\n')
            .map((o) => o.trim())
            .filter(Boolean),
        })),
      })),
    };
    void fetcher.submit(
      { intent: 'save', payload: JSON.stringify(payload) },
      { method: 'post', action: '/settings/service-reports' },
    );
  }

  const check = (label: string, checked: boolean, onChange: (v: boolean) => void, hint?: string) => (
    <label className="flex min-h-11 items-start gap-2 text-sm sm:min-h-9">
      <input
        type="checkbox"
        className="mt-1 size-4 accent-brand-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        {label}
        {hint ? <span className="block text-xs text-slate-500">{hint}</span> : null}
      </span>
    </label>
  );

  return (
    <Dialog
      title={template ? t('editor.editTitle') : t('editor.newTitle')}
      isOpen
      size="lg"
      onOpenChange={(open) => (open ? null : onClose())}
      isDismissable={!busy}
      footer={({ close }) => (
        <>
          <Button variant="secondary" onPress={close} isDisabled={busy}>
            {t('editor.cancel')}
          </Button>
          <Button variant="primary" isPending={busy} onPress={save}>
            {t('editor.save')}
          </Button>
        </>
      )}
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <TextField
          label={t('editor.title')}
          value={title}
          onChange={setTitle}
          isRequired
          maxLength={L.title}
          errorMessage={err('title')}
          autoFocus
        />
        <TextField
          label={t('editor.description')}
          value={description}
          onChange={setDescription}
          maxLength={L.description}
          errorMessage={err('description')}
        />
        <div className="grid gap-1 sm:grid-cols-2">
          {check(t('editor.perDoor'), perDoor, setPerDoor, t('editor.perDoorHint'))}
          {check(t('editor.onDemand'), onDemand, setOnDemand, t('editor.onDemandHint'))}
        </div>
        <fieldset className="grid gap-1">
          <legend className="text-sm font-medium text-gray-900">{t('editor.workTypes')}</legend>
          <div className="flex flex-wrap gap-x-5">
            {workTypes.map((w) => (
              <label key={w.id} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-9">
                <input
                  type="checkbox"
                  className="size-4 accent-brand-600"
                  checked={typeIds.includes(w.id)}
                  onChange={(e) =>
                    setTypeIds((ids) => (e.target.checked ? [...ids, w.id] : ids.filter((id) => id !== w.id)))
                  }
                />
                {w.name}
              </label>
            ))}
          </div>
          {err('workTypeIds') ? (
            <p role="alert" className="text-sm text-red-700">
              {err('workTypeIds')!.join(' ')}
            </p>
          ) : null}
        </fieldset>

        <ol className="grid gap-4" aria-label={t('editor.pages')}>
          {pages.map((page, i) => (
            <li key={page.key} className="grid gap-3 rounded-lg p-3 ring-1 ring-slate-300" data-testid="report-page">
              <div className="flex flex-wrap items-end gap-2">
                <TextField
                  label={t('editor.pageTitle', { n: i + 1 })}
                  value={page.title}
                  onChange={(v) => setPage(i, { title: v })}
                  isRequired
                  maxLength={L.title}
                  className="min-w-48 flex-1"
                  errorMessage={err(`pages.${i}.title`)}
                />
                <RowTools
                  name={page.title || t('editor.pageTitle', { n: i + 1 })}
                  index={i}
                  count={pages.length}
                  onMove={(from, to) => restructure(moved(pages, from, to))}
                  onRemove={() => restructure(pages.filter((_, j) => j !== i))}
                />
              </div>
              <ol className="grid gap-2">
                {page.fields.map((f, k) => {
                  const at = `pages.${i}.fields.${k}`;
                  return (
                    <li
                      key={f.key}
                      className="flex flex-wrap items-end gap-x-3 gap-y-2 rounded-md bg-slate-50 p-2"
                      data-testid="report-field"
                    >
                      <TextField
                        label={t('editor.fieldLabel', { n: k + 1 })}
                        value={f.label}
                        onChange={(v) => setField(i, k, { label: v })}
                        isRequired
                        maxLength={L.label}
                        className="min-w-48 flex-1"
                        errorMessage={err(`${at}.label`)}
                      />
                      <Select
                        label={t('editor.kind')}
                        items={FIELD_KINDS.map((kind) => ({ id: kind, label: t(`kind.${kind}`) }))}
                        selectedKey={f.kind}
                        onSelectionChange={(key) => key && setField(i, k, { kind: key as FieldKind })}
                        className="w-44"
                      />
                      {f.kind === 'number' || f.kind === 'measure' ? (
                        <TextField
                          label={t('editor.unit')}
                          value={f.unit}
                          onChange={(v) => setField(i, k, { unit: v })}
                          maxLength={L.unit}
                          className="w-24"
                          errorMessage={err(`${at}.unit`)}
                        />
                      ) : null}
                      {f.kind === 'measure' ? (
                        <>
                          <TextField
                            label={t('editor.min')}
                            value={f.min}
                            onChange={(v) => setField(i, k, { min: v })}
                            inputMode="decimal"
                            className="w-24"
                            errorMessage={err(`${at}.min`)}
                          />
                          <TextField
                            label={t('editor.max')}
                            value={f.max}
                            onChange={(v) => setField(i, k, { max: v })}
                            inputMode="decimal"
                            className="w-24"
                            errorMessage={err(`${at}.max`)}
                          />
                        </>
                      ) : null}
                      {f.kind !== 'heading' ? (
                        <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-9">
                          <input
                            type="checkbox"
                            className="size-4 accent-brand-600"
                            checked={f.required}
                            onChange={(e) => setField(i, k, { required: e.target.checked })}
                          />
                          {t('editor.required')}
                        </label>
                      ) : null}
                      <RowTools
                        name={f.label || t('editor.fieldLabel', { n: k + 1 })}
                        index={k}
                        count={page.fields.length}
                        onMove={(from, to) =>
                          restructure(pages.map((p, j) => (j === i ? { ...p, fields: moved(p.fields, from, to) } : p)))
                        }
                        onRemove={() =>
                          restructure(
                            pages.map((p, j) => (j === i ? { ...p, fields: p.fields.filter((_, m) => m !== k) } : p)),
                          )
                        }
                      />
                      {f.kind === 'choice' ? (
                        <label className="grid basis-full gap-1 text-sm font-medium text-gray-900">
                          {t('editor.options')}
                          <textarea
                            className="min-h-20 rounded-md border border-gray-300 px-3 py-2 text-base font-normal sm:text-sm"
                            value={f.options}
                            onChange={(e) => setField(i, k, { options: e.target.value })}
                            aria-invalid={err(`${at}.options`) ? true : undefined}
                          />
                        </label>
                      ) : null}
                      {(['options', 'required', 'id'] as const).map((key) =>
                        err(`${at}.${key}`) && !(key === 'options' && f.kind !== 'choice') ? (
                          <p key={key} role="alert" className="basis-full text-sm text-red-700">
                            {err(`${at}.${key}`)!.join(' ')}
                          </p>
                        ) : null,
                      )}
                    </li>
                  );
                })}
              </ol>
              {err(`pages.${i}.fields`) ? (
                <p role="alert" className="text-sm text-red-700">
                  {err(`pages.${i}.fields`)!.join(' ')}
                </p>
              ) : null}
              <div>
                <Button
                  variant="secondary"
                  size="sm"
                  isDisabled={page.fields.length >= L.fieldsPerPage}
                  onPress={() => setPage(i, { fields: [...page.fields, newField()] })}
                >
                  {t('editor.addField')}
                </Button>
              </div>
            </li>
          ))}
        </ol>
        {err('pages') ? (
          <p role="alert" className="text-sm text-red-700">
            {err('pages')!.join(' ')}
          </p>
        ) : null}
        <div>
          <Button
            variant="secondary"
            size="sm"
            isDisabled={pages.length >= L.pages}
            onPress={() => restructure([...pages, { key: newKey(), id: null, title: '', fields: [newField()] }])}
          >
            {t('editor.addPage')}
          </Button>
        </div>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
