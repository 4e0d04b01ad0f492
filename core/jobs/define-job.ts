import { UUID_PATTERN } from '~/core/errors/validation';
import type { z } from 'zod';
import { withControl, withTenant, type Trx } from '~/core/db/with-tenant';
import { logContext, logger, type Logger } from '~/core/log/logger';
import type { Tenant } from '~/core/tenancy/tenant';
import { toTenant } from '~/tenants/registry';

/** What every handler receives besides its payload. */
export interface JobContext {
  /** The id of this queued run (BullMQ job id or control.jobs row id), not the definition id. */
  jobId: string;
  /** 1 for the first try; handlers with side effects outside the database can use it to stay idempotent. */
  attempt: number;
  /** Taken once when the run starts, so everything the handler does agrees on the time. */
  now: Date;
  log: Logger;
}

/** A tenant-scoped handler also gets the tenant and the transaction `withTenant` opened for it. */
export interface TenantJobContext extends JobContext {
  trx: Trx;
  tenant: Tenant;
}

export const DEFAULT_ATTEMPTS = 3;

/**
 * A job as the queues see it. The handler is declared as a method so that a definition for a
 * specific schema still fits a `JobDefinition<z.ZodType>[]` (method parameters are bivariant).
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  readonly id: string;
  readonly schema: S;
  /** When true the payload carries `tenantId` and the handler runs inside `withTenant`. */
  readonly tenantScoped: boolean;
  /** Total tries (first run included) before the run is marked failed. */
  readonly attempts: number;
  /**
   * 'sweep' for a scheduled walk over every tenant: it runs in a slot of its own, so however many
   * tenants it walks, the 'work' slots stay free for what a person waits on (an agreement run, a
   * document mail, an ERP delivery kicked by a click).
   */
  readonly lane: JobLane;
  handler(data: z.output<S>, ctx: JobContext | TenantJobContext): Promise<unknown>;
}

/** A payload the job's schema refuses: a programming error at the call site, so never retried. */
export class JobPayloadError extends Error {
  constructor(
    readonly jobDefinitionId: string,
    readonly issues: z.core.$ZodIssue[],
    detail: string,
  ) {
    super(`Invalid payload for job "${jobDefinitionId}": ${detail}`);
    this.name = 'JobPayloadError';
  }
}

/**
 * Thrown (by the runner, or by a handler) when trying again cannot help: a payload that no longer
 * matches the schema, a tenant that is gone or disabled, a mail address the server rejects for good.
 * Both backends mark the run failed at once instead of spending the remaining attempts.
 */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export type JobLane = 'work' | 'sweep';

const JOB_DEFINITION_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;

interface JobSpec<S extends z.ZodType, C> {
  /** Stable name stored with every queued run; renaming it orphans runs already queued. */
  id: string;
  schema: S;
  attempts?: number;
  /** Default 'work'; see JobDefinition.lane. */
  lane?: JobLane;
  handler: (data: z.output<S>, ctx: C) => Promise<unknown>;
}

/**
 * Declares a job once, so the enqueuing side and the worker share one schema: a bad payload is
 * refused where it is created (with a stack trace pointing at the caller), not minutes later in a
 * worker. Tenant-scoped jobs must have `tenantId: string` in their payload type.
 */
export function defineJob<S extends z.ZodType<{ tenantId: string }>>(
  spec: JobSpec<S, TenantJobContext> & { tenantScoped: true },
): JobDefinition<S>;
export function defineJob<S extends z.ZodType>(
  spec: JobSpec<S, JobContext> & { tenantScoped?: false },
): JobDefinition<S>;
export function defineJob<S extends z.ZodType>(spec: JobSpec<S, never> & { tenantScoped?: boolean }): JobDefinition<S> {
  if (!JOB_DEFINITION_ID.test(spec.id)) {
    throw new Error(`Invalid job id ${JSON.stringify(spec.id)}: use lower-case words separated by dots`);
  }
  const attempts = spec.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 25) {
    throw new Error(`Job ${spec.id}: attempts must be an integer from 1 to 25`);
  }
  return {
    id: spec.id,
    schema: spec.schema,
    tenantScoped: spec.tenantScoped === true,
    attempts,
    lane: spec.lane ?? 'work',
    handler: spec.handler as JobDefinition<S>['handler'],
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
}

/**
 * Checks a payload before it is queued and returns it unchanged. The input (not the parsed output)
 * is what gets stored, because the worker parses it again: storing output would apply transforms
 * and defaults twice.
 */
export function validatePayload<S extends z.ZodType>(def: JobDefinition<S>, data: z.input<S>): z.input<S> {
  const result = def.schema.safeParse(data);
  if (!result.success) throw new JobPayloadError(def.id, result.error.issues, describeIssues(result.error));
  if (def.tenantScoped) {
    const tenantId = (result.data as { tenantId?: unknown } | null)?.tenantId;
    if (typeof tenantId !== 'string' || !UUID_PATTERN.test(tenantId)) {
      throw new JobPayloadError(def.id, [], 'tenantId must be a tenant uuid');
    }
  }
  // A payload travels as JSON; something JSON cannot carry (a Date, a Map) would arrive changed.
  const json = JSON.stringify(data);
  if (json === undefined || !def.schema.safeParse(JSON.parse(json)).success) {
    throw new JobPayloadError(def.id, [], 'the payload does not survive JSON serialisation');
  }
  return data;
}

async function findTenant(tenantId: string): Promise<Tenant | null> {
  if (!UUID_PATTERN.test(tenantId)) return null;
  const row = await withControl((trx) => trx('tenants').where({ id: tenantId }).first());
  return row ? toTenant(row) : null;
}

/**
 * Runs one attempt of a job: parse again (the stored payload may predate a schema change), then
 * call the handler, inside `withTenant` for tenant-scoped jobs. Both backends call this, so a
 * handler behaves the same on Redis and on the embedded queue. Errors propagate to the backend,
 * which decides between retry and failure; `PermanentJobError` means "do not retry".
 */
export async function runJob(
  def: JobDefinition,
  rawData: unknown,
  meta: { jobId: string; attempt: number; now?: Date },
): Promise<void> {
  const parsed = def.schema.safeParse(rawData);
  if (!parsed.success) {
    throw new PermanentJobError(`Invalid payload for job "${def.id}": ${describeIssues(parsed.error)}`);
  }
  const fields: Record<string, unknown> = { job: def.id, jobId: meta.jobId, attempt: meta.attempt };
  const base: JobContext = {
    jobId: meta.jobId,
    attempt: meta.attempt,
    now: meta.now ?? new Date(),
    log: logger.child(fields),
  };
  if (!def.tenantScoped) {
    await logContext.run(fields, () => def.handler(parsed.data, base));
    return;
  }
  const tenantId = (parsed.data as { tenantId?: unknown }).tenantId;
  const tenant = typeof tenantId === 'string' ? await findTenant(tenantId) : null;
  if (!tenant) throw new PermanentJobError(`Job "${def.id}": tenant ${JSON.stringify(tenantId)} does not exist`);
  // A disabled tenant's data must not change behind the operator's back; provisioning tenants may
  // still need jobs (welcome mail, seeding), so only 'disabled' is refused.
  if (tenant.status === 'disabled') {
    throw new PermanentJobError(`Job "${def.id}": tenant ${tenant.slug} is disabled`);
  }
  const tenantFields = { ...fields, tenant: tenant.slug };
  const log = logger.child(tenantFields);
  await logContext.run(tenantFields, () =>
    withTenant(tenant, (trx) => def.handler(parsed.data, { ...base, log, trx, tenant })),
  );
}
