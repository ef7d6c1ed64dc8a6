import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: what its userinfo / ID token says about them. */
export interface ProviderUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Env for startTestApp / loadConfig. */
  env: Record<string, string>;
  /**
   * Registers lectern's callback URL as the client's redirect URI (lectern's port is known only once it runs).
   * Rebuilds the provider: call it before any sign-in.
   */
  allowRedirect(uri: string): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 and a random port, with one confidential client
 * whose redirect URIs the test names, PKCE required, and its development login/consent pages (any login name
 * signs in as the user of that name in `users`).
 */
export async function startOidcProvider(options: { users: ProviderUser[] }): Promise<TestOidcProvider> {
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'lectern-test';
  const clientSecret = 'lectern-test-secret-0123456789abcdef';
  const users = new Map(options.users.map((user) => [user.sub, user]));
  const redirectUris: string[] = [];
  const build = () => quietly(() => new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      pkce: { required: () => true },
      ttl: { IdToken: 600, AccessToken: 600, AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600 },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      features: { devInteractions: { enabled: true } },
      findAccount: (_context, sub) => {
        const user = users.get(sub);
        if (!user) return undefined;
        return { accountId: sub, claims: () => ({ ...user }) };
      },
    }));
  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirect(uri) {
      redirectUris.push(uri);
      handler = build().callback();
    },
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: 'Test SSO' },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Builds the provider without its "quick start development-only" warnings: a test provider is that on purpose. */
function quietly<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('quick start development-only')) return;
    warn(...args);
  };
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

/** A browser's cookies, good enough for one host (cookies ignore ports, so lectern and the provider share it). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** fetch without following redirects, sending and storing cookies. */
  async fetch(url: URL | string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (!headers.has('accept')) headers.set('accept', 'text/html,application/xhtml+xml');
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim());
        return (key.toLowerCase() === 'expires' && Date.parse(setting) <= Date.now()) || (key.toLowerCase() === 'max-age' && Number(setting) <= 0);
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

export interface ProviderJourney {
  /** The provider's redirect to lectern's callback (with code, state, iss, or an error). */
  callbackUrl: URL;
}

/**
 * What a person does in a browser from lectern's start URL: follows the redirects to the provider, types a login
 * name on its login page, accepts its consent page (or cancels: `cancel`), and stops at the redirect that would
 * bring them back to lectern's callback (the caller opens it, maybe more than once).
 */
export async function walkProvider(jar: CookieJar, startUrl: string, options: { login: string; cancel?: boolean }): Promise<ProviderJourney> {
  let url = new URL(startUrl);
  let init: RequestInit = {};
  for (let step = 0; step < 20; step += 1) {
    const response = await jar.fetch(url, init);
    init = {};
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', url);
      await response.body?.cancel();
      if (next.pathname === '/api/auth/oidc/callback') return { callbackUrl: next };
      url = next;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status} at ${url.href}: ${html.slice(0, 300)}`);
    if (options.cancel) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error(`no cancel link at ${url.href}`);
      url = new URL(abort, url);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form at ${url.href}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', options.login);
      form.set('password', 'any password');
    }
    url = new URL(action, url);
    init = { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many steps at the provider');
}
