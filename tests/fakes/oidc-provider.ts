import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider) on a local http port, standing in for Microsoft
 * Entra ID and Google. Why a fake: the tests must run offline and without real tenants or client
 * secrets, and a mock of openid-client would test nothing. This one speaks the actual protocol —
 * discovery, signed ID tokens, PKCE (required), state, nonce, client_secret_post, userinfo — so the
 * app's flow is exercised end to end, and its devInteractions login form lets a browser (or plain
 * HTTP) sign in with any login and password.
 *
 * The login entered becomes the account id; its e-mail is the login itself unless `setAccount`
 * configured other claims (e.g. `email_verified: undefined` to act like Microsoft). As oidc-provider
 * does by default for the code flow, e-mail is answered only from userinfo, not in the ID token.
 */
export interface FakeOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims for one login; `email_verified: undefined` leaves the claim out. */
  setAccount(login: string, claims: { email?: string; email_verified?: boolean | undefined; name?: string }): void;
  close(): Promise<void>;
}

export async function startFakeOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<FakeOidcProvider> {
  const clientId = options.clientId ?? 'ordo-test-client';
  const clientSecret = options.clientSecret ?? 'ordo-test-client-secret-0123456789';
  const accounts = new Map<string, Record<string, unknown>>();

  // Listen first: the issuer URL needs the port.
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['ordo-fake-oidc-provider-cookie-key'] },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    async findAccount(_ctx: KoaContextWithOIDC, id: string) {
      const configured = accounts.get(id.toLowerCase());
      const claims: Record<string, unknown> = configured ?? { email: id, email_verified: true, name: id };
      return {
        accountId: id,
        async claims() {
          const out: Record<string, unknown> = { sub: id };
          for (const [k, v] of Object.entries(claims)) if (v !== undefined) out[k] = v;
          return out as { sub: string };
        },
      };
    },
    // Skip the consent screen: this client is trusted with openid, email and profile.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { provider, session, client } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_ctx: unknown, err: Error) => console.error('fake OIDC provider error', err));
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount(login, claims) {
      accounts.set(login.toLowerCase(), { name: login, ...claims });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
