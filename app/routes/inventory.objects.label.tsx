import QRCode from 'qrcode';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/inventory.objects.label';
import { tenantContext } from '~/app/context';
import { guard, run } from '~/app/lib/guard.server';
import { Button } from '~/app/components/ui';
import { getBusinessObject } from '~/core/business-objects/business-object.service';
import { isAppError } from '~/core/errors/app-error';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The printable QR label of an object (outside the inventory tabs): a QR code of
 * `<origin>/?source=qr&id=<qrRef>` (opening it leads to /qr/{ref} and on to the object), with the
 * serial code, model, location and company name. Only the label is printed; ?print=1 opens the
 * print dialog 500 ms after the label shows (spec section 9).
 */
export const middleware = guard({ permission: 'bo:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const company = context.get(tenantContext).displayName;
  try {
    const { bo } = await run(context, (ctx) => getBusinessObject(ctx, params.id));
    const url = bo.qrRef ? `${new URL(request.url).origin}/?source=qr&id=${encodeURIComponent(bo.qrRef)}` : null;
    const svg = url ? await QRCode.toString(url, { type: 'svg', margin: 0, errorCorrectionLevel: 'M' }) : null;
    return {
      company,
      url,
      svg,
      bo: { id: bo.id, serialCode: bo.serialCode, modelName: bo.modelName, location: bo.location, qrRef: bo.qrRef },
    };
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

const PRINT_CSS = `@media print {
  @page { margin: 6mm; }
  body * { visibility: hidden !important; }
  #qr-label, #qr-label * { visibility: visible !important; }
  #qr-label { position: absolute; left: 0; top: 0; box-shadow: none !important; border: 1px solid #000; }
}`;

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.objectLabel', (d: Route.ComponentProps['loaderData']) => d.bo.serialCode);

export default function QrLabel({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('objects');
  const { bo, svg, company, url } = loaderData;
  const [params] = useSearchParams();
  const autoPrint = params.get('print') === '1' && Boolean(svg);
  useEffect(() => {
    if (!autoPrint) return;
    const timer = setTimeout(() => window.print(), 500);
    return () => clearTimeout(timer);
  }, [autoPrint]);
  return (
    <div className="grid justify-items-start gap-4">
      <style>{PRINT_CSS}</style>
      <Link to={`/inventory/objects/${bo.id}`} className="text-sm text-blue-800 underline">
        ← {t('label.back', { serial: bo.serialCode })}
      </Link>
      <h1 className="text-2xl font-semibold">{t('label.title')}</h1>
      {svg ? (
        <>
          <article
            id="qr-label"
            aria-label={t('label.title')}
            className="flex w-[90mm] max-w-full items-center gap-4 rounded-lg bg-white p-4 text-black shadow-sm ring-1 ring-slate-300"
          >
            <div
              role="img"
              aria-label={t('label.qrAlt', { serial: bo.serialCode })}
              className="w-[30mm] shrink-0 [&_svg]:h-auto [&_svg]:w-full"
              dangerouslySetInnerHTML={{ __html: svg }}
            />
            <div className="min-w-0 text-sm leading-snug">
              <p className="font-mono text-lg font-bold break-all">{bo.serialCode}</p>
              {bo.modelName ? <p>{bo.modelName}</p> : null}
              {bo.location ? <p>{bo.location}</p> : null}
              <p className="mt-2 text-xs font-semibold">{company}</p>
              <p className="text-[10px] break-all text-slate-700">{bo.qrRef}</p>
            </div>
          </article>
          <p className="text-sm break-all text-slate-600">{t('label.url', { url })}</p>
          <Button variant="primary" onPress={() => window.print()}>
            {t('label.print')}
          </Button>
        </>
      ) : (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{t('label.noReference')}</p>
      )}
    </div>
  );
}
