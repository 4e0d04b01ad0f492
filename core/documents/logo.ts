import { logger } from '~/core/log/logger';

/** A logo slower than this is left out of the document rather than holding it up. */
export const LOGO_TIMEOUT_MS = 2_000;
const MAX_LOGO_BYTES = 1_000_000;
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;
const KEEP_MS = 10 * 60_000;
const KEEP_FAILURE_MS = 60_000;

const cache = new Map<string, { at: number; value: string | null }>();

/**
 * The tenant's logo as a data: URL, fetched on the server (the PDF page may load nothing from the
 * network). Only http(s), only images, at most 1 MB; anything else, or no answer within
 * LOGO_TIMEOUT_MS, gives null and the document is printed without a logo. Kept for 10 minutes.
 */
export async function logoDataUrl(url: string | null | undefined, now = Date.now()): Promise<string | null> {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  const hit = cache.get(url);
  if (hit && now - hit.at < (hit.value ? KEEP_MS : KEEP_FAILURE_MS)) return hit.value;
  let value: string | null = null;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(LOGO_TIMEOUT_MS), redirect: 'follow' });
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const length = Number(res.headers.get('content-length') ?? 0);
    if (res.ok && IMAGE_TYPES.test(type) && length <= MAX_LOGO_BYTES) {
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length <= MAX_LOGO_BYTES) value = `data:${type};base64,${bytes.toString('base64')}`;
    } else await res.body?.cancel();
  } catch (err) {
    logger.warn({ err, url }, 'document logo not reachable; printing without it');
  }
  if (cache.size > 500) cache.clear();
  cache.set(url, { at: now, value });
  return value;
}
