import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from 'react-aria-components';
import type { Route } from './+types/settings.import-export';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { Button, buttonClass, ConfirmDialog, Select } from '~/app/components/ui';
import { hasAccess } from '~/core/permissions/access';
import type { ImportCheck } from '~/core/import-export/import-export.service';
import type { RowIssue } from '~/core/import-export/register-io';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → import and export (settings:import_export): CSV for customers, objects and articles.
 * An import is checked first (every row, with a preview of the first ones and each bad row's
 * reason); the person then imports the good rows, or every row or none.
 */
export const middleware = guard({ permission: 'settings:import_export' });

const REGISTERS = [
  { id: 'customers', create: 'customers:create', read: 'customers:read' },
  { id: 'objects', create: 'bo:edit', read: 'bo:read' },
  { id: 'articles', create: 'articles:create', read: 'articles:read' },
] as const;

export function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return {
    registers: REGISTERS.map((r) => ({
      id: r.id,
      canImport: hasAccess(auth, { permission: r.create }),
      canExport: hasAccess(auth, { permission: r.read }),
    })),
  };
}

type Outcome =
  | { kind: 'checked'; check: ImportCheck }
  | { kind: 'imported'; imported: number; skipped: number }
  | { kind: 'error'; code: string; issues?: RowIssue[]; columns?: string[]; max?: number };

/** Sends the file with upload progress (fetch cannot report it), answering the parsed JSON. */
type Answer = Partial<ImportCheck> & {
  code: string;
  issues?: RowIssue[];
  columns?: string[];
  max?: number;
  imported: number;
  skipped: number;
};

function send(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ status: number; body: Answer }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.timeout = 60_000;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      try {
        resolve({ status: xhr.status, body: JSON.parse(xhr.responseText) as Answer });
      } catch {
        resolve({ status: xhr.status, body: { code: 'SERVER_ERROR', imported: 0, skipped: 0 } });
      }
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.ontimeout = () => reject(new Error('timeout'));
    xhr.send(file);
  });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('settings.importExport', null, { within: 'settings.title' });

