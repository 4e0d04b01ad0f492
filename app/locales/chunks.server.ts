import fs from 'node:fs';

/** Beside the browser build (build/): which chunk holds each language's namespace (vite.config.ts). */
export const LOCALE_CHUNKS_FILE = 'locale-chunks.json';

/**
 * Where the browser build put each translation file: `{ "sv/common": "/assets/locale-sv-common-….js" }`,
 * written by vite.config.ts beside the client build and read once at boot (production only).
 */
let chunks: Record<string, string> = {};

export function readLocaleChunks(file: string): void {
  try {
    chunks = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    chunks = {};
  }
}

export function localeChunkUrl(lang: string, ns: string): string | undefined {
  return chunks[`${lang}/${ns}`];
}
