import { useTranslation } from 'react-i18next';
import { Form, useActionData, useNavigation } from 'react-router';
import type { Route } from './+types/zone.extra-work';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { pageTitle } from '~/app/lib/page-title';
import { runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { ExtraWorkAnswerButtons, ExtraWorkContent } from '~/app/components/projects/extra-work-content';
import { TextField } from '~/app/components/ui';
import { ZoneEmpty, ZonePage } from '~/app/components/zone/zone-parts';
import { answerZoneExtraWork, listZoneExtraWork } from '~/core/zone/zone-extra-work.service';

/**
 * Extra work (ÄTA) awaiting the customer's approval: each order's content as the e-mailed link
 * shows it, approved or declined here with the person's printed name (decision 063).
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.extraWork');

export async function loader({ context }: Route.LoaderArgs) {
  return runZone(context, (ctx) => listZoneExtraWork(ctx));
}

type ExtraWorkAnswerResult =
  { ok: true; workOrderId: string; answer: 'accepted' | 'declined' } | (ActionError & { workOrderId?: string });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const workOrderId = String(form.get('workOrderId') ?? '');
  try {
    const done = await runZone(context, (ctx) =>
      answerZoneExtraWork(ctx, workOrderId, { answer: form.get('answer'), name: form.get('name') ?? '' }),
    );
    return { ok: true as const, ...done };
  } catch (e) {
    return actionError<ExtraWorkAnswerResult>(e, { workOrderId });
  }
}

export default function ZoneExtraWork({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zoneactions');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ExtraWorkAnswerResult>();
  const busy = useNavigation().state !== 'idle';
  return (
    <ZonePage title={t('extraWork.title')} intro={t('extraWork.intro')}>
      {result && 'ok' in result ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-800">
          {t(result.answer === 'accepted' ? 'extraWork.accepted' : 'extraWork.declined')}
        </p>
      ) : null}
      {loaderData.items.length === 0 ? (
        <ZoneEmpty>{t('extraWork.empty')}</ZoneEmpty>
      ) : (
        <ul className="grid gap-4">
          {loaderData.items.map(({ workOrderId, view }) => {
            const mine = result && !('ok' in result) && result.workOrderId === workOrderId ? result : null;
            return (
              <li key={workOrderId} className="rounded-lg bg-white p-4 ring-1 ring-slate-200">
                <ExtraWorkContent view={view} idPrefix={`extra-work-${workOrderId}`} />
                <Form method="post" className="mt-6 grid gap-3 border-t border-slate-200 pt-4">
                  {mine && !mine.fields ? (
                    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
                      {tc(mine.code)}
                    </p>
                  ) : null}
                  <input type="hidden" name="workOrderId" value={workOrderId} />
                  <TextField
                    name="name"
                    label={t('extraWork.name')}
                    isRequired
                    maxLength={200}
                    autoComplete="name"
                    errorMessage={mine?.fields?.name?.map((k) => tc(k))}
                  />
                  <ExtraWorkAnswerButtons
                    busy={busy}
                    approve={t('extraWork.approve')}
                    decline={t('extraWork.decline')}
                  />
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </ZonePage>
  );
}
