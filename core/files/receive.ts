/**
 * Receiving uploaded files (multipart/form-data), outside any transaction: each file streams to a
 * temporary file (never into memory), is checked there (inspect.ts: type by magic bytes, whole,
 * not a zip bomb), gets a re-encoded thumbnail when it is an image, and is then streamed into the
 * FileStore under a random key. Only then does the caller's unit of work record the files; when it
 * fails, `discardReceived` removes what was stored. A refusal removes everything of the request.
 *
 * The name a browser gives is kept for display and downloads only: never a path.
 */
import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { AppError } from '~/core/errors/app-error';
import { NUL } from '~/core/http/edge';
import { inspectFile, type FileType } from './inspect';
import { deleteStored, getFileStore } from './store';

/** Spec section 9: an upload may take 60 s. */
export const UPLOAD_TIMEOUT_MS = 60_000;
/** Files in one request. */
export const MAX_FILES_PER_UPLOAD = 20;
/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;
/** Images with more pixels than this are refused before decoding (a decompression bomb). */
export const MAX_IMAGE_PIXELS = 100_000_000;

export interface ReceivedFile {
  storageKey: string;
  thumbKey: string | null;
  name: string;
  size: number;
  contentType: string;
}

export interface Received {
  files: ReceivedFile[];
  /** The form's text fields (a folder id, say), last value wins. */
  fields: Record<string, string>;
}

/** A display name from what the browser sent: its last path segment, no control characters, at most 255. */
export function cleanFileName(raw: string | undefined): string {
  // browsers send `"`, CR and LF in a multipart file name as %22, %0D and %0A (WHATWG HTML)
  const decoded = (raw ?? '').replace(/%22/g, '"').replace(/%0[DA]/gi, ' ');
  const last = decoded.split(/[/\\]/).pop() ?? '';
  const clean = [...last]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255);
  return clean && clean !== '.' && clean !== '..' ? clean : 'file';
}

const refuse = (code: string, status = 400, details: Record<string, unknown> = {}) =>
  new AppError(code, status, { fields: { file: [code] }, ...details });

async function thumbnail(file: string): Promise<Buffer> {
  try {
    return await sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
  } catch {
    throw refuse('FILE_UNREADABLE');
  }
}

/**
 * Reads a multipart request body. `prefix` is where the keys go (the tenant's schema name);
 * `maxFileBytes` the tenant's size limit per file. Resolves when every file is stored.
 */
export async function receiveFiles(
  body: Readable,
  headers: Record<string, string | string[] | undefined>,
  options: {
    prefix: string;
    maxFileBytes: number;
    timeoutMs?: number;
    maxFiles?: number;
    /** The largest text field (busboy's fieldSize); 10,000 characters unless told. */
    maxFieldBytes?: number;
    /** What a file is and whether it is allowed; the file store's allow-list (inspectFile) unless told. */
    inspect?: (file: string, size: number) => Promise<FileType>;
    /**
     * Files are optional (a form whose photos may be left out): a part without a file name (a
     * file input left empty) is skipped, and a request without files is no FILE_MISSING.
     */
    optional?: boolean;
  },
): Promise<Received> {
  const type = String(headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) throw refuse('FILE_MISSING');
  const store = getFileStore();
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ordo-upload-'));
  const stored: string[] = [];
  const files: ReceivedFile[] = [];
  const fields: Record<string, string> = {};
  const maxFiles = options.maxFiles ?? MAX_FILES_PER_UPLOAD;

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: headers as IncomingHttpHeaders,
      limits: {
        fileSize: options.maxFileBytes + 1,
        files: maxFiles,
        fields: 20,
        fieldSize: options.maxFieldBytes ?? 10_000,
        parts: 60,
      },
      defParamCharset: 'utf8',
    });
  } catch {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    throw refuse('FILE_MISSING');
  }

  const work: Promise<void>[] = [];
  const abort = new AbortController();
  let failure: unknown = null;
  const fail = (e: unknown) => {
    failure ??= e;
    abort.abort();
    body.unpipe(bb);
    body.resume(); // let the client finish sending, so it reads our answer
  };

  const one = async (index: number, name: string | undefined, stream: Readable & { truncated?: boolean }) => {
    const temp = path.join(tmp, randomUUID());
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _e, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(stream, count, fs.createWriteStream(temp), { signal: abort.signal });
    // busboy stops one byte past the limit: a file of exactly the limit passes
    if (stream.truncated || size > options.maxFileBytes)
      throw refuse('FILE_TOO_LARGE', 413, { limits: { file: Math.floor(options.maxFileBytes / 1024 / 1024) } });
    const type = await (options.inspect ?? inspectFile)(temp, size);
    const thumb = type.image ? await thumbnail(temp) : null;
    const key = `${options.prefix}/${randomUUID()}`;
    stored.push(key);
    await store.put(key, fs.createReadStream(temp), { contentType: type.contentType });
    let thumbKey: string | null = null;
    if (thumb) {
      thumbKey = `${key}-thumb`;
      stored.push(thumbKey);
      await store.put(thumbKey, Readable.from([thumb]), { contentType: 'image/webp' });
    }
    await fs.promises.rm(temp, { force: true });
    files[index] = { storageKey: key, thumbKey, name: cleanFileName(name), size, contentType: type.contentType };
  };

  let chain = Promise.resolve();
  let count = 0;
  bb.on('file', (_field, stream, info) => {
    if (failure || (options.optional && !info.filename)) return void stream.resume();
    // every file's bytes go to disk at once (busboy waits for them); the checks run one at a time
    const started = one(count++, info.filename, stream);
    started.catch(() => undefined); // observed through the chain
    chain = chain.then(() => started);
    work.push(chain.catch(fail));
  });
  bb.on('field', (name, value) => {
    if (name.includes(NUL) || value.includes(NUL))
      fail(
        new AppError('VALIDATION_FAILED', 400, {
          fields: { [name.replaceAll(NUL, '\\0')]: ['ERROR_INVALID_CHARACTER'] },
        }),
      );
    else fields[name] = value;
  });
  bb.on('filesLimit', () => fail(refuse('FILE_TOO_MANY', 400, { limits: { file: maxFiles } })));

  const finished = new Promise<void>((resolve, reject) => {
    bb.on('close', resolve);
    bb.on('error', () => reject(refuse('FILE_TRUNCATED')));
    body.on('aborted', () => reject(refuse('FILE_TRUNCATED')));
    body.on('error', () => reject(refuse('FILE_TRUNCATED')));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('UPLOAD_TIMEOUT', 408)), options.timeoutMs ?? UPLOAD_TIMEOUT_MS);
  });

  try {
    body.pipe(bb);
    await Promise.race([finished, timeout]);
    await Promise.race([Promise.all(work), timeout]);
    await chain.catch(() => undefined);
    if (failure) throw failure;
    if (!files.length && !options.optional) throw refuse('FILE_MISSING');
    return { files, fields };
  } catch (e) {
    fail(e);
    await chain.catch(() => undefined);
    await deleteStored(stored);
    throw e;
  } finally {
    clearTimeout(timer);
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}

/** Removes what `receiveFiles` stored, when the unit of work that should have recorded it failed. */
export function discardReceived(received: Received): Promise<void> {
  return deleteStored(received.files.flatMap((f) => [f.storageKey, ...(f.thumbKey ? [f.thumbKey] : [])]));
}
