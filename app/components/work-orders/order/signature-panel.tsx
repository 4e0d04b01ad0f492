import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, ConfirmDialog, useToast } from '~/app/components/ui';
import { SignaturePad, type SignatureValue } from '~/app/components/signature/signature-pad';
import { useFetcherResult } from '~/app/lib/use-fetcher-result';
import type { WorkOrderSignature, WorkOrderSignatures } from '~/core/work-orders/signature.service';

/** What the order page's action answers for `sign` and `unsign`. */
export interface SignatureActionResult {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
}

export interface SignaturePanelProps {
  data: WorkOrderSignatures;
  isClosed: boolean;
  /** An ISO instant as the page shows it (the tenant's date format and zone). */
  format: (iso: string) => string;
}

/**
 * The customer's signature of the work order (app module `workorder_signature`): drawn on the
 * service reports' pad with the printed name while the order is open; the technician and the time
 * are recorded and the work-order document prints it. A signature can be removed (confirmed) while
 * the order is open; reopening a closed order clears it. Earlier signatures stay listed.
 */
export function SignaturePanel({ data, isClosed, format }: SignaturePanelProps) {
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const fetcher = useFetcher<SignatureActionResult>();
  const [value, setValue] = useState<SignatureValue>({ name: '', image: null });
  const [padKey, setPadKey] = useState(0);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const busy = fetcher.state !== 'idle';
  const { current, earlier, canSign } = data;

  const result = useFetcherResult(fetcher, (r) => {
    if (r.ok) {
      toast.show({ kind: 'success', message: t(r.intent === 'sign' ? 'signature.signed' : 'signature.removed') });
      setValue({ name: '', image: null });
      setPadKey((k) => k + 1);
      setConfirmRemove(false);
    } else if (r.code) toast.show({ kind: 'error', message: tc(r.code) });
  });
  const nameError = result && !result.ok ? result.fields?.name?.map((k) => tc(k)) : undefined;
  const clearedText = (s: WorkOrderSignature) => {
    const when = s.clearedAt ? format(s.clearedAt) : '';
    return s.clearedReason === 'reopened'
      ? t('signature.clearedReopened', { when })
      : t('signature.clearedRemoved', { when, name: s.clearedByName ?? '—' });
  };

  return (
    <section
      aria-labelledby="wo-signature"
      className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      data-testid="wo-signature"
    >
      <h3 id="wo-signature" className="text-base font-semibold">
        {t('signature.title')}
      </h3>
      {current ? (
        <div className="mt-2 grid gap-2">
          <p className="text-sm" data-testid="wo-signed">
            {t('signature.signedBy', { name: current.signedName, when: format(current.signedAt) })}
            {current.technicianName ? ` · ${t('signature.technician', { name: current.technicianName })}` : ''}
          </p>
          {current.signature ? (
            <img
              src={current.signature}
              alt={t('signature.imageOf', { name: current.signedName })}
              className="h-20 w-fit max-w-full rounded border border-slate-200 bg-white"
            />
          ) : null}
          {canSign ? (
            <div>
              <Button size="sm" variant="ghost" onPress={() => setConfirmRemove(true)} isDisabled={busy}>
                {t('signature.remove')}
              </Button>
            </div>
          ) : null}
        </div>
      ) : canSign ? (
        <form
          noValidate
          className="mt-2 grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void fetcher.submit({ intent: 'sign', name: value.name, image: value.image ?? '' }, { method: 'post' });
          }}
        >
          <p className="text-sm text-slate-600">{t('signature.intro')}</p>
          <SignaturePad
            key={padKey}
            label={t('signature.pad')}
            value={value}
            onChange={setValue}
            isDisabled={busy}
            nameError={nameError}
          />
          <div>
            <Button type="submit" variant="primary" isPending={busy}>
              {t('signature.sign')}
            </Button>
          </div>
        </form>
      ) : (
        <p className="mt-2 text-sm text-slate-600">
          {t('signature.none')}
          {isClosed ? ` ${t('signature.closedHint')}` : ''}
        </p>
      )}
      {earlier.length ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-700">
            {t('signature.earlier', { count: earlier.length })}
          </summary>
          <ul className="mt-2 grid gap-1">
            {earlier.map((s) => (
              <li key={s.id} className="text-slate-700">
                {t('signature.signedBy', { name: s.signedName, when: format(s.signedAt) })} – {clearedText(s)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <ConfirmDialog
        isOpen={confirmRemove}
        onOpenChange={setConfirmRemove}
        title={t('signature.removeTitle')}
        message={current ? t('signature.removeConfirm', { name: current.signedName }) : undefined}
        confirmLabel={t('signature.remove')}
        variant="danger"
        isPending={busy}
        onConfirm={() => void fetcher.submit({ intent: 'unsign' }, { method: 'post' })}
      />
    </section>
  );
}
