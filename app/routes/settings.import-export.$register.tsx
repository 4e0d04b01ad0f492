import type { Route } from './+types/settings.import-export.$register';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { exportCsv, MAX_IMPORT_BYTES, previewImport, runImport } from '~/core/import-export/import-export.service';

/**
 * The import and export of one register, for the settings page and for API clients (a session
 * cookie or a bearer token): GET answers the CSV for the list filters in the query; POST takes the
 * CSV as the body with `?mode=preview` (check only), `valid` (import the good rows) or `all`
 * (every row or none), and answers JSON.
 */
export const middleware = guard({ permission: 'settings:import_export' });

const fail = (status: number, body: Record<string, unknown>) => Response.json(body, { status });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const filters = Object.fromEntries(new URL(request.url).searchParams);
  try {
    const csv = await run(context, async (ctx) => {
      let out = '';
      for await (const chunk of exportCsv(ctx, params.register, filters)) out += chunk;
      return out;
    });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${params.register}-${day}.csv"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (e) {
    if (isAppError(e)) return fail(e.status, { code: e.code });
    throw e;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return fail(405, { code: 'BAD_REQUEST' });
  if (Number(request.headers.get('content-length') ?? 0) > MAX_IMPORT_BYTES)
    return fail(413, { code: 'FILE_TOO_LARGE', max: MAX_IMPORT_BYTES / 1024 / 1024 });
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES)
    return fail(413, { code: 'FILE_TOO_LARGE', max: MAX_IMPORT_BYTES / 1024 / 1024 });
  const mode = new URL(request.url).searchParams.get('mode') ?? 'preview';
  try {
    const result = await run<unknown>(context, (ctx) =>
      mode === 'preview'
        ? previewImport(ctx, params.register, text)
        : runImport(ctx, params.register, text, mode === 'all' ? 'all' : 'valid'),
    );
    return Response.json(result);
  } catch (e) {
    if (isAppError(e) && e.status < 500) return fail(e.status, { code: e.code, ...e.details });
    throw e;
  }
}
