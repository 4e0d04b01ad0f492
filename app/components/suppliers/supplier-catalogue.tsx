import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileCallError, fileCall, postFile } from '~/app/components/files/files-api';
import {
  Button,
  ConfirmDialog,
  DateTime,
  formatNumber,
  SearchInput,
  SEARCH_DEBOUNCE_MS,
  useToast,
} from '~/app/components/ui';
import type {
  CatalogueArticle,
  CatalogueImport,
  CatalogueState,
  CatalogueUpload,
} from '~/core/supplier-catalogues/catalogue.service';
import type { CatalogueKind, ColumnMapping } from '~/core/supplier-catalogues/catalogue.schema';

/** How often the page asks how a file's loading goes. */
const POLL_MS = 1_000;
const PAGE_SIZE = 20;

const going = (i: CatalogueImport | null) => i?.status === 'queued' || i?.status === 'running';
const base = (supplierId: string) => `/api/supplierinventory/upload/${supplierId}`;

export interface SupplierCatalogueProps {
  supplierId: string;
  initial: CatalogueState;
  canUpload: boolean;
  canSearch: boolean;
}

/**
 * The supplier's price list (issue 33 item 6; decision 056): its article count and last load, the
 * discount groups, uploading a price or discount file (the first rows shown, the columns matched
 * and kept for the supplier's next file), the load's progress and the rows it left out, and a
 * search of the list. Talks to the API with the session cookie, as the file browser does.
 */
export function SupplierCatalogue({ supplierId, initial, canUpload, canSearch }: SupplierCatalogueProps) {
  const { t } = useTranslation('suppliercatalogues');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const [state, setState] = useState(initial);
  const [upload, setUpload] = useState<CatalogueUpload | null>(null);
  const [uploading, setUploading] = useState<{ name: string; fraction: number } | null>(null);
  const [searchKey, setSearchKey] = useState(0);
  const inputs = { prices: useRef<HTMLInputElement>(null), discounts: useRef<HTMLInputElement>(null) };
  const headingId = useId();

  const running = going(state.latest.prices) || going(state.latest.discounts);
  // while a file loads, the page asks for its progress every second
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      fileCall<CatalogueState>('GET', `/api/supplierinventory/${supplierId}`)
        .then((next) => {
          setState(next);
          if (!going(next.latest.prices) && !going(next.latest.discounts)) setSearchKey((k) => k + 1);
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, supplierId]);

  async function send(kind: CatalogueKind, file: File) {
    setUploading({ name: file.name, fraction: 0 });
    try {
      const url = kind === 'prices' ? base(supplierId) : `${base(supplierId)}/discount`;
      setUpload(await postFile<CatalogueUpload>(url, file, (fraction) => setUploading({ name: file.name, fraction })));
    } catch (e) {
      toast.show({ kind: 'error', message: tc(e instanceof FileCallError ? e.code : 'FAILED_TO_UPLOAD_FILE') });
    } finally {
      setUploading(null);
    }
  }

  const fileInput = (kind: CatalogueKind) => (
    <input
      ref={inputs[kind]}
      type="file"
      accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      // the button opens it
      hidden
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) void send(kind, file);
      }}
    />
  );

  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="supplier-catalogue">
      <div>
        <h2 id={headingId} className="text-lg font-semibold">
          {t('title')}
        </h2>
        <p className="text-sm text-slate-600">{t('intro')}</p>
      </div>

      {state.articleCount > 0 ? (
        <p className="text-sm text-slate-800" data-testid="catalogue-count">
          {t('articles', { n: formatNumber(state.articleCount, { decimals: 0 }) })}
          {state.importedAt ? (
            <>
              {' · '}
              {t('importedAt')} <DateTime iso={state.importedAt} />
            </>
          ) : null}
        </p>
      ) : (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">{t('empty')}</p>
      )}
      <p className="text-sm text-slate-700">
        {state.discountCount > 0
          ? t('discounts.count', { n: formatNumber(state.discountCount, { decimals: 0 }) })
          : t('discounts.empty')}{' '}
        <span className="text-slate-600">{t('discounts.rule')}</span>
      </p>

      {canUpload ? (
        <div className="flex flex-wrap gap-2">
          {fileInput('prices')}
          {fileInput('discounts')}
          <Button
            variant="primary"
            isDisabled={Boolean(uploading || upload || running)}
            onPress={() => inputs.prices.current?.click()}
          >
            {t('upload.prices')}
          </Button>
          <Button
            isDisabled={Boolean(uploading || upload || running)}
            onPress={() => inputs.discounts.current?.click()}
          >
            {t('upload.discounts')}
          </Button>
        </div>
      ) : null}

      {uploading ? (
        <Progress
          label={t('upload.progress', { name: uploading.name })}
          value={Math.round(uploading.fraction * 100)}
          max={100}
          text={`${Math.round(uploading.fraction * 100)} %`}
        />
      ) : null}

      {upload ? (
        <MappingForm
          supplierId={supplierId}
          upload={upload}
          onDone={(started) => {
            setUpload(null);
            if (started) setState((s) => ({ ...s, latest: { ...s.latest, [started.kind]: started } }));
          }}
        />
      ) : null}

      <ImportReport item={state.latest.prices} />
      <ImportReport item={state.latest.discounts} />

      {canSearch && state.articleCount > 0 ? <CatalogueSearch key={searchKey} supplierId={supplierId} /> : null}
    </section>
  );
}

