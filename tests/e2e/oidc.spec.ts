import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { startFakeOidcProvider, type FakeOidcProvider } from '../fakes/oidc-provider';

/** The demo admin `npm start` prints (tenants/demo.ts). */
const DEMO = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026', name: 'Maria Lindqvist' };

let app: RunningApp;
let idp: FakeOidcProvider;

async function api(method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${app.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // the local provider speaks plain http, which only a server on the embedded database accepts
  app = await startApp({}, { own: true });
  idp = await startFakeOidcProvider({ redirectUris: [`${app.url}/auth/microsoft/callback`] });
  // The running app holds the data directory: configure Microsoft sign-in through its own API.
  const { token } = await api('POST', '/authenticate', { email: DEMO.email, password: DEMO.password });
  await api(
    'PUT',
    '/instance/oidc',
    {
      microsoft: {
        enabled: true,
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        allowedDomains: ['nordlarm.se'],
      },
    },
    token,
  );
});
test.afterAll(async () => {
  await idp?.close();
  await app?.stop();
});

test('[oidc] the demo admin signs in with Microsoft (a local OIDC provider) and lands on the start page', async ({
  page,
}) => {
  await page.goto(`${app.url}/auth/microsoft/start`);
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(DEMO.email);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();

  await expect(page.getByRole('heading', { name: `Välkommen, ${DEMO.name}` })).toBeVisible();
  await expect(page).toHaveURL(`${app.url}/`);
  // The token left the address bar and lives in the session cookie.
  const cookies = await page.context().cookies(app.url);
  expect(cookies.find((c) => c.name === '__Host-ordo_session')).toMatchObject({ httpOnly: true });
});

test('[oidc] someone who is not a user is sent back to the login page with MS_AUTH', async ({ page }) => {
  await page.goto(`${app.url}/auth/microsoft/start`);
  await page.locator('input[name="login"]').fill('stranger@nordlarm.se');
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page).toHaveURL(/\/login\?error=MS_AUTH$/);
});

test('[oidc] a success link opened in another browser signs nobody in', async ({ page }) => {
  await page.goto(`${app.url}/microsoft/success?token=${'a'.repeat(43)}`);
  await expect(page).toHaveURL(/\/login\?error=MS_AUTH$/);
});
