import { parseArgs } from 'node:util';
import { ConfigError, getConfig } from '~/core/config/env';
import { keyRing } from '~/core/crypto/secret-box';
import { DataDirLockedError } from '~/core/db/data-dir-lock';
import { withTenant } from '~/core/db/with-tenant';
import { AppError, isAppError } from '~/core/errors/app-error';
import { disablePlugin, enabledPlugins, enablePlugin } from '~/core/extension-points/tenant-plugins';
import { getRegistry, PluginError } from '~/core/extension-points/registry';
import { openRuntime, eachLimit } from '~/core/runtime/boot';
import { readOutbox } from '~/core/mail/mailer';
import { sweepOrphanFiles } from '~/core/files/orphans';
import { addDays, tenantDate } from '~/core/calendar/dates';
import { KEEP_DAYS, readLoadTimes } from '~/core/instance/load-metrics';
import { readOpsChannel } from '~/core/runtime/ops-channel';
import { addHost, migrateTenant, provisionTenant, removeHost, setFileLimits, setTenantStatus } from './provision';
import { getTenantBySlug, listTenants } from './registry';
import { rotateKeys, rotationText } from './rotate-key';

const USAGE = `Usage: npm run tenant -- <command> [options] [--json]

  create <slug> --name <name> --host <hostname> [--host …] --admin-email <email>
         [--admin-name <name>] [--country SE|EE|AU] [--language se|en|ee|lv] [--admin-password <pw>]
  list
  migrate <slug> | --all
  disable <slug>
  enable <slug>
  add-host <slug> <hostname>
  remove-host <slug> <hostname>
  plugins <slug>                          enabled plugins and every installed one
  enable-plugin <slug> <plugin-id> [--options '<json>']   (an ERP: chooses it; connect in Settings → ERP)
  disable-plugin <slug> <plugin-id>
  file-limits <slug> [--max-upload-mb N] [--quota-mb N]
                                          the largest upload and the storage quota (shown without options)
  outbox [--limit N]                      mail kept when SMTP_URL is not set
  sweep-files [<slug>…]                   delete stored files no row names, stored over a day ago
                                          (what a crash between storing and committing left; the
                                          worker does it every 6 hours)
  load-times <slug> [--days N]            the pages' load times the browsers reported (p50, p95), last 7 days
  rotate-key [<slug>…]                    re-seal every tenant's secrets under SECRET_KEY (the old key
                                          in SECRET_KEYS_OLD); each tenant in its own transaction

Provisioning is idempotent: running create again finishes an interrupted run.`;

function signInUrl(host: string, token: string): string {
  const config = getConfig();
  const base = config.httpsOnly ? `https://${host}` : `http://${host}:${config.PORT}`;
  return `${base}/welcome?t=${encodeURIComponent(token)}`;
}