function Progress({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  const percent = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-800">{label}</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
        aria-valuetext={text}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-blue-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

/** A file's load: the progress bar while it goes, then what it loaded and the first rows it left out. */
function ImportReport({ item }: { item: CatalogueImport | null }) {
  const { t } = useTranslation('suppliercatalogues');
  const { t: tc } = useTranslation();
  if (!item) return null;
  const count = (n: number) => formatNumber(n, { decimals: 0 });
  if (going(item))
    return (
      <Progress
        label={t('progress.label', { name: item.fileName })}
        value={item.bytesDone}
        max={item.fileSize}
        text={t('progress.rows', { n: count(item.rowsDone) })}
      />
    );
  return (
    <div
      role="status"
      className="space-y-1 rounded-md border border-slate-200 p-3 text-sm"
      data-testid={`import-${item.kind}`}
    >
      <p className={item.status === 'failed' ? 'text-red-800' : 'text-slate-800'}>
        {item.status === 'failed'
          ? item.error === 'stalled'
            ? t('status.stalled', { name: item.fileName })
            : t('status.failed', { name: item.fileName, error: tc(item.error ?? 'SERVER_ERROR') })
          : t('status.done', { name: item.fileName, n: count(item.rowsDone) })}
      </p>
      {item.rowsFailed > 0 ? (
        <>
          <p className="text-amber-900">{t('status.skipped', { n: count(item.rowsFailed) })}</p>
          <ul className="list-disc ps-5 text-slate-700">
            {item.errors.map((e) => (
              <li key={`${e.row}-${e.reason}`}>
                {e.value
                  ? t('status.rowErrorValue', { row: e.row, reason: t(`rowErrors.${e.reason}`), value: e.value })
                  : t('status.rowError', { row: e.row, reason: t(`rowErrors.${e.reason}`) })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

const letter = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : `${letter(Math.floor(i / 26) - 1)}${letter(i % 26)}`;

/** The uploaded file's first rows and a column for each field; confirming starts the load. */
function MappingForm({
  supplierId,
  upload,
  onDone,
}: {
  supplierId: string;
  upload: CatalogueUpload;
  onDone: (started: CatalogueImport | null) => void;
}) {
  const { t } = useTranslation('suppliercatalogues');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const [mapping, setMapping] = useState<ColumnMapping>(upload.mapping);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const titleId = useId();
  const headings = mapping.header ? (upload.rows[0] ?? []) : [];
  const shown = (mapping.header ? upload.rows.slice(1) : upload.rows).slice(0, 10);
  const columns = Array.from({ length: upload.columnCount }, (_, i) => i);
  const columnLabel = (i: number) =>
    headings[i]
      ? t('mapping.columnNamed', { n: letter(i), heading: headings[i] })
      : t('mapping.column', { n: letter(i) });

  async function confirm() {
    setBusy(true);
    setErrors({});
    try {
      const url = `${base(supplierId)}${upload.kind === 'discounts' ? '/discount' : ''}/confirm`;
      const { import: started } = await fileCall<{ import: CatalogueImport }>('POST', url, {
        uploadId: upload.uploadId,
        ...mapping,
      });
      onDone(started);
    } catch (e) {
      if (e instanceof FileCallError) setErrors(e.fields);
      toast.show({ kind: 'error', message: tc(e instanceof FileCallError ? e.code : 'SERVER_ERROR') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-lg border border-blue-200 bg-blue-50/40 p-3 sm:p-4">
      <h3 id={titleId} className="font-semibold">
        {t(`mapping.title.${upload.kind}`)}
      </h3>
      <p className="text-sm text-slate-700">{t('mapping.intro', { name: upload.fileName })}</p>
      {upload.mappingKept ? <p className="text-sm text-slate-700">{t('mapping.kept')}</p> : null}
      <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-9">
        <input
          type="checkbox"
          className="size-5"
          checked={mapping.header}
          onChange={(e) => setMapping((m) => ({ ...m, header: e.target.checked }))}
        />
        {t('mapping.header')}
      </label>
      <div className="grid gap-3 sm:grid-cols-2">
        {upload.fields.map((field) => {
          const required = upload.required.includes(field);
          const id = `${titleId}-${field}`;
          const fieldErrors = errors[`columns.${field}`];
          return (
            <div key={field} className="flex flex-col gap-1">
              <label htmlFor={id} className="text-sm font-medium text-slate-800">
                {t(`field.${field}`)}
                {required ? <span className="ms-1 text-slate-600">({t('mapping.required')})</span> : null}
              </label>
              <select
                id={id}
                value={mapping.columns[field] ?? ''}
                aria-invalid={fieldErrors ? true : undefined}
                aria-describedby={fieldErrors ? `${id}-error` : undefined}
                onChange={(e) =>
                  setMapping((m) => ({
                    ...m,
                    columns: { ...m.columns, [field]: e.target.value === '' ? undefined : Number(e.target.value) },
                  }))
                }
                className="min-h-11 rounded-md border border-gray-300 bg-white px-2 text-base sm:min-h-9 sm:text-sm"
              >
                <option value="">{t('mapping.none')}</option>
                {columns.map((i) => (
                  <option key={i} value={i}>
                    {columnLabel(i)}
                  </option>
                ))}
              </select>
              {fieldErrors ? (
                <p id={`${id}-error`} className="text-sm text-red-700">
                  {fieldErrors.map((k) => tc(k)).join(' ')}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t('mapping.preview')}>
        <table className="min-w-full text-sm">
          <caption className="sr-only">{t('mapping.preview')}</caption>
          <thead>
            <tr>
              {columns.map((i) => (
                <th
                  key={i}
                  scope="col"
                  className="border-b border-slate-300 px-2 py-1 text-start font-medium whitespace-nowrap"
                >
                  {columnLabel(i)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => (
              <tr key={r} className="odd:bg-white">
                {columns.map((i) => (
                  <td key={i} className="border-b border-slate-100 px-2 py-1 whitespace-nowrap">
                    {row[i] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-2">
        {/* not isPending: its announcement would name this button after the form is gone (axe) */}
        <Button variant="primary" isDisabled={busy} onPress={() => void confirm()}>
          {t('mapping.confirm')}
        </Button>
        <Button isDisabled={busy} onPress={() => setCancelling(true)}>
          {t('mapping.cancel')}
        </Button>
      </div>
      <ConfirmDialog
        isOpen={cancelling}
        onOpenChange={setCancelling}
        title={t('mapping.cancelTitle')}
        message={t('mapping.cancelMessage', { name: upload.fileName })}
        confirmLabel={t('mapping.cancelConfirm')}
        cancelLabel={t('mapping.keep')}
        variant="danger"
        onConfirm={() => {
          setCancelling(false);
          onDone(null);
        }}
      />
    </section>
  );
}

/** The price list searched as you type (350 ms), 20 a page by article number. */
function CatalogueSearch({ supplierId }: { supplierId: string }) {
  const { t } = useTranslation('suppliercatalogues');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{
    articles: CatalogueArticle[];
    totalCount: number;
    totalCountCapped: boolean;
  } | null>(null);

  useEffect(() => {
    const timer = setTimeout(
      () => {
        const search = new URLSearchParams({ supplierId, q, page: String(page), pageSize: String(PAGE_SIZE) });
        fileCall<{ articles: CatalogueArticle[]; totalCount: number; totalCountCapped: boolean }>(
          'GET',
          `/api/supplierinventory/query/articles?${search}`,
        )
          .then(setResult)
          .catch(() => undefined);
      },
      q ? SEARCH_DEBOUNCE_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [supplierId, q, page]);

  const pages = Math.max(1, Math.ceil((result?.totalCount ?? 0) / PAGE_SIZE));
  const money = (v: string | null) => (v === null ? '—' : formatNumber(Number(v)));
  return (
    <div className="space-y-2">
      <SearchInput
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={q}
        onChange={(v) => {
          setQ(v);
          setPage(1);
        }}
      />
      {result ? (
        <p className="text-sm text-slate-700" aria-live="polite" data-testid="catalogue-search-count">
          {result.totalCount
            ? t(result.totalCountCapped ? 'search.countMore' : 'search.count', {
                n: formatNumber(result.totalCount, { decimals: 0 }),
              })
            : t('search.empty')}
        </p>
      ) : null}
      {result?.articles.length ? (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {result.articles.map((a) => (
            <li key={a.id} className="grid gap-x-3 p-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)_auto]">
              <span className="font-mono text-slate-800">{a.articleNumber}</span>
              <span className="min-w-0 break-words">
                {a.articleTitle}
                {a.unit ? <span className="text-slate-600"> · {a.unit}</span> : null}
              </span>
              <span className="text-slate-800 sm:text-end">
                <span className="sr-only">{t('column.purchase')}: </span>
                {money(a.purchasePrice)}
                {a.discountPercent ? (
                  <span className="text-slate-600">
                    {' '}
                    ({t('column.discount')} {formatNumber(Number(a.discountPercent), { decimals: 0 })} %)
                  </span>
                ) : null}
                {' · '}
                <span className="sr-only">{t('column.recommended')}: </span>
                {money(a.recommendedSalesPrice)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <div className="flex items-center gap-2">
          <Button size="sm" isDisabled={page <= 1} onPress={() => setPage((p) => p - 1)}>
            {t('pager.previous')}
          </Button>
          <span className="text-sm text-slate-700">{t('pager.page', { page, pages })}</span>
          <Button size="sm" isDisabled={page >= pages} onPress={() => setPage((p) => p + 1)}>
            {t('pager.next')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
