import type { Readable } from 'node:stream';
import { z } from 'zod';
import { parseInput } from '~/core/errors/validation';
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

/**
 * A customer-zone call (decision 061): its path is under /zone/, it is declared `zone` (or public:
 * signing in), and it reads the zone's session only. Every other call reads the staff session only.
 */
export function isZoneCall(call: Pick<ApiCall, 'path'>): boolean {
  return call.path.startsWith('/zone/');
}

/** Schemas made by `asSent`, with what checks the input: it is handed on as it came. */
const checkedOnly = new WeakMap<z.ZodType, z.ZodType>();
/** Schemas made by `shownOnly`: documentation; the service alone checks the input. */
const uncheckedAtBoundary = new WeakSet<z.ZodType>();

/**
 * A call's input declared with the schema its service parses (issue 29): the router refuses what
 * the schema refuses (400 {code, fields}) and /api/openapi.json shows its shape, but the handler
 * gets the input as it was sent, because the service parses it again (the UI's routes call the same
 * service with raw form data) and a schema that transforms (text to number or date, '' to null) is
 * not safe to run twice. The schema is a copy, so the service's own schema is not marked.
 * `checkWith` checks instead when the service reads a body that may come wrapped (`{proposal}` or
 * the proposal itself), so the errors name the same fields as the service's.
 */
export function asSent<S extends z.ZodType>(schema: S, checkWith?: z.ZodType): z.ZodType<z.input<S>, z.input<S>> {
  const copy = schema.clone();
  checkedOnly.set(copy, checkWith ?? copy);
  return copy as unknown as z.ZodType<z.input<S>, z.input<S>>;
}

/**
 * Like `asSent`, but the router does not check the input: for a call whose service must answer
 * something else before it reads the body (another tenant's object is 404 before the body is read,
 * decision 020). /api/openapi.json still shows the shape; the service refuses a bad one.
 */
export function shownOnly<S extends z.ZodType>(schema: S): z.ZodType<z.input<S>, z.input<S>> {
  const copy = schema.clone();
  uncheckedAtBoundary.add(copy);
  return copy as unknown as z.ZodType<z.input<S>, z.input<S>>;
}

/**
 * What a call's handler gets from what was sent (body or query with the path parameters): the
 * parsed input, or for an `asSent` or `shownOnly` schema the input as it came. A zod error is a
 * 400 VALIDATION_FAILED with the fields.
 */
export function callInput(schema: z.ZodType, sent: unknown): unknown {
  if (uncheckedAtBoundary.has(schema)) return sent;
  const checker = checkedOnly.get(schema);
  if (!checker) return parseInput(schema, sent);
  parseInput(checker, sent);
  return sent;
}

/**
 * A body checked as its service reads it: the entity under `key` (`{proposal}`, `{row}`) or the
 * body itself, so the errors name the entity's fields plainly. For `asSent`'s `checkWith`.
 */
export const unwrapped = (key: string, schema: z.ZodType, whenMissing?: unknown) =>
  z.preprocess((v) => (v as Record<string, unknown> | undefined)?.[key] ?? whenMissing ?? v, schema);

/**
 * A body whose entity must come wrapped (`{customer: {…}}`, `{article: {…}}`) because the handler
 * hands the service `input[key]`: shown wrapped, and checked with the service's schema on the
 * entity itself, so the errors name its fields plainly (`name`, not `customer.name`), as the
 * service's do; a missing or non-object entity is `key`: ERROR_REQUIRED_FIELD.
 */
export const wrappedIn = <S extends z.ZodObject>(key: string, schema: S) =>
  asSent(
    z.object({ [key]: schema }),
    z
      .object({ [key]: z.record(z.string(), z.unknown(), { error: 'ERROR_REQUIRED_FIELD' }) })
      .transform((v) => v[key])
      .pipe(schema),
  );
