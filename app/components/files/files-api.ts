/**
 * The browser's side of the file calls (core/api/calls/files.calls.ts): the file browser talks to
 * the API with the session cookie, so a page and an API client use the very same rules. Uploads go
 * through XMLHttpRequest, the one browser API that reports upload progress.
 */
import type { FileEntry, FileListing } from '~/core/files/files.service';

export type { FileEntry, FileListing };

/** A refusal of a file call: its code, field errors and limits (as the API answers them). */
export class FileCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fields: Record<string, string[]> = {},
    readonly limits: Record<string, number> = {},
  ) {
    super(code);
  }
}

async function refusal(res: Response): Promise<FileCallError> {
  const body = (await res.json().catch(() => ({}))) as {
    code?: string;
    fields?: Record<string, string[]>;
    limits?: Record<string, number>;
  };
  return new FileCallError(
    res.status,
    body.code ?? (res.status >= 500 ? 'SERVER_ERROR' : 'FAILED_TO_FETCH'),
    body.fields,
    body.limits,
  );
}

export async function fileCall<T>(method: string, url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new FileCallError(0, 'FAILED_TO_FETCH');
  }
  if (!res.ok) throw await refusal(res);
  return (await res.json()) as T;
}

/** Where a kind's files are: a record's (`/api/file/generic/wo/<id>`) or the drive's. */
export function filesBase(kind: string, ownerId?: string): string {
  return kind === 'drive' ? '/api/file/drive' : `/api/file/generic/${kind}/${ownerId}`;
}

/** The upload's time limit (spec section 9: 60 s). */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** Uploads one file, reporting progress from 0 to 1; resolves with the stored entries. */
export async function uploadFile(
  url: string,
  file: File,
  folderId: string | null,
  onProgress: (fraction: number) => void,
): Promise<FileEntry[]> {
  const body = await postFile<{ files?: FileEntry[] }>(url, file, onProgress, folderId ? { folderId } : {});
  if (!body.files) throw new FileCallError(200, 'FAILED_TO_UPLOAD_FILE');
  return body.files;
}

/**
 * Posts one file as multipart/form-data (`file`, and any `fields`) with the session cookie,
 * reporting progress from 0 to 1; resolves with the JSON answer, or rejects with the refusal.
 */
export function postFile<T>(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  fields: Record<string, string> = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as {
        code?: string;
        fields?: Record<string, string[]>;
        limits?: Record<string, number>;
      };
      if (xhr.status === 200) return resolve(body as T);
      reject(new FileCallError(xhr.status, body.code ?? 'FAILED_TO_UPLOAD_FILE', body.fields, body.limits));
    };
    xhr.onerror = () => reject(new FileCallError(0, 'FAILED_TO_UPLOAD_FILE'));
    xhr.ontimeout = () => reject(new FileCallError(408, 'UPLOAD_TIMEOUT'));
    xhr.send(form);
  });
}

/** "1.2 MB": the size in the largest unit that keeps it at or above 1. */
export function sizeParts(bytes: number): { key: 'bytes' | 'kilobytes' | 'megabytes' | 'gigabytes'; n: number } {
  if (bytes < 1024) return { key: 'bytes', n: bytes };
  if (bytes < 1024 * 1024) return { key: 'kilobytes', n: Math.round(bytes / 1024) };
  if (bytes < 1024 * 1024 * 1024) return { key: 'megabytes', n: Math.round((bytes / 1024 / 1024) * 10) / 10 };
  return { key: 'gigabytes', n: Math.round((bytes / 1024 / 1024 / 1024) * 10) / 10 };
}

/** What the file input offers: the types the server accepts, so a phone offers its camera too. */
export const ACCEPT = 'image/*,video/*,application/pdf,.docx,.xlsx,.pptx,.doc,.xls,.zip,.dwg,.heic';
