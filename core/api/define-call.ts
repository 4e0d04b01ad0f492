import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Auth, Ctx } from '~/core/context';
import type { Tenant } from '~/core/tenancy/tenant';
import type { Access } from '~/core/permissions/access';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Request facts a call may need beyond its input (sign-in needs the address and old token). */
export interface CallMeta {
  ip: string | null;
  userAgent: string | null;
  token: string | null;
  /** The Range header of a download (a video's seek). */
  range?: string | null;
}

/**
 * A reply with a status other than 200 whose work still commits (a rejected sign-in must keep
 * its failure count). Errors that should roll back are thrown as AppError instead.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Headers for a body that is not JSON (a CSV download); the body is then sent as it is. */
    readonly headers?: Record<string, string>,
  ) {}
}

/** A reply streamed after the unit of work (a file download): status, headers and the bytes. */
export class StreamReply {
  constructor(
    readonly status: number,
    readonly body: Readable,
    readonly headers: Record<string, string>,
  ) {}
}

/**
 * A request body read before the unit of work opens (an upload: the bytes stream into the file
 * store, however long that takes, without holding a database connection). Its result reaches the
 * handler as `input.received`; when the handler fails, `discard` undoes it.
 */
export interface ReceiveBody<R = unknown> {
  read(
    body: Readable,
    headers: Record<string, string | string[] | undefined>,
    scope: { tenant: Tenant; auth: Auth | null; input: Record<string, unknown> },
  ): Promise<R>;
  discard(received: R): Promise<void>;
}

export interface ApiCall<S extends z.ZodType = z.ZodType> {
  method: Method;
  /** Path under /api, in the catalogue's shape, with `:name` parameters. */
  path: string;
  access: Access;
  /** Body (POST/PUT/PATCH) or query (GET/DELETE) merged with path parameters. */
  input: S;
  summary: string;
  /**
   * `false` for a call answered from who is asking alone (keepalive): no transaction is opened,
   * and `ctx.trx` throws if touched. Every other call runs in one tenant transaction.
   */
  unitOfWork?: false;
  receive?: ReceiveBody;
  handler(ctx: Ctx, input: z.infer<S>, meta: CallMeta): Promise<unknown>;
}

export function defineCall<S extends z.ZodType>(call: ApiCall<S>): ApiCall<S> {
  return call;
}
