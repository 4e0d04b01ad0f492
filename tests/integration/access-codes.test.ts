import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import { moveCode, moveCodeGroup } from '~/core/business-objects/access-codes.service';
import { withTenant } from '~/core/db/with-tenant';
import { inTenant } from '~/core/unit-of-work';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/** Values that must never leave the sealed column except through the one value call. */
const MASTER = '4711-SECRET-9931';
const SERVICE = 'srv#PIN-55602';
const CHANGED = 'new-4812-SECRET';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let office: string;
let adminB: string;
let bo: string;
let otherBo: string;
let officeId: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('codes-a');
  b = await createTestTenant('codes-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  officeId = await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    return (
      await trx('users')
        .where({ email: `office@${a.slug}.se` })
        .first('id')
    ).id as string;
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  office = await signIn(a, `office@${a.slug}.se`);
  adminB = await signIn(b, b.adminEmail);
  bo = (await call('POST', '/api/bo', admin, { bo: { serialCode: 'LARM-001' } })).json().id;
  otherBo = (await call('POST', '/api/bo', admin, { bo: { serialCode: 'LARM-002' } })).json().id;
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

interface LogRow {
  id: string;
  type: string;
  business_object_id: string;
  business_object_serial_code: string;
  from_value: unknown;
  to_value: unknown;
  user_id: string | null;
  user_name: string;
}
const logRows = () => withTenant(tenantA, (trx) => trx('security_log').orderBy('id').select<LogRow[]>('*'));
/** Runs `fn` and returns the security log rows it wrote. */
async function logged(fn: () => Promise<unknown>): Promise<LogRow[]> {
  const before = (await logRows()).length;
  await fn();
  return (await logRows()).slice(before);
}
const codesPath = (id = bo) => `/api/bo/${id}/codes/groups`;

