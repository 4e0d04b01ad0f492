import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useActionData, useNavigation } from 'react-router';
import { buttonClass, TextField } from '~/app/components/ui';
import { INPUT_BOX_CLASS } from '~/app/components/ui/field-classes';
import { SignaturePad, type SignatureValue } from '~/app/components/signature/signature-pad';
import { useZoneDate } from '~/app/components/zone/zone-parts';
import type { ZoneProposal } from '~/core/zone/zone-proposal.service';

interface AnswerResult {
  ok?: boolean;
  intent?: string;
  code?: string;
  fields?: Record<string, string[]>;
}

/**
 * The customer's answer to a sent proposal (decision 063): while it is open, accept with the
 * printed name and a finger signature, or decline with the name and an optional reason; once
 * answered, who answered and when. Plain forms: the page's action runs the office's own accept.
 */
export function ZoneProposalAnswer({ proposal }: { proposal: ZoneProposal }) {
  const { t } = useTranslation('zoneactions');
  const { t: tc } = useTranslation('common');
  const date = useZoneDate();
  const result = useActionData<AnswerResult>();
  const busy = useNavigation().state !== 'idle';
  const [signature, setSignature] = useState<SignatureValue>({ name: '', image: null });
  const [declining, setDeclining] = useState(false);
  const errorsOf = (intent: string, field: string) =>
    result?.intent === intent ? result.fields?.[field]?.map((k) => tc(k)) : undefined;
  const refusal = result && !result.ok && result.code && !result.fields ? tc(result.code) : null;

  if (proposal.status !== 'open') {
    const a = proposal.answer;
    return (
      <section aria-labelledby="zone-proposal-answer" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
        <h2 id="zone-proposal-answer" className="font-semibold">
          {t('answer.title')}
        </h2>
        <p role="status" className="mt-1 text-sm">
          {a
            ? t(a.answer === 'accepted' ? 'answer.acceptedBy' : 'answer.declinedBy', {
                name: a.name,
                date: date(a.answeredAt),
              })
            : proposal.status === 'expired'
              ? t('answer.expired')
              : t(proposal.status === 'accepted' ? 'answer.acceptedByOffice' : 'answer.declinedByOffice')}
        </p>
        {a?.reason ? <p className="mt-1 text-sm break-words">{t('answer.reasonGiven', { reason: a.reason })}</p> : null}
      </section>
    );
  }

  return (
    <section aria-labelledby="zone-proposal-answer" className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
      <h2 id="zone-proposal-answer" className="font-semibold">
        {t('answer.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('answer.intro')}</p>
      {refusal ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {refusal}
        </p>
      ) : null}
      <Form method="post" className="mt-3 grid gap-3">
        <input type="hidden" name="intent" value="accept" />
        <input type="hidden" name="name" value={signature.name} />
        <input type="hidden" name="signature" value={signature.image ?? ''} />
        <SignaturePad
          label={t('answer.signature')}
          nameLabel={t('answer.name')}
          value={signature}
          onChange={setSignature}
          isDisabled={busy}
          nameError={errorsOf('accept', 'name')}
        />
        {errorsOf('accept', 'signature') ? (
          <p className="text-sm text-red-700">{t('answer.signatureRequired')}</p>
        ) : null}
        <div>
          <button type="submit" disabled={busy} className={buttonClass({ variant: 'primary', size: 'lg' })}>
            {t('answer.accept')}
          </button>
        </div>
      </Form>

      <div className="mt-6 border-t border-slate-200 pt-4">
        {!declining ? (
          <button
            type="button"
            onClick={() => setDeclining(true)}
            className={buttonClass({ variant: 'secondary', size: 'lg' })}
          >
            {t('answer.declineOpen')}
          </button>
        ) : (
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="decline" />
            <TextField
              name="name"
              label={t('answer.name')}
              isRequired
              maxLength={200}
              autoComplete="name"
              defaultValue={signature.name}
              errorMessage={errorsOf('decline', 'name')}
            />
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium text-gray-900">{t('answer.reason')}</span>
              <textarea name="reason" rows={3} maxLength={2000} className={`${INPUT_BOX_CLASS} px-3 py-2`} />
            </label>
            <div>
              <button type="submit" disabled={busy} className={buttonClass({ variant: 'secondary', size: 'lg' })}>
                {t('answer.decline')}
              </button>
            </div>
          </Form>
        )}
      </div>
    </section>
  );
}
