import * as client from 'openid-client';
import { AppError } from '../../kernel/index.js';
import type { OidcConfig } from '../../kernel/index.js';
import type { Logger } from '../../kernel/index.js';
import { ErrorCode } from '../../protocol/wire/error-codes.js';
import type { Store } from '../../store/index.js';
import { PendingLogins } from './pending-logins.js';

/** Who the provider says signed in. `issuer` + `subject` is the stable key; the e-mail can change. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface OidcSignInOptions {
  config: OidcConfig;
  store: Store;
  logger: Logger;
  /** Lifetime of a sign-in under way (10 minutes by default). */
  pendingTtlMs?: number;
}

const SCOPES = 'openid email profile';
/** Seconds per request to the provider; a hung provider must not hold a browser for the default 30 s. */
const PROVIDER_TIMEOUT_S = 10;

/**
 * OpenID Connect sign-in, authorization code flow with PKCE (S256), state and nonce. {@link begin} stores the
 * verifier and nonce under the state and gives the provider's URL; {@link finish} claims them once, exchanges the
 * code and checks the ID token. Discovery of the issuer happens on first use and is cached; a failed discovery is
 * not cached, so the next sign-in tries again.
 */
export class OidcSignIn {
  private readonly pending: PendingLogins;
  private discovered: Promise<client.Configuration> | undefined;

  constructor(private readonly options: OidcSignInOptions) {
    this.pending = new PendingLogins(options.store, options.pendingTtlMs);
  }

  get name(): string {
    return this.options.config.name;
  }

  /** The provider's authorization URL for a new sign-in that returns to `redirectUri`, then to `returnPath`. */
  async begin(redirectUri: string, returnPath: string): Promise<URL> {
    const configuration = await this.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await this.pending.save(state, { codeVerifier, nonce, returnPath, redirectUri });
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPES,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /**
   * Finishes the sign-in whose callback carried `query`: the pending login is claimed (one-time) before anything
   * else, so a provider error or a failed exchange also uses it up.
   */
  async finish(query: URLSearchParams): Promise<{ identity: OidcIdentity; returnPath: string }> {
    const state = query.get('state');
    const login = state ? await this.pending.claim(state) : null;
    if (!state || !login) {
      throw new AppError(ErrorCode.OIDC_STATE_INVALID);
    }
    const providerError = query.get('error');
    if (providerError !== null) {
      this.options.logger.info({ providerError, description: query.get('error_description') }, 'oidc provider refused the sign-in');
      throw new AppError(ErrorCode.OIDC_DENIED);
    }
    const configuration = await this.configuration();
    // The exchange sends the redirect URI of the start, whatever host this callback was reached on.
    const currentUrl = new URL(login.redirectUri);
    currentUrl.search = query.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      this.options.logger.warn({ err: error }, 'oidc code exchange failed');
      throw new AppError(ErrorCode.OIDC_FAILED, undefined, { cause: error });
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError(ErrorCode.OIDC_FAILED, '로그인 제공자가 신원 정보를 보내지 않았습니다.');
    let profile: Record<string, unknown> = claims;
    // Providers that keep the e-mail out of the ID token (the spec's default) give it on the userinfo endpoint.
    if (typeof claims.email !== 'string') {
      try {
        profile = { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
      } catch (error) {
        this.options.logger.warn({ err: error }, 'oidc userinfo failed');
        throw new AppError(ErrorCode.OIDC_FAILED, '로그인 제공자에게서 계정 정보를 받지 못했습니다.', { cause: error });
      }
    }
    const email = profile.email;
    if (typeof email !== 'string' || !email.includes('@')) {
      throw new AppError(ErrorCode.OIDC_EMAIL_REQUIRED, '로그인 제공자가 이메일 주소를 알려 주지 않았습니다. 이메일 공유를 허용해 주세요.');
    }
    const emailVerified = profile.email_verified === true || profile.email_verified === 'true';
    const name = typeof profile.name === 'string' && profile.name.trim() !== '' ? profile.name.trim() : undefined;
    return {
      identity: { issuer: claims.iss, subject: claims.sub, email, emailVerified, ...(name ? { name } : {}) },
      returnPath: login.returnPath,
    };
  }

  private configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = undefined;
      throw error;
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.options.config;
    const url = new URL(issuer);
    try {
      return await client.discovery(url, clientId, clientSecret, undefined, {
        timeout: PROVIDER_TIMEOUT_S,
        // config.ts allows http:// only for a provider on this machine (development and tests).
        ...(url.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
      });
    } catch (error) {
      this.options.logger.error({ err: error, issuer }, 'oidc discovery failed');
      throw new AppError(ErrorCode.OIDC_UNAVAILABLE, undefined, { retryable: true, cause: error });
    }
  }
}
