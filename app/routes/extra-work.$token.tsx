import { useTranslation } from 'react-i18next';
import { data, Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/extra-work.$token';
import { requestContext, tenantContext } from '~/app/context';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { formatDate, TextField, tenantTimeZone } from '~/app/components/ui';
import { ExtraWorkAnswerButtons, ExtraWorkContent } from '~/app/components/projects/extra-work-content';
import type { DateFormat } from '~/core/i18n/number-format';
import { PUBLIC } from '~/core/permissions/access';
import {
  answerExtraWorkLink,
  openExtraWorkLink,
  type ExtraWorkAnswerResult,
  type ExtraWorkView,
} from '~/core/projects/extra-work-link.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The page an extra-work (ATA) approval link opens, signed out, on the tenant's host: the company,
 * the project, the order with its articles and time, and Approve / Decline with the answerer's
 * name. A token that does not work (unknown, expired, superseded, answered) gets one page that
 * says only that, with status 410. Failed answers are throttled per address (the service).
 */
export const middleware = guard(PUBLIC);

/** The token is in the address: keep it out of caches and other sites' referrers. */
export const headers = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export async function loader({ params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const page = await run(context, (ctx) => openExtraWorkLink(ctx, params.token));
  return data(
    { page, config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country } },
    { status: page.state === 'gone' ? 410 : 200 },
  );
}

export type ExtraWorkActionResult = { result: ExtraWorkAnswerResult } | ActionError;

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { ip } = context.get(requestContext);
  try {
    const result = await run(context, (ctx) =>
      answerExtraWorkLink(ctx, { token: params.token, answer: form.get('answer'), name: form.get('name') }, { ip }),
    );
    return data<ExtraWorkActionResult>({ result }, { status: result.state === 'gone' ? 410 : 200 });
  } catch (e) {
    return actionError(e);
  }
}

function Card({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh justify-center p-3 sm:items-center sm:p-6">
      <div className="w-full max-w-2xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-8">{children}</div>
    </main>
  );
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.extraWork');

export default function ExtraWorkPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const answered = useActionData<ExtraWorkActionResult>();
  const { page } = loaderData;
  const result = answered && 'result' in answered ? answered.result : null;

  if (result?.state === 'answered')
    return (
      <Card>
        <p className="text-sm text-slate-600">{result.company}</p>
        <h1 className="mt-1 text-2xl font-semibold">
          {t(result.answer === 'accepted' ? 'extraWork.public.acceptedTitle' : 'extraWork.public.declinedTitle')}
        </h1>
        <p role="status" className="mt-4 rounded-md bg-green-50 p-3 text-sm text-green-800">
          {t(result.answer === 'accepted' ? 'extraWork.public.acceptedBody' : 'extraWork.public.declinedBody', {
            name: result.name,
            company: result.company,
          })}
        </p>
      </Card>
    );

  if (page.state === 'gone' || result?.state === 'gone')
    return (
      <Card>
        <p className="text-sm text-slate-600">{page.state === 'gone' ? page.company : page.view.company}</p>
        <h1 className="mt-1 text-2xl font-semibold">{t('extraWork.public.goneTitle')}</h1>
        <p className="mt-4 text-sm text-slate-700">{t('extraWork.public.goneBody')}</p>
      </Card>
    );

  return (
    <Card>
      <OpenLink view={page.view} config={loaderData.config} error={answered && 'code' in answered ? answered : null} />
    </Card>
  );
}

function OpenLink({
  view,
  config,
  error,
}: {
  view: ExtraWorkView;
  config: { dateFormat: DateFormat; country: string };
  error: ActionError | null;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  const nameErrors = error?.fields?.name?.map((k) => tc(k));
  const validUntil = formatDate(view.expiresAt, config.dateFormat, { timeZone: tenantTimeZone(config.country) });

  return (
    <>
      <p className="text-sm text-slate-600">{view.company}</p>
      <h1 className="mt-1 text-2xl font-semibold">{t('extraWork.public.title')}</h1>
      <p className="mt-2 text-sm text-slate-700">
        {t('extraWork.public.intro', {
          company: view.company,
          project: `${view.project.number} ${view.project.title}`,
        })}
      </p>

      <ExtraWorkContent view={view} />

      <Form method="post" className="mt-6 grid gap-3 border-t border-slate-200 pt-4">
        {error && !error.fields ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {tc(error.code)}
          </p>
        ) : null}
        <TextField
          name="name"
          label={t('extraWork.public.name')}
          isRequired
          maxLength={200}
          autoComplete="name"
          errorMessage={nameErrors}
        />
        <p className="text-sm text-slate-600">{t('extraWork.public.validUntil', { date: validUntil })}</p>
        <ExtraWorkAnswerButtons
          busy={busy}
          approve={t('extraWork.public.approve')}
          decline={t('extraWork.public.decline')}
        />
      </Form>
    </>
  );
}
