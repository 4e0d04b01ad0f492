/**
 * A stored file as an HTTP answer: streamed from the FileStore, with its real type, never sniffed
 * (nosniff), shown in the page only for the types that can be (images, video, PDF) and otherwise
 * always an attachment, named after its display name (RFC 6266, with a plain fallback), and with
 * byte ranges so a video can seek. "Download all" streams a zip, built as it is sent.
 */
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import { StreamReply } from '~/core/api/define-call';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import type { FileDownload } from './files.service';
import { getFileStore } from './store';

/** Content-Disposition for a name that may hold anything: an ASCII fallback and the UTF-8 form. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_').slice(0, 150) || 'file';
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The one `bytes=a-b` range of a Range header within `size`, `null` for none, 'invalid' when unsatisfiable. */
export function parseRange(
  header: string | null | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or a unit we do not know: the whole file
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

const common = (contentType: string): Record<string, string> => ({
  'Content-Type': contentType,
  'X-Content-Type-Options': 'nosniff',
  // a file shown in its own tab runs nothing, whatever it holds; a PDF goes to the browser's own
  // viewer, which a sandboxed document may not open, and never runs the page's scripts anyway
  ...(contentType === 'application/pdf'
    ? {}
    : {
        'Content-Security-Policy':
          "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      }),
  'Cache-Control': 'private, no-cache',
});

/**
 * The file as an answer, read from the store once the unit of work that found it committed
 * (decision 049: no file-store call inside a transaction).
 */
export function downloadReply(
  d: FileDownload,
  options: { range?: string | null; attachment?: boolean } = {},
): AfterCommitWork<StreamReply> {
  return thenAfterCommit(() => streamStored(d, options));
}

async function streamStored(
  d: FileDownload,
  options: { range?: string | null; attachment?: boolean },
): Promise<StreamReply> {
  const store = getFileStore();
  const disposition = contentDisposition(d.inline && !options.attachment ? 'inline' : 'attachment', d.name);
  const size = d.size >= 0 ? d.size : ((await store.stat(d.storageKey))?.size ?? 0);
  const range = parseRange(options.range, size);
  if (range === 'invalid') {
    const empty = new PassThrough();
    empty.end();
    return new StreamReply(416, empty, { ...common(d.contentType), 'Content-Range': `bytes */${size}` });
  }
  const got = await store.get(d.storageKey, range ?? undefined);
  const headers: Record<string, string> = {
    ...common(d.contentType),
    'Content-Disposition': disposition,
    'Accept-Ranges': 'bytes',
    'Content-Length': String(range ? range.end - range.start + 1 : got.size),
  };
  if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${got.size}`;
  return new StreamReply(range ? 206 : 200, got.body, headers);
}

/** Names made unique within a zip: `a.pdf`, `a (2).pdf`. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((raw) => {
    const name = raw.replace(/[/\\]/g, '_');
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    if (n === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  });
}

/**
 * "Download all": the files as one zip, each read from the store only when the zip reaches it,
 * which is after the unit of work that listed them committed.
 */
export function archiveReply(files: readonly FileDownload[], name: string): AfterCommitWork<StreamReply> {
  return thenAfterCommit(async () => zipOf(files, name));
}

function zipOf(files: readonly FileDownload[], name: string): StreamReply {
  const store = getFileStore();
  const zip = new yazl.ZipFile();
  const names = uniqueNames(files.map((f) => f.name));
  files.forEach((f, i) => {
    zip.addReadStreamLazy(names[i]!, { compress: !/^(image|video)\//.test(f.contentType), size: f.size }, (cb) => {
      store.get(f.storageKey).then(
        (got) => cb(null, got.body),
        (err: unknown) => cb(err, undefined as unknown as Readable),
      );
    });
  });
  zip.end();
  return new StreamReply(200, zip.outputStream as Readable, {
    ...common('application/zip'),
    'Content-Disposition': contentDisposition('attachment', `${name}.zip`),
  });
}
