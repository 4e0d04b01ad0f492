import { useTranslation } from 'react-i18next';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/qr';
import { guard, run } from '~/app/lib/guard.server';
import { resolveQrRef } from '~/core/business-objects/business-object.service';
import { isAppError } from '~/core/errors/app-error';
import { pageTitle } from '~/app/lib/page-title';

/**
 * /qr/{id} (spec section 2): a scanned object label. The reference leads to its object; an
 * unknown one says QR_REFERENCE_NOT_FOUND with a way back.
 */
export const middleware = guard({ permission: 'bo:read' });

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const { bo } = await run(context, (ctx) => resolveQrRef(ctx, { qrRefId: params.id }));
    return redirect(`/inventory/objects/${bo.id}`);
  } catch (e) {
    if (isAppError(e) && (e.code === 'QR_REFERENCE_NOT_FOUND' || e.status === 400))
      return data({ ref: params.id }, { status: 404 });
    throw e;
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.qr');

export default function QrNotFound({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const { t: tc } = useTranslation();
  return (
    <section className="mx-auto max-w-lg rounded-xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-semibold">{tc('QR_REFERENCE_NOT_FOUND')}</h1>
      <p className="mt-2 text-slate-600">{t('qr.notFoundBody', { ref: loaderData.ref })}</p>
      <p className="mt-4 flex flex-wrap justify-center gap-4">
        <Link to="/inventory/objects" className="text-blue-800 underline">
          {t('qr.toObjects')}
        </Link>
        <Link to="/" className="text-blue-800 underline">
          {tc('errors.backHome')}
        </Link>
      </p>
    </section>
  );
}
