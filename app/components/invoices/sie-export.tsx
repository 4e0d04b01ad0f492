import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useSearchParams } from 'react-router';
import { Button, DatePicker, dateValueOf } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { isIsoDay, SIE_MAX_MONTHS, siePeriodError } from '~/core/invoicing/sie-period';

export interface SiePeriod {
  from: string;
  to: string;
}

/**
 * The invoice list's export to the accounting program (issue 15 item 3): a period (this month
 * unless chosen), the verification series, and a plain GET to /invoices/sie, so the browser
 * downloads the SIE file and the list stays as it is. The period is checked here as the server
 * checks it; a refusal from the server comes back in the address (`sieError`, with what was
 * chosen) and shows beside the dates.
 */
export function SieExport({ period }: { period: SiePeriod }) {
  const { t } = useTranslation('invoices');
  const { t: tc } = useTranslation();
  const [params] = useSearchParams();
  const serverError = params.get('sieError');
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const errorId = useId();
  const message = error ?? (submitted ? null : serverError);
  const chosen = {
    from: params.get('sieFrom') || period.from,
    to: params.get('sieTo') || period.to,
    series: params.get('sieSeries') || 'A',
  };

  const check = (e: FormEvent<HTMLFormElement>) => {
    const form = new FormData(e.currentTarget);
    const from = String(form.get('from') ?? '');
    const to = String(form.get('to') ?? '');
    const problem = !isIsoDay(from) || !isIsoDay(to) ? 'ERROR_INVALID_DATE' : siePeriodError(from, to);
    setError(problem);
    setSubmitted(true);
    if (problem) e.preventDefault();
  };

  return (
    <details
      className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 print:hidden"
      open={serverError ? true : undefined}
    >
      <summary className="cursor-pointer text-sm font-medium">{t('sie.title')}</summary>
      <Form
        method="get"
        action="/invoices/sie"
        reloadDocument
        noValidate
        onSubmit={check}
        aria-label={t('sie.title')}
        className="mt-3 grid gap-3 sm:grid-cols-[repeat(3,minmax(0,1fr))_auto] sm:items-end"
      >
        <DatePicker
          label={t('sie.from')}
          name="from"
          isRequired
          defaultValue={dateValueOf(chosen.from)}
          isInvalid={Boolean(message)}
        />
        <DatePicker
          label={t('sie.to')}
          name="to"
          isRequired
          defaultValue={dateValueOf(chosen.to)}
          isInvalid={Boolean(message)}
        />
        <NativeField label={t('sie.series')}>
          {(id) => (
            <input
              id={id}
              name="series"
              defaultValue={chosen.series}
              maxLength={10}
              pattern="[A-Za-z0-9]{1,10}"
              autoComplete="off"
              className={NATIVE_INPUT_CLASS}
            />
          )}
        </NativeField>
        <Button type="submit" variant="secondary">
          {t('sie.download')}
        </Button>
        {message ? (
          <p id={errorId} role="alert" className="text-sm text-red-700 sm:col-span-4">
            {tc(message)}
          </p>
        ) : null}
        <p className="text-xs text-slate-600 sm:col-span-4">{t('sie.help', { months: SIE_MAX_MONTHS })}</p>
      </Form>
    </details>
  );
}
