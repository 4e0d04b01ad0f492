/**
 * What an uploaded file really is, read from its bytes (ASVS 5.x: the type is checked by magic
 * bytes against an allow-list, never by its name or the browser's word), and whether it is whole.
 * Runs on the upload's temporary copy on disk, so it can read the start, the end and a zip's
 * central directory without holding the file in memory.
 */
import fs from 'node:fs';
import yauzl from 'yauzl';
import { AppError } from '~/core/errors/app-error';

export interface FileType {
  contentType: string;
  /** The extension a download is given when its name has none. */
  extension: string;
  /** An image sharp can read: it gets a re-encoded thumbnail. */
  image?: boolean;
  /** Shown in the browser (preview) rather than only downloaded. */
  inline?: boolean;
}

/** A zip (or an Office document, which is one) may unpack to at most this many bytes… */
export const MAX_ARCHIVE_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** …at most this many times its packed size (a zip bomb packs at ratios of 1,000 and more)… */
export const MAX_ARCHIVE_RATIO = 100;
/** …and hold at most this many entries. */
export const MAX_ARCHIVE_ENTRIES = 10_000;

const HEAD = 64;
const TAIL = 1024;

const TYPES = {
  pdf: { contentType: 'application/pdf', extension: 'pdf', inline: true },
  png: { contentType: 'image/png', extension: 'png', image: true, inline: true },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg', image: true, inline: true },
  gif: { contentType: 'image/gif', extension: 'gif', image: true, inline: true },
  webp: { contentType: 'image/webp', extension: 'webp', image: true, inline: true },
  heic: { contentType: 'image/heic', extension: 'heic' },
  mp4: { contentType: 'video/mp4', extension: 'mp4', inline: true },
  mov: { contentType: 'video/quicktime', extension: 'mov', inline: true },
  webm: { contentType: 'video/webm', extension: 'webm', inline: true },
  zip: { contentType: 'application/zip', extension: 'zip' },
  docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  pptx: { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', extension: 'pptx' },
  ole: { contentType: 'application/x-ole-storage', extension: 'doc' },
  dwg: { contentType: 'image/vnd.dwg', extension: 'dwg' },
} satisfies Record<string, FileType>;

/** The content types an upload may have (for the file picker's `accept` and the API docs). */
export const ALLOWED_CONTENT_TYPES = [...new Set(Object.values(TYPES).map((t) => t.contentType))];

/** Content types shown in the page: a download of anything else is always an attachment. */
export function isInlineType(contentType: string | null): boolean {
  return Object.values(TYPES).some((t) => t.contentType === contentType && 'inline' in t && t.inline);
}

export function isImageType(contentType: string | null): boolean {
  return Object.values(TYPES).some((t) => t.contentType === contentType && 'image' in t && t.image);
}

const refuse = (code: string) => new AppError(code, 400, { fields: { file: [code] } });

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Buffer, at: number, s: string) => b.toString('latin1', at, at + s.length) === s;

async function readAt(fd: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(Math.max(0, length));
  const { bytesRead } = await fd.read(buf, 0, buf.length, Math.max(0, position));
  return buf.subarray(0, bytesRead);
}

/** The ISO-BMFF boxes (mp4, mov, heic) at the top level must reach exactly the end of the file. */
async function boxesComplete(fd: fs.promises.FileHandle, size: number): Promise<boolean> {
  let at = 0;
  for (let n = 0; at < size && n < 100_000; n++) {
    const h = await readAt(fd, at, 16);
    if (h.length < 8) return false;
    let len = h.readUInt32BE(0);
    if (len === 1) {
      if (h.length < 16) return false;
      len = Number(h.readBigUInt64BE(8));
    } else if (len === 0) return true; // "to the end of the file"
    if (len < 8) return false;
    at += len;
  }
  return at === size;
}

function archiveEntries(file: string): Promise<{ names: Set<string>; unpacked: number; entries: number }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: false }, (err, zip) => {
      if (err || !zip) return reject(refuse('FILE_TRUNCATED'));
      const names = new Set<string>();
      let unpacked = 0;
      let entries = 0;
      zip.on('entry', (e: yauzl.Entry) => {
        entries++;
        unpacked += e.uncompressedSize;
        if (names.size < 50) names.add(e.fileName);
        if (entries > MAX_ARCHIVE_ENTRIES || unpacked > MAX_ARCHIVE_UNPACKED_BYTES) {
          zip.close();
          return resolve({ names, unpacked, entries });
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve({ names, unpacked, entries }));
      zip.on('error', () => reject(refuse('FILE_TRUNCATED')));
      zip.readEntry();
    });
  });
}

/**
 * The type of the file at `file` (`size` bytes) from the allow-list, or a refusal:
 * FILE_EMPTY (0 bytes), FILE_TYPE_NOT_ALLOWED (not on the list, whatever its name says),
 * FILE_TRUNCATED (its end is missing), FILE_ARCHIVE_TOO_LARGE (a zip that unpacks too far).
 */
export async function inspectFile(file: string, size: number): Promise<FileType> {
  if (size === 0) throw refuse('FILE_EMPTY');
  const fd = await fs.promises.open(file, 'r');
  try {
    const head = await readAt(fd, 0, HEAD);
    const tail = await readAt(fd, size - TAIL, TAIL);
    const whole = (ok: boolean) => {
      if (!ok) throw refuse('FILE_TRUNCATED');
    };
    if (ascii(head, 0, '%PDF-')) {
      whole(tail.includes('%%EOF'));
      return TYPES.pdf;
    }
    if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
      whole(tail.includes(Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])));
      return TYPES.png;
    }
    if (startsWith(head, [0xff, 0xd8, 0xff])) {
      // the end-of-image marker; some cameras append a little after it
      whole(tail.includes(Buffer.from([0xff, 0xd9])));
      return TYPES.jpeg;
    }
    if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) {
      whole(tail[tail.length - 1] === 0x3b);
      return TYPES.gif;
    }
    if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) {
      whole(head.readUInt32LE(4) + 8 <= size);
      return TYPES.webp;
    }
    if (ascii(head, 4, 'ftyp')) {
      const brand = head.toString('latin1', 8, 12);
      const type = ['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)
        ? TYPES.heic
        : brand === 'qt  '
          ? TYPES.mov
          : TYPES.mp4;
      whole(await boxesComplete(fd, size));
      return type;
    }
    if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return TYPES.webm;
    if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return TYPES.ole;
    if (ascii(head, 0, 'AC10') || ascii(head, 0, 'AC1.')) return TYPES.dwg;
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
      const zip = await archiveEntries(file);
      if (
        zip.entries > MAX_ARCHIVE_ENTRIES ||
        zip.unpacked > MAX_ARCHIVE_UNPACKED_BYTES ||
        zip.unpacked > size * MAX_ARCHIVE_RATIO
      )
        throw refuse('FILE_ARCHIVE_TOO_LARGE');
      if (zip.names.has('word/document.xml')) return TYPES.docx;
      if (zip.names.has('xl/workbook.xml')) return TYPES.xlsx;
      if (zip.names.has('ppt/presentation.xml')) return TYPES.pptx;
      return TYPES.zip;
    }
    throw refuse('FILE_TYPE_NOT_ALLOWED');
  } finally {
    await fd.close();
  }
}
