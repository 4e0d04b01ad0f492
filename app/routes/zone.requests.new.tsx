import { useTranslation } from 'react-i18next';
import { data, Form, Link, redirect, useActionData, useNavigation, type RouterContextProvider } from 'react-router';
import type { Route } from './+types/zone.requests.new';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { pageTitle } from '~/app/lib/page-title';
import { requireZoneAuth, runZone, zoneGuard } from '~/app/lib/zone-guard.server';
import { ZonePage } from '~/app/components/zone/zone-parts';
import { Button } from '~/app/components/ui';
import { NATIVE_INPUT_CLASS } from '~/app/components/ui/native-field';
import { discardReceived, type Received } from '~/core/files/receive';
import { createZoneRequest, receiveRequestPhotosFrom, zoneRequestObjects } from '~/core/zone/zone-requests.service';
import { CUSTOMER_WORK_ORDERS, MAX_REQUEST_PHOTOS, MAX_REQUEST_TEXT } from '~/core/zone/zone-requests.constants';

/**
 * Ask for service (decision 064), phone first: one of the customer's installations, what is wrong
 * in the customer's words, photos from the phone's camera or library. One multipart post: the
 * photos stream into the file store first, then one unit of work makes the work order.
 */
export const middleware = zoneGuard();

export const handle = pageTitle('zoneTitle.newRequest');

function requireModule(context: Readonly<RouterContextProvider>) {
  if (!requireZoneAuth(context).modules.has(CUSTOMER_WORK_ORDERS)) throw data('not found', { status: 404 });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireModule(context);
  const objects = await runZone(context, (ctx) => zoneRequestObjects(ctx));
  const chosen = new URL(request.url).searchParams.get('object');
  return { objects, chosen: objects.some((o) => o.id === chosen) ? chosen : null };
}

type ActionResult = { code?: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  requireModule(context);
  let received: Received | null = null;
  let number: string;
  try {
    received = await receiveRequestPhotosFrom(request, context.get(tenantContext));
    const fields = received?.fields ?? Object.fromEntries(await request.formData());
    const photos = received;
    number = (await runZone(context, (ctx) => createZoneRequest(ctx, fields, photos))).request.number;
  } catch (e) {
    if (received) await discardReceived(received);
    return actionError<ActionResult>(e);
  }
  throw redirect(`/zone/requests?sent=${encodeURIComponent(number)}`);
}

export default function NewZoneRequest({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zonerequests');
  const { t: tc } = useTranslation('common');
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== 'idle';
  const errors = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const general = result?.code && !result.fields ? tc(result.code) : null;
  const fieldError = (name: string) => {
    const list = errors(name);
    return list?.length ? (
      <p id={`${name}-error`} className="text-sm text-red-700">
        {list.join(' ')}
      </p>
    ) : null;
  };
  if (!loaderData.objects.length)
    return (
      <ZonePage title={t('new.title')}>
        <p className="rounded-lg bg-white p-4 text-sm text-slate-600 ring-1 ring-slate-200">{t('new.noObjects')}</p>
      </ZonePage>
    );
  return (
    <ZonePage title={t('new.title')} intro={t('new.intro')}>
      {general ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {general}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="grid max-w-xl gap-4" noValidate>
        <div className="flex flex-col gap-1">
          <label htmlFor="request-object" className="text-sm font-medium text-gray-900">
            {t('new.object')}
          </label>
          <select
            id="request-object"
            name="objectId"
            required
            defaultValue={loaderData.chosen ?? (loaderData.objects.length === 1 ? loaderData.objects[0]!.id : '')}
            aria-invalid={errors('objectId') ? true : undefined}
            aria-describedby={errors('objectId') ? 'objectId-error' : undefined}
            className={NATIVE_INPUT_CLASS}
          >
            <option value="">{t('new.chooseObject')}</option>
            {loaderData.objects.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
          {fieldError('objectId')}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="request-description" className="text-sm font-medium text-gray-900">
            {t('new.description')}
          </label>
          <p id="request-description-hint" className="text-sm text-slate-600">
            {t('new.descriptionHint')}
          </p>
          <textarea
            id="request-description"
            name="description"
            required
            rows={6}
            maxLength={MAX_REQUEST_TEXT}
            aria-invalid={errors('description') ? true : undefined}
            aria-describedby={`request-description-hint${errors('description') ? ' description-error' : ''}`}
            className={`${NATIVE_INPUT_CLASS} h-auto py-2`}
          />
          {fieldError('description')}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="request-photos" className="text-sm font-medium text-gray-900">
            {t('new.photos')}
          </label>
          <p id="request-photos-hint" className="text-sm text-slate-600">
            {t('new.photosHint', { count: MAX_REQUEST_PHOTOS })}
          </p>
          <input
            id="request-photos"
            name="photos"
            type="file"
            accept="image/*"
            multiple
            aria-invalid={errors('photos') ? true : undefined}
            aria-describedby={`request-photos-hint${errors('photos') ? ' photos-error' : ''}`}
            className="min-h-11 text-sm file:mr-3 file:min-h-11 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:text-sm"
          />
          {fieldError('photos')}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" isDisabled={busy}>
            {t('new.send')}
          </Button>
          <Link to="/zone/requests" className="inline-flex min-h-11 items-center text-sm text-brand-700 underline">
            {t('new.cancel')}
          </Link>
        </div>
      </Form>
    </ZonePage>
  );
}
