import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import type { EntryContext, RouterContextProvider } from 'react-router';
import { ServerRouter } from 'react-router';
import { getInstance } from '~/app/middleware/i18n.server';
import { logger } from '~/core/log/logger';
import { NonceContext } from '~/app/lib/nonce';
import { localeChunkUrl } from '~/app/locales/chunks.server';
import { LocaleChunksContext } from '~/app/locales/usage';

export const streamTimeout = 5_000;

/**
 * Page-only security headers; the server adds nosniff, framing and referrer rules to every answer.
 * The Content-Security-Policy is sent in every mode: scripts only from the origin or carrying this
 * request's nonce (React Router's inline scripts), never inline otherwise. Development adds the hot
 * reload socket.
 */
function secure(headers: Headers, nonce: string) {
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  const connect = process.env.NODE_ENV === 'production' ? "'self'" : "'self' ws: wss:";
  headers.set(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      "img-src 'self' data: blob: https:",
      "style-src 'self' 'unsafe-inline'",
      `script-src 'self' 'nonce-${nonce}'`,
      `connect-src ${connect}`,
      "object-src 'none'",
      // a document chosen in the browser is previewed before it is sent (a typed invoice's PDF)
      "frame-src 'self' blob:",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  );
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = randomBytes(16).toString('base64');
  secure(responseHeaders, nonce);
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <LocaleChunksContext.Provider value={localeChunkUrl}>
          <I18nextProvider i18n={getInstance(loadContext)}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nextProvider>
        </LocaleChunksContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ err: error }, 'render failed while streaming');
        },
      },
    );
  });
}

/** Errors thrown by loaders and actions reach here; log them without leaking to the page. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  logger.error({ err: error, url: new URL(request.url).pathname }, 'unhandled route error');
}