async function run(argv: string[]): Promise<{ json: unknown; text: string }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      host: { type: 'string', multiple: true },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      'admin-password': { type: 'string' },
      country: { type: 'string' },
      language: { type: 'string' },
      all: { type: 'boolean' },
      limit: { type: 'string' },
      'max-upload-mb': { type: 'string' },
      'quota-mb': { type: 'string' },
      options: { type: 'string' },
      days: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...args] = positionals;
  if (!command || values.help) return { json: { usage: USAGE }, text: USAGE };

  switch (command) {
    case 'create': {
      const slug = args[0] ?? '';
      const hosts = values.host ?? (getConfig().BASE_DOMAIN ? [`${slug}.${getConfig().BASE_DOMAIN}`] : []);
      const result = await provisionTenant({
        slug,
        name: values.name ?? '',
        hosts,
        adminEmail: values['admin-email'] ?? '',
        adminName: values['admin-name'],
        adminPassword: values['admin-password'],
        country: (values.country?.toUpperCase() ?? 'SE') as 'SE',
        language: values.language as 'se' | undefined,
      });
      const link = result.signInToken ? signInUrl(hosts[0]!, result.signInToken) : null;
      const text = result.created
        ? `Tenant ${slug} is ready (schema ${result.schemaName}; steps: ${result.steps.join(' → ')}).` +
          (link ? `\nOne-time sign-in link for ${values['admin-email']} (valid 7 days):\n  ${link}` : '')
        : `Tenant ${slug} already exists and is provisioned; nothing changed.`;
      return { json: { ...result, signInUrl: link }, text };
    }
    case 'list': {
      const tenants = await listTenants();
      const text = tenants.length
        ? tenants
            .map((t) => `${t.slug.padEnd(20)} ${t.status.padEnd(12)} ${t.displayName} [${t.hosts.join(', ')}]`)
            .join('\n')
        : 'No tenants yet.';
      return { json: tenants, text };
    }
    case 'migrate': {
      // --all walks the tenants that are provisioned: one still provisioning migrates itself (its
      // create run holds the schema's migration lock), and one removed since the list is skipped.
      // A tenant that fails is reported beside the others, which still migrate.
      const slugs = values.all
        ? (await listTenants()).filter((t) => t.status !== 'provisioning').map((t) => t.slug)
        : args.slice(0, 1);
      if (!slugs.length && !values.all) throw new UsageError('migrate needs a slug or --all');
      const applied: Record<string, string[] | { error: { code: string; message: string } }> = {};
      await eachLimit(slugs, 4, async (slug) => {
        try {
          applied[slug] = await migrateTenant(slug);
        } catch (err) {
          if (!values.all) throw err;
          if (isAppError(err) && err.code === 'NOT_FOUND') return;
          applied[slug] = {
            error: { code: isAppError(err) ? err.code : 'MIGRATION_FAILED', message: (err as Error).message },
          };
          process.exitCode = 1;
        }
      });
      const text = Object.entries(applied)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, r]) =>
          Array.isArray(r) ? `${s}: ${r.length ? r.join(', ') : 'up to date'}` : `${s}: FAILED ${r.error.message}`,
        )
        .join('\n');
      return { json: applied, text: text || 'No tenants yet.' };
    }
    case 'disable':
    case 'enable': {
      const slug = args[0] ?? '';
      await setTenantStatus(slug, command === 'disable' ? 'disabled' : 'active');
      return {
        json: { slug, status: command === 'disable' ? 'disabled' : 'active' },
        text: `Tenant ${slug} ${command}d.`,
      };
    }
    case 'add-host':
    case 'remove-host': {
      const [slug = '', host = ''] = args;
      if (!host) throw new UsageError(`${command} needs a slug and a hostname`);
      await (command === 'add-host' ? addHost(slug, host) : removeHost(slug, host));
      return {
        json: { slug, host, action: command },
        text: `${command === 'add-host' ? 'Added' : 'Removed'} ${host} ${command === 'add-host' ? 'to' : 'from'} ${slug}.`,
      };
    }
    case 'plugins':
    case 'enable-plugin':
    case 'disable-plugin': {
      const [slug = '', pluginId = ''] = args;
      const tenant = await getTenantBySlug(slug);
      if (!tenant) throw new AppError('NOT_FOUND', 404, { message: `No tenant ${slug}` });
      const isErp = getRegistry().erpProviders.has(pluginId);
      if (command === 'enable-plugin' && isErp) {
        // the tenant's ERP lives in its schema (decision 025); its credentials come from Settings → ERP
        await withTenant(tenant, async (trx) => {
          const current = await trx('erp_connection').first('kind');
          if (current?.kind !== pluginId)
            await trx('erp_connection').update({
              kind: pluginId,
              credentials: null,
              connected_at: null,
              updated_at: new Date(),
            });
        });
      } else if (command === 'enable-plugin') {
        let options: unknown = {};
        try {
          options = values.options ? JSON.parse(values.options) : {};
        } catch {
          throw new UsageError('--options must be JSON');
        }
        await enablePlugin(getRegistry(), tenant.id, pluginId, options);
      } else if (command === 'disable-plugin' && isErp)
        await withTenant(tenant, (trx) =>
          trx('erp_connection')
            .where({ kind: pluginId })
            .update({ kind: 'none', credentials: null, connected_at: null }),
        );
      else if (command === 'disable-plugin') await disablePlugin(tenant.id, pluginId);
      const erp = await withTenant(
        tenant,
        async (trx) => ((await trx('erp_connection').first('kind'))?.kind as string) ?? 'none',
      );
      const enabled = [erp, ...(await enabledPlugins(tenant.id)).map((p) => p.pluginId)];
      const installed = [...getRegistry().ids].sort();
      return {
        json: { slug, enabled, installed },
        text: `${slug}: ERP ${erp === 'none' ? 'none (invoices stay in Ordo)' : erp}; enabled ${enabled.join(', ')}\ninstalled: ${installed.join(', ')}`,
      };
    }
    case 'file-limits': {
      const [slug = ''] = args;
      const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
      const limits = await setFileLimits(slug, {
        maxUploadMb: number(values['max-upload-mb']),
        quotaMb: number(values['quota-mb']),
      });
      return {
        json: { slug, ...limits },
        text: `${slug}: uploads up to ${limits.maxUploadMb} MB, ${limits.usedMb} of ${limits.quotaMb} MB stored`,
      };
    }
    case 'rotate-key': {
      const ring = keyRing();
      const results = await rotateKeys(ring, args);
      if (results.some((r) => r.error)) process.exitCode = 1;
      return { json: { keyId: ring.current.id, tenants: results }, text: rotationText(results, ring) };
    }
    case 'sweep-files': {
      const tenants = args.length
        ? await Promise.all(
            args.map(async (slug) => {
              const t = await getTenantBySlug(slug);
              if (!t) throw new UsageError(`No tenant "${slug}".`);
              return t;
            }),
          )
        : await listTenants({ status: 'active' });
      const swept = [];
      for (const t of tenants) swept.push({ slug: t.slug, ...(await sweepOrphanFiles(t)) });
      return {
        json: swept,
        text: swept
          .map(
            (s) =>
              `${s.slug}: ${s.removed.length} of ${s.examined} stored files removed (${s.bytes} bytes)` +
              s.removed.map((k) => `\n  ${k}`).join(''),
          )
          .join('\n'),
      };
    }
    case 'load-times': {
      const [slug = ''] = args;
      const tenant = await getTenantBySlug(slug);
      if (!tenant) throw new AppError('NOT_FOUND', 404, { message: `No tenant ${slug}` });
      const days = Math.max(1, Math.min(KEEP_DAYS, Math.trunc(Number(values.days ?? 7)) || 7));
      const since = addDays(tenantDate(new Date(), tenant.config.country), 1 - days);
      const pages = await withTenant(tenant, (trx) => readLoadTimes(trx, since));
      return {
        json: { slug, since, pages },
        text: pages.length
          ? pages.map((p) => `${p.name}: ${p.count} loads, p50 ≤ ${p.p50Ms} ms, p95 ≤ ${p.p95Ms} ms`).join('\n')
          : `${slug}: no load times since ${since}.`,
      };
    }
    case 'outbox': {
      const mails = await readOutbox({ limit: Number(values.limit ?? 20) });
      return { json: mails, text: outboxText(mails) };
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

class UsageError extends Error {}

function outboxText(mails: Awaited<ReturnType<typeof readOutbox>>): string {
  return mails.length
    ? mails
        .map(
          (m) => `#${m.id} ${new Date(m.createdAt).toISOString()} to ${m.to.join(', ')}: ${m.subject}\n${m.text ?? ''}`,
        )
        .join('\n\n')
    : 'The outbox is empty.';
}

/**
 * `outbox` while a server runs on the embedded database: its channel (core/runtime/ops-channel.ts)
 * answers. Null when the command is another, the database is PostgreSQL, or no server runs.
 */
async function outboxFromRunningServer(argv: string[]): Promise<{ json: unknown; text: string } | null> {
  const config = getConfig();
  if (!config.embedded || argv.find((a) => !a.startsWith('--')) !== 'outbox') return null;
  const channel = readOpsChannel(config.DATA_DIR);
  if (!channel) return null;
  const i = argv.indexOf('--limit');
  const limit = i >= 0 ? Number(argv[i + 1] ?? 20) : 20;
  try {
    const res = await fetch(`http://127.0.0.1:${channel.port}/_ops/outbox?limit=${limit}`, {
      headers: { authorization: `Bearer ${channel.token}` },
    });
    if (!res.ok) return null;
    const mails = (await res.json()) as Awaited<ReturnType<typeof readOutbox>>;
    return { json: mails, text: outboxText(mails) };
  } catch {
    return null; // the server is gone: its lock is stale, the database opens as usual
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  let runtime: Awaited<ReturnType<typeof openRuntime>> | undefined;
  try {
    // The embedded database is the running server's alone: ask it for the outbox instead.
    const asked = await outboxFromRunningServer(argv);
    if (asked) {
      console.log(json ? JSON.stringify(asked.json, null, 2) : asked.text);
      return;
    }
    runtime = await openRuntime(getConfig(), { waitAttempts: 3 });
    const out = await run(argv);
    console.log(json ? JSON.stringify(out.json, null, 2) : out.text);
  } catch (e) {
    let message: string;
    let code = 'ERROR';
    if (e instanceof UsageError) message = `${e.message}\n\n${USAGE}`;
    else if (isAppError(e)) {
      code = e.code;
      const fields = e.details?.fields
        ? Object.entries(e.details.fields)
            .map(([f, c]) => `${f}: ${c.join(', ')}`)
            .join('; ')
        : '';
      message = e.details?.message ?? (fields ? `Invalid input: ${fields}` : e.code);
    } else if (e instanceof ConfigError || e instanceof PluginError || e instanceof DataDirLockedError)
      message = e.message;
    else message = (e as Error).message ?? String(e);
    if (json) console.log(JSON.stringify({ error: { code, message } }, null, 2));
    else console.error(`Error: ${message}`);
    process.exitCode = 1;
  } finally {
    await runtime?.close();
  }
}

await main();
