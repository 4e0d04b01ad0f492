import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/*
 * Issue 29 for the project, checklist, holiday, report, contract and proposal-document calls: each
 * declares the schema its service parses, so a malformed shape is refused at the boundary with the
 * service's field errors, and /api/openapi.json shows the body or query with its limits and enums.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let admin: string;
let adminB: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('bound-a');
  b = await createTestTenant('bound-b');
  admin = await signIn(a, a.adminEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

type Fields = { code: string; fields: Record<string, string[]> };
const refused = async (method: string, path: string, body?: unknown) => {
  const res = await call(method, path, admin, body);
  expect(res.status, res.text).toBe(400);
  const json = res.json<Fields>();
  expect(json.code).toBe('VALIDATION_FAILED');
  return json.fields;
};

describe('the boundary refuses a malformed input with the service’s field errors', () => {
  it('project invoices, projects and their settings', async () => {
    expect(await refused('POST', '/api/projects/invoices', { projectId: 'x', percent: 150 })).toEqual({
      percent: ['ERROR_INVALID_VALUE'],
    });
    expect(
      await refused('PUT', '/api/projects/settings', {
        costResetDay: 40,
        hourlyPrice: 0,
        hourlyCost: 0,
        extraWorkLinkDays: 14,
      }),
    ).toEqual({
      costResetDay: ['ERROR_INVALID_VALUE'],
    });
    expect(await refused('GET', `/api/projects/q?q=${'x'.repeat(201)}`)).toEqual({ q: ['ERROR_MAX_LENGTH'] });
  });

  it('activities: another tenant’s project is 404 before its body is read; the service names the bad field', async () => {
    const { project } = (await call('POST', '/api/projects', admin, { project: { title: 'Gränsen' } })).json<{
      project: { id: string };
    }>();
    expect((await call('POST', `/api/projects/${project.id}/activities`, adminB, { title: '' }, b.host)).status).toBe(
      404,
    );
    expect(Object.keys(await refused('POST', `/api/projects/${project.id}/activities`, { title: '' }))).toContain(
      'title',
    );
  });

  it('resources and extra-work links', async () => {
    const plan = { projectId: 'x', startDate: '2026-03-02', endDate: '2026-03-06', userId: null, supplierId: null };
    expect(await refused('POST', '/api/projects/resources', plan)).toMatchObject({
      projectId: ['ERROR_INVALID_VALUE'],
    });
    expect(await refused('GET', '/api/wo/projectextra/link')).toEqual({ workOrderId: ['ERROR_REQUIRED_FIELD'] });
    expect(await refused('POST', '/api/wo/projectextra/link', { workOrderId: 'x', email: 'nope' })).toHaveProperty(
      'email',
    );
  });

  it('checklists, holidays, reports, contracts and proposal documents', async () => {
    expect(
      await refused('POST', '/api/instance/checklist', { title: 'Kontroll', workTypeIds: ['x'], items: [] }),
    ).toEqual({
      'workTypeIds.0': ['ERROR_INVALID_VALUE'],
      items: ['ERROR_AT_LEAST_ONE_ITEM'],
    });
    expect(await refused('GET', '/api/wo/checklist?workType=x')).toEqual({ workType: ['ERROR_INVALID_VALUE'] });
    expect(await refused('GET', '/api/timereports/conf/holidays?year=1800')).toEqual({ year: ['ERROR_INVALID_VALUE'] });
    expect(await refused('POST', '/api/timereports/conf/holidays', { date: 'x', name: 'Jul' })).toEqual({
      date: ['ERROR_INVALID_VALUE'],
    });
    expect(await refused('GET', '/api/reports/time?groupBy=month')).toEqual({ groupBy: ['ERROR_INVALID_VALUE'] });
    expect(await refused('POST', '/api/contracts', { contract: { title: 'K', customerId: 'x' } })).toHaveProperty(
      'contract.customerId',
    );
    expect(await refused('POST', '/api/proposals/pdf', { proposal: 'x', templateId: 'fancy' })).toHaveProperty(
      'templateId',
    );
  });
});

describe('/api/openapi.json shows the newly declared inputs', () => {
  it('bodies with their limits and enums, queries as parameters', async () => {
    const doc = (await call('GET', '/api/openapi.json')).json();
    const body = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    const query = (path: string, name: string) =>
      (doc.paths[path].get.parameters as { name: string; in: string }[]).find((p) => p.name === name);

    expect(body('/projects/invoices', 'post').required).toEqual(['projectId']);
    expect(body('/projects/invoices', 'post').properties.marking.anyOf).toContainEqual({
      type: 'string',
      maxLength: 200,
    });
    expect(body('/instance/checklist', 'post').properties.items.items.properties.type.enum).toEqual([
      'check',
      'text',
      'number',
    ]);
    expect(body('/instance/checklist', 'put').required).toContain('id');
    const activity = doc.paths['/projects/{id}/activities'].post;
    expect(activity.requestBody.content['application/json'].schema.properties.title).toMatchObject({ maxLength: 200 });
    expect(activity.requestBody.content['application/json'].schema.properties).not.toHaveProperty('id');
    expect(body('/proposals/pdf', 'post').properties.templateId.enum).toEqual(['default']);
    expect(query('/timereports/conf/holidays', 'year')).toMatchObject({
      in: 'query',
      schema: { minimum: 1970, maximum: 9999 },
    });
    expect(body('/timereports/conf/holidays', 'post').properties.name).toMatchObject({ maxLength: 100 });
    expect(query('/reports/time', 'groupBy')).toMatchObject({ schema: { enum: ['person', 'project', 'workType'] } });
    expect(query('/wo/history/closed', 'limit')).toMatchObject({ in: 'query' });
    expect(query('/reports/{report}/export', 'format')).toMatchObject({
      required: true,
      schema: { enum: ['csv', 'xlsx'] },
    });
    expect(query('/projects', 'period')).toMatchObject({
      schema: { enum: expect.arrayContaining(['quarter', 'all']) },
    });
    expect(body('/projects/settings', 'put').properties.costResetDay).toMatchObject({ minimum: 1, maximum: 31 });
    expect(body('/projects', 'post').properties.project.required).toContain('title');
    expect(body('/contracts', 'post').properties.contract.properties.services.maxItems).toBe(200);
    expect(query('/contracts/id/propose', 'length')).toMatchObject({ schema: { maximum: 12 } });
    expect(body('/projects/resources', 'post').properties.hoursPerDay.anyOf).toContainEqual(
      expect.objectContaining({ maximum: 24 }),
    );
    expect(query('/projects/resources/{from}/{to}', 'userIds')).toMatchObject({ in: 'query' });
    expect(body('/wo/projectextra/link', 'post').properties.message.anyOf).toContainEqual({
      type: 'string',
      maxLength: 2000,
    });
    expect(query('/wo/projectextra/link', 'workOrderId')).toMatchObject({ required: true });
  });
});