export default function ImportExport({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('importexport');
  const { t: tc } = useTranslation();
  const importable = loaderData.registers.filter((r) => r.canImport);
  const [register, setRegister] = useState<string>(importable[0]?.id ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'working'>('idle');
  const [progress, setProgress] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);

  async function submit(mode: 'preview' | 'valid' | 'all') {
    if (!file || !register) return;
    setPhase('uploading');
    setProgress(0);
    try {
      const { status, body } = await send(`/settings/import-export/${register}?mode=${mode}`, file, (f) => {
        setProgress(f);
        if (f >= 1) setPhase('working');
      });
      if (status !== 200)
        setOutcome({ kind: 'error', code: body.code, issues: body.issues, columns: body.columns, max: body.max });
      else if (mode === 'preview') setOutcome({ kind: 'checked', check: body as ImportCheck });
      else setOutcome({ kind: 'imported', imported: body.imported, skipped: body.skipped });
    } catch (e) {
      setOutcome({
        kind: 'error',
        code: (e as Error).message === 'timeout' ? 'WARNING_NETWORK_ERROR_PLEASE_REFRESH' : 'SERVER_ERROR',
      });
    } finally {
      setPhase('idle');
    }
  }

  const busy = phase !== 'idle';
  const check = outcome?.kind === 'checked' ? outcome.check : null;

  return (
    <div className="grid gap-6">
      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
        {importable.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600">{t('import.none')}</p>
        ) : (
          <form
            className="mt-4 flex flex-wrap items-end gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              void submit('preview');
            }}
          >
            <Select
              label={t('register')}
              items={importable.map((r) => ({ id: r.id, label: t(`register.${r.id}`) }))}
              selectedKey={register}
              onSelectionChange={(k) => {
                setRegister(String(k));
                setOutcome(null);
              }}
              className="w-56"
            />
            <label className="flex min-w-0 flex-col gap-1 text-sm font-medium text-gray-900">
              {t('file')}
              <input
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                onChange={(e) => {
                  setFile(e.currentTarget.files?.[0] ?? null);
                  setOutcome(null);
                }}
                className="min-h-11 max-w-full rounded-md border border-gray-300 px-2 py-2 text-sm"
              />
            </label>
            <Button type="submit" variant="primary" isDisabled={!file || busy} isPending={busy}>
              {t('import.check')}
            </Button>
          </form>
        )}
        <p className="mt-2 text-sm text-slate-500">
          {t('columns', {
            columns: outcome?.kind === 'checked' ? outcome.check.columns.join(', ') : t(`columns.${register}`),
          })}
        </p>

        {busy ? (
          <ProgressBar
            aria-label={phase === 'uploading' ? t('progress.uploading') : t('progress.working')}
            value={phase === 'uploading' ? progress * 100 : undefined}
            isIndeterminate={phase === 'working'}
            className="mt-4 grid gap-1"
          >
            {({ percentage }) => (
              <>
                <span className="text-sm text-slate-700">
                  {phase === 'uploading'
                    ? t('progress.uploadingPercent', { percent: Math.round(percentage ?? 0) })
                    : t('progress.working')}
                </span>
                <span className="h-2 overflow-hidden rounded bg-slate-200">
                  <span
                    className={
                      phase === 'working'
                        ? 'block h-full w-1/3 animate-pulse bg-brand-600'
                        : 'block h-full bg-brand-600'
                    }
                    style={phase === 'uploading' ? { width: `${percentage ?? 0}%` } : undefined}
                  />
                </span>
              </>
            )}
          </ProgressBar>
        ) : null}

        {outcome?.kind === 'error' ? (
          <div role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900">
            <p>{tc(outcome.code, { max: outcome.max })}</p>
            {outcome.columns ? <p className="mt-1">{outcome.columns.join(', ')}</p> : null}
            {outcome.issues?.length ? <IssueList issues={outcome.issues} /> : null}
          </div>
        ) : null}

        {outcome?.kind === 'imported' ? (
          <p role="status" className="mt-4 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {t('import.done', { imported: outcome.imported, skipped: outcome.skipped })}
          </p>
        ) : null}

        {check ? (
          <div className="mt-4 grid gap-3">
            <p role="status" className="text-sm">
              {t('check.summary', { total: check.totalRows, valid: check.validRows, invalid: check.invalidRows })}
            </p>
            {check.unknownColumns.length ? (
              <p className="text-sm text-amber-800">
                {t('check.unknownColumns', { columns: check.unknownColumns.join(', ') })}
              </p>
            ) : null}
            <h2 className="text-lg font-medium">{t('check.preview')}</h2>
            <div className="overflow-x-auto">
              <table className="min-w-full text-left text-sm">
                <thead>
                  <tr>
                    <th className="px-2 py-1 font-medium text-slate-600">#</th>
                    {check.columns.map((c) => (
                      <th key={c} className="px-2 py-1 font-medium whitespace-nowrap text-slate-600">
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {check.sample.map((row, i) => (
                    <tr key={i} className={check.issues.some((x) => x.row === i + 1) ? 'bg-red-50' : 'odd:bg-slate-50'}>
                      <td className="px-2 py-1 text-slate-500">{i + 1}</td>
                      {check.columns.map((c) => (
                        <td key={c} className="max-w-48 truncate px-2 py-1">
                          {row[c]}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {check.issues.length ? <IssueList issues={check.issues} total={check.invalidRows} /> : null}
            <div className="flex flex-wrap gap-2">
              <Button variant="primary" isDisabled={busy || check.validRows === 0} onPress={() => setConfirming(true)}>
                {t('import.valid', { count: check.validRows })}
              </Button>
              <ConfirmDialog
                isOpen={confirming}
                onOpenChange={setConfirming}
                title={t('import.valid', { count: check.validRows })}
                message={t('import.validConfirm', { valid: check.validRows, invalid: check.invalidRows })}
                confirmLabel={t('import.run')}
                variant="primary"
                onConfirm={() => {
                  setConfirming(false);
                  void submit('valid');
                }}
              />
              <Button variant="secondary" isDisabled={busy || check.invalidRows > 0} onPress={() => void submit('all')}>
                {t('import.all')}
              </Button>
            </div>
            {check.invalidRows > 0 ? <p className="text-sm text-slate-600">{t('import.allDisabled')}</p> : null}
          </div>
        ) : null}
      </section>

      <section className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <h2 className="text-lg font-medium">{t('export.title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('export.intro')}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {loaderData.registers
            .filter((r) => r.canExport)
            .map((r) => (
              // A download, not a page: a plain link so the router leaves it to the browser.
              <a
                key={r.id}
                href={`/settings/import-export/${r.id}`}
                download
                className={buttonClass({ variant: 'secondary' })}
              >
                {t('export.button', { register: t(`register.${r.id}`) })}
              </a>
            ))}
        </div>
      </section>
    </div>
  );
}

function IssueList({ issues, total }: { issues: RowIssue[]; total?: number }) {
  const { t } = useTranslation('importexport');
  const { t: tc } = useTranslation();
  return (
    <div>
      <h2 className="text-lg font-medium">{t('check.issues', { count: total ?? issues.length })}</h2>
      <ul className="mt-1 max-h-72 list-none overflow-y-auto text-sm">
        {issues.map((x, i) => (
          <li key={i} className="border-b border-slate-100 py-1">
            {t('check.issue', { row: x.row, field: x.field, message: tc(x.code) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