describe('[access codes] groups and codes', () => {
  let group: string;
  let master: string;
  let service: string;

  it('adds a group: one add.group row with the names, the serial code and who', async () => {
    const rows = await logged(async () => {
      const res = await call('POST', codesPath(), office, { displayName: 'Larmkoder' });
      expect(res.status).toBe(200);
      group = res.json().id;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'add.group',
      business_object_id: bo,
      business_object_serial_code: 'LARM-001',
      from_value: null,
      to_value: { displayName: 'Larmkoder', groupName: 'Larmkoder' },
      user_id: officeId,
      user_name: 'Olga Kontor',
    });
  });

  it('adds codes with values: one add.code row each; the value is sealed in the database', async () => {
    const rows = await logged(async () => {
      master = (
        await call('POST', `${codesPath()}/code`, office, { groupId: group, displayName: 'Huvudkod', value: MASTER })
      ).json().id;
      service = (
        await call('POST', `${codesPath()}/code`, office, { groupId: group, displayName: 'Servicekod', value: SERVICE })
      ).json().id;
    });
    expect(rows.map((r) => [r.type, r.to_value])).toEqual([
      ['add.code', { displayName: 'Huvudkod', groupName: 'Larmkoder' }],
      ['add.code', { displayName: 'Servicekod', groupName: 'Larmkoder' }],
    ]);
    const raw = await withTenant(tenantA, (trx) =>
      trx('codes').whereIn('id', [master, service]).select('value_sealed'),
    );
    const text = JSON.stringify(raw);
    expect(text).not.toContain(MASTER);
    expect(text).not.toContain('4711');
    expect(raw.every((r: { value_sealed: string }) => /^v2\.[0-9a-f]{8}\./.test(r.value_sealed))).toBe(true);
  });

  it('lists groups and codes in order with names only: no value in the answer', async () => {
    const res = await call('GET', codesPath(), office);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(MASTER);
    expect(res.text).not.toContain(SERVICE);
    expect(res.json().groups).toEqual([
      {
        id: group,
        businessObjectId: bo,
        displayName: 'Larmkoder',
        sortOrder: 0,
        codes: [
          { id: master, groupId: group, displayName: 'Huvudkod', sortOrder: 0, hasValue: true },
          { id: service, groupId: group, displayName: 'Servicekod', sortOrder: 1, hasValue: true },
        ],
      },
    ]);
    const one = await call('GET', `${codesPath()}/${group}`, office);
    expect(one.json().group.codes).toHaveLength(2);
    expect(one.text).not.toContain(MASTER);
  });

  it('shows a value to bo:codes:view and logs view.code; ?copy=1 logs copy.code', async () => {
    let res;
    const viewed = await logged(async () => {
      res = await call('GET', `${codesPath()}/code/${master}?copy=0`, office);
    });
    expect(res!.status).toBe(200);
    expect(res!.json()).toEqual({ value: MASTER });
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({
      type: 'view.code',
      to_value: { displayName: 'Huvudkod', groupName: 'Larmkoder' },
      user_name: 'Olga Kontor',
      business_object_serial_code: 'LARM-001',
    });
    const copied = await logged(async () => {
      expect((await call('GET', `${codesPath()}/code/${service}?copy=1`, office)).json()).toEqual({ value: SERVICE });
    });
    expect(copied.map((r) => r.type)).toEqual(['copy.code']);
  });

  it('refuses a value to someone without bo:codes:view (403) and logs nothing', async () => {
    const rows = await logged(async () => {
      expect((await call('GET', `${codesPath()}/code/${master}`, tech)).status).toBe(403);
      expect((await call('GET', codesPath(), tech)).status).toBe(403);
      expect((await call('POST', codesPath(), tech, { displayName: 'x' })).status).toBe(403);
      expect((await call('PUT', `${codesPath()}/code/${master}`, tech, { id: master, value: 'x' })).status).toBe(403);
    });
    expect(rows).toEqual([]);
  });

  it('renames a code (edit.code) and sets its value (edit.code.value), one row each, from and to without the value', async () => {
    const renamed = await logged(async () => {
      expect((await call('PUT', `${codesPath()}/code`, office, { id: master, displayName: 'Masterkod' })).status).toBe(
        200,
      );
    });
    expect(renamed.map((r) => [r.type, r.from_value, r.to_value])).toEqual([
      [
        'edit.code',
        { displayName: 'Huvudkod', groupName: 'Larmkoder' },
        { displayName: 'Masterkod', groupName: 'Larmkoder' },
      ],
    ]);
    const changed = await logged(async () => {
      const res = await call('PUT', `${codesPath()}/code/${master}`, office, { id: master, value: CHANGED });
      expect(res.status).toBe(200);
    });
    expect(changed.map((r) => r.type)).toEqual(['edit.code.value']);
    expect(JSON.stringify(changed)).not.toContain(CHANGED);
    expect((await call('GET', `${codesPath()}/code/${master}`, office)).json()).toEqual({ value: CHANGED });
    // The id in the body must be the code of the path.
    expect((await call('PUT', `${codesPath()}/code/${master}`, office, { id: service, value: 'x' })).status).toBe(404);
  });

  it('renames a group and moves a code to another group, one row each', async () => {
    const second = (await call('POST', codesPath(), office, { displayName: 'Dörrkoder' })).json().id;
    const rows = await logged(async () => {
      await call('PUT', codesPath(), office, { id: second, displayName: 'Passerkoder', sortOrder: 5 });
      await call('PUT', `${codesPath()}/code`, office, { id: service, groupId: second });
    });
    expect(rows.map((r) => [r.type, r.from_value, r.to_value])).toEqual([
      [
        'edit.group',
        { displayName: 'Dörrkoder', groupName: 'Dörrkoder' },
        { displayName: 'Passerkoder', groupName: 'Passerkoder' },
      ],
      [
        'edit.code',
        { displayName: 'Servicekod', groupName: 'Larmkoder' },
        { displayName: 'Servicekod', groupName: 'Passerkoder' },
      ],
    ]);
    const groups = (await call('GET', codesPath(), office)).json().groups;
    expect(groups.map((g: { displayName: string; codes: unknown[] }) => [g.displayName, g.codes.length])).toEqual([
      ['Larmkoder', 1],
      ['Passerkoder', 1],
    ]);
    // A group of another object is not this object's.
    const foreign = (await call('POST', codesPath(otherBo), office, { displayName: 'Annan' })).json().id;
    expect((await call('PUT', `${codesPath()}/code`, office, { id: service, groupId: foreign })).status).toBe(404);
    expect((await call('GET', `${codesPath(otherBo)}/code/${master}`, office)).status).toBe(404);
  });

  it('validates names and values without echoing the value', async () => {
    const long = `${MASTER}${'x'.repeat(600)}`;
    const res = await call('POST', `${codesPath()}/code`, office, { groupId: group, displayName: '', value: long });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({ displayName: ['ERROR_REQUIRED_FIELD'], value: ['ERROR_MAX_LENGTH'] });
    expect(res.text).not.toContain(MASTER);
    expect((await call('POST', codesPath(), office, { displayName: ' ' })).json().fields).toEqual({
      displayName: ['ERROR_REQUIRED_FIELD'],
    });
  });

  it('deletes a code (delete.code), an empty group (delete.group) and a full group (each code, then the group)', async () => {
    const empty = (await call('POST', codesPath(), office, { displayName: 'Tom' })).json().id;
    const deletedEmpty = await logged(async () => {
      expect((await call('DELETE', `${codesPath()}/${empty}`, office)).status).toBe(200);
    });
    expect(deletedEmpty.map((r) => [r.type, r.from_value])).toEqual([
      ['delete.group', { displayName: 'Tom', groupName: 'Tom' }],
    ]);
    const deletedCode = await logged(async () => {
      expect((await call('DELETE', `${codesPath()}/code/${service}`, office)).status).toBe(200);
    });
    expect(deletedCode.map((r) => [r.type, r.from_value])).toEqual([
      ['delete.code', { displayName: 'Servicekod', groupName: 'Passerkoder' }],
    ]);
    const deletedFull = await logged(async () => {
      expect((await call('DELETE', `${codesPath()}/${group}`, office)).status).toBe(200);
    });
    expect(deletedFull.map((r) => r.type)).toEqual(['delete.code', 'delete.group']);
    expect((await call('GET', `${codesPath()}/code/${master}`, office)).status).toBe(404);
  });

  it("answers 404 for another tenant's object, group or code", async () => {
    expect((await call('GET', codesPath(), adminB, undefined, b.host)).status).toBe(404);
    expect((await call('POST', codesPath(), adminB, { displayName: 'x' }, b.host)).status).toBe(404);
    expect((await call('GET', `${codesPath()}/code/${master}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', `${codesPath()}/not-a-uuid`, office)).status).toBe(404);
  });
});

describe('[access codes] the security log', () => {
  it('lists newest first, filtered by object, user and type, paged; needs bo:codes:view_log', async () => {
    const g = (await call('POST', codesPath(otherBo), admin, { displayName: 'Admins grupp' })).json().id;
    const c = (
      await call('POST', `${codesPath(otherBo)}/code`, admin, { groupId: g, displayName: 'K', value: MASTER })
    ).json().id;
    await call('GET', `${codesPath(otherBo)}/code/${c}`, admin);

    const all = (await call('GET', '/api/bo/codes/logs?size=200', office)).json();
    expect(all.totalCount).toBe((await logRows()).length);
    expect(all.logs[0]).toMatchObject({
      type: 'view.code',
      businessObjectSerialCode: 'LARM-002',
      to: { displayName: 'K', groupName: 'Admins grupp' },
    });
    const stamps = all.logs.map((l: { timestamp: string }) => l.timestamp);
    expect([...stamps].sort().reverse()).toEqual(stamps);

    const byObject = (await call('GET', `/api/bo/codes/logs?businessObjectId=${bo}&size=200`, office)).json();
    expect(byObject.logs.every((l: { businessObjectId: string }) => l.businessObjectId === bo)).toBe(true);
    expect(byObject.totalCount).toBeGreaterThan(5);
    const byUser = (await call('GET', `/api/bo/codes/logs?userId=${officeId}&size=200`, office)).json();
    expect(byUser.logs.every((l: { userName: string }) => l.userName === 'Olga Kontor')).toBe(true);
    expect(byUser.totalCount).toBe(byObject.totalCount + 1); // plus the group 'Annan' on the other object
    const views = (await call('GET', `/api/bo/codes/logs?type=view.code`, office)).json();
    expect(views.logs.map((l: { type: string }) => l.type)).toEqual(['view.code', 'view.code', 'view.code']);
    const page = (await call('GET', '/api/bo/codes/logs?from=1&size=2', office)).json();
    expect(page.logs.map((l: { id: string }) => l.id)).toEqual(all.logs.slice(1, 3).map((l: { id: string }) => l.id));
    const future = (await call('GET', '/api/bo/codes/logs?startTime=2999-01-01', office)).json();
    expect(future).toEqual({ logs: [], totalCount: 0 });
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await call('GET', `/api/bo/codes/logs?startTime=${today}&endTime=${today}`, office)).json().totalCount,
    ).toBe(all.totalCount);
    expect((await call('GET', '/api/bo/codes/logs?type=nope', office)).status).toBe(400);
    expect((await call('GET', '/api/bo/codes/logs', tech)).status).toBe(403);
    expect((await call('GET', '/api/bo/codes/logs', adminB, undefined, b.host)).json().totalCount).toBe(0);
  });

  it('never holds a value: not in the log, not in history, not in any answer about the log', async () => {
    const logs = await call('GET', '/api/bo/codes/logs?size=200', office);
    for (const v of [MASTER, SERVICE, CHANGED]) expect(logs.text).not.toContain(v);
    const dump = await withTenant(tenantA, async (trx) =>
      JSON.stringify([await trx('security_log').select('*'), await trx('history').select('*')]),
    );
    for (const v of [MASTER, SERVICE, CHANGED]) expect(dump).not.toContain(v);
  });

  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    await expect(
      withTenant(tenantA, (trx) => trx('security_log').update({ user_name: 'someone else' })),
    ).rejects.toThrow(/append-only/);
    await expect(withTenant(tenantA, (trx) => trx('security_log').delete())).rejects.toThrow(/append-only/);
    expect((await logRows()).every((r) => r.user_name !== 'someone else')).toBe(true);
  });

  it('keeps a row for every code and group destroyed with their object, after the object is gone', async () => {
    const rows = await logged(async () => {
      expect((await call('DELETE', `/api/bo/${otherBo}`, admin)).status).toBe(200);
    });
    expect(rows.map((r) => [r.type, r.business_object_serial_code]).sort()).toEqual([
      ['delete.code', 'LARM-002'],
      ['delete.group', 'LARM-002'],
      ['delete.group', 'LARM-002'],
    ]);
    const logs = (await call('GET', `/api/bo/codes/logs?businessObjectId=${otherBo}&size=200`, office)).json();
    expect(logs.totalCount).toBeGreaterThanOrEqual(6);
  });
});

describe('[access codes] reordering from the object page', () => {
  it('moves a group and a code one place, logging one row for the moved one only', async () => {
    const id = (await call('POST', '/api/bo', admin, { bo: { serialCode: 'LARM-MOVE' } })).json().id;
    const groups: string[] = [];
    for (const name of ['A', 'B', 'C'])
      groups.push((await call('POST', codesPath(id), office, { displayName: name })).json().id);
    const codes: string[] = [];
    for (const name of ['k1', 'k2'])
      codes.push(
        (await call('POST', `${codesPath(id)}/code`, office, { groupId: groups[0], displayName: name })).json().id,
      );
    const auth = await withTenant(tenantA, (trx) =>
      validateSession(trx, office, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
    );
    const rows = await logged(() =>
      inTenant({ tenant: tenantA, auth, lang: 'sv' }, async (ctx) => {
        await moveCodeGroup(ctx, id, { id: groups[2], direction: 'up' });
        await moveCode(ctx, id, { id: codes[0], direction: 'down' });
        // Already first: nothing happens, nothing is logged.
        await moveCodeGroup(ctx, id, { id: groups[0], direction: 'up' });
      }),
    );
    expect(rows.map((r) => [r.type, r.to_value])).toEqual([
      ['edit.group', { displayName: 'C', groupName: 'C' }],
      ['edit.code', { displayName: 'k1', groupName: 'A' }],
    ]);
    const list = (await call('GET', codesPath(id), office)).json().groups;
    expect(list.map((g: { displayName: string; sortOrder: number }) => [g.displayName, g.sortOrder])).toEqual([
      ['A', 0],
      ['C', 1],
      ['B', 2],
    ]);
    expect(list[0].codes.map((c: { displayName: string }) => c.displayName)).toEqual(['k2', 'k1']);
    await expect(
      inTenant(
        {
          tenant: tenantA,
          auth: await withTenant(tenantA, (trx) =>
            validateSession(trx, tech, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
          ),
          lang: 'sv',
        },
        (ctx) => moveCodeGroup(ctx, id, { id: groups[0], direction: 'down' }),
      ),
    ).rejects.toMatchObject({ code: 'WARNING_PERMISSION_DENIED' });
  });
});
