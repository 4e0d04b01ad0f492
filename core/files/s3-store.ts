/**
 * The FileStore on an S3-compatible bucket (AWS S3, MinIO, Ceph, …), for servers of several
 * processes or machines that cannot share DATA_DIR. A body of unknown length is streamed as a
 * multipart upload of 5 MiB parts, so at most a few parts are in memory, never the whole file. An
 * object only appears once its last part is in: when the input fails, the error reaches the
 * upload through its own stream and lib-storage aborts the multipart upload, so neither an object
 * nor orphaned parts (which S3 bills until they are aborted) are left behind. A body shorter than
 * one part is sent as a single PutObject once it has been read whole, so a stream that fails
 * before its end never reaches the bucket.
 */
import { Transform, pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertKey,
  FileNotStored,
  type ByteRange,
  type FileStore,
  type StoredKey,
  type StoredObject,
} from './file-store';

export interface S3FileStoreOptions {
  /** An S3-compatible server (`http://minio:9000`); none for AWS itself. */
  endpoint?: string;
  bucket: string;
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys are stored under `<prefix>/`, when a bucket is shared with other data. */
  prefix?: string;
  /** Keys per page of `list` (S3's own limit and default: 1,000); the tests page by a few. */
  listPageSize?: number;
}

/** An error answered by the server (not a network failure) under one of these names. */
function isS3Error(e: unknown, ...names: string[]): boolean {
  return e instanceof S3ServiceException && names.includes(e.name);
}

export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly listPageSize: number | undefined;

  constructor(options: S3FileStoreOptions) {
    this.bucket = options.bucket;
    this.listPageSize = options.listPageSize;
    this.prefix = options.prefix ? `${assertKey(options.prefix.replace(/\/+$/, ''))}/` : '';
    this.client = new S3Client({
      region: options.region || 'us-east-1',
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Other servers than AWS seldom have a DNS name per bucket: the bucket goes in the path.
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    });
  }

  private objectKey(key: string): string {
    return this.prefix + assertKey(key);
  }

  async put(key: string, body: Readable, options?: { contentType?: string }): Promise<{ size: number }> {
    const Key = this.objectKey(key);
    let size = 0;
    let inputError: Error | undefined;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // A failing input destroys `count` with its error; lib-storage reads that error from the
    // stream it is given, stops, waits for the parts in flight and aborts the multipart upload.
    pipeline(body, count, (err) => {
      if (err) inputError ??= err;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: count, ContentType: options?.contentType },
    });
    try {
      await upload.done();
    } catch (e) {
      // Read before destroying `count`: that makes the pipeline report a premature close.
      const failedInput = inputError;
      // When the upload failed on its own (the server refused a part), the input is let go
      // (lib-storage closes the stream it was reading when it stops early; this makes sure).
      count.destroy();
      // lib-storage throws the abort's error instead of the first one when aborting fails too:
      // the caller hears that its stream failed, with the abort's failure as the cause.
      if (failedInput && e !== failedInput) {
        failedInput.cause ??= e;
        throw failedInput;
      }
      throw e;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    const Key = this.objectKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = out.Body as Readable;
      let size = out.ContentLength;
      if (range) {
        // `bytes 2-5/10`: the whole size follows the slash. A server that ignored the Range
        // header would send the whole object, which is not what was asked for.
        const total = /^bytes \d+-\d+\/(\d+)$/.exec(out.ContentRange ?? '')?.[1];
        if (!total) {
          body.destroy();
          throw new Error(`The S3 server answered a range request for ${key} without a Content-Range`);
        }
        size = Number(total);
      }
      if (size === undefined) throw new Error(`The S3 server gave no length for ${key}`);
      return { body, size };
    } catch (e) {
      if (isS3Error(e, 'NoSuchKey')) throw new FileNotStored(key);
      throw e;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0 };
    } catch (e) {
      // A HEAD answer has no body: a missing key is only a 404, which the SDK names NotFound.
      if (isS3Error(e, 'NotFound', 'NoSuchKey')) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a missing key as well.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<StoredKey> {
    const Prefix = `${this.objectKey(prefix)}/`;
    let Marker: string | undefined;
    for (;;) {
      // ListObjects (version 1) pages by Marker, the last key read: "If the response does not include
      // the NextMarker element and it is truncated, you can use the value of the last Key element in
      // the response as the marker parameter in the subsequent request" (Amazon S3 API reference,
      // ListObjects). Version 2's continuation tokens would do as well on S3 and MinIO, but the test
      // server (s3rver 3.7) makes them with a cipher OpenSSL 3 no longer has.
      const page = await this.client.send(
        new ListObjectsCommand({ Bucket: this.bucket, Prefix, Marker, MaxKeys: this.listPageSize }),
      );
      const objects = page.Contents ?? [];
      for (const o of objects) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, storedAt: o.LastModified ?? new Date(0) };
      }
      Marker = objects.at(-1)?.Key;
      if (!page.IsTruncated || !Marker) return;
    }
  }
}
