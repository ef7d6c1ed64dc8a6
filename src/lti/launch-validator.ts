import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Store } from '../store/index.js';
import { CLAIM, LaunchPayload, MESSAGE_TYPES } from './lti-claims.js';
import { OneTimeRecords } from './one-time-records.js';
import type { PlatformKeySets } from './platform-key-sets.js';
import type { PlatformRecord } from './platform-record.js';
import { sha256, type PlatformRepository } from './platform-repository.js';
import { ltiKeys } from './lti-keys.js';

/**
 * The two steps of an LTI 1.3 launch (OIDC third-party initiated login, implicit flow with `form_post`):
 *
 * 1. `beginLogin`: the platform's login initiation (`iss`, `login_hint`, `target_link_uri`, …) names a registered
 *    platform; lectern stores a new `state` with a new `nonce` (10 minutes, one use) and sends the browser to the
 *    platform's auth endpoint.
 * 2. `verify`: the platform posts back `id_token` and `state`. The state is taken (one use: a replay finds nothing),
 *    the token is verified by `jose` against the platform's JWKS (signature, `iss`, `aud`, `exp`/`iat`, RS256 only),
 *    then `azp`, the nonce (the login's, and never seen before on this platform), the LTI version 1.3.0, the message
 *    type, the deployment id among the registration's, and the claims lectern reads (zod). Every refusal is an
 *    AppError with its own code and a Korean message that says what was wrong.
 */

export const LoginParams = z.object({
  iss: z.string().min(1).max(2048),
  login_hint: z.string().min(1).max(4096),
  target_link_uri: z.string().min(1).max(2048),
  lti_message_hint: z.string().max(4096).optional(),
  client_id: z.string().min(1).max(255).optional(),
  lti_deployment_id: z.string().min(1).max(255).optional(),
});
export type LoginParams = z.infer<typeof LoginParams>;

const PendingLogin = z.object({ platformId: z.string(), nonce: z.string(), targetLinkUri: z.string(), createdAt: z.number() });
type PendingLogin = z.infer<typeof PendingLogin>;

export const LOGIN_TTL_MS = 10 * 60_000;
/** How far a platform's clock may be from ours for `exp`, `iat` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 30;

export interface VerifiedLaunch {
  platform: PlatformRecord;
  payload: LaunchPayload;
}

export interface LaunchValidatorOptions {
  store: Store;
  platforms: PlatformRepository;
  keySets: PlatformKeySets;
  now: () => number;
  logger: Logger;
}

const refuse = (code: ErrorCode, message: string) => new AppError(code, message);

export class LaunchValidator {
  private readonly logins: OneTimeRecords<PendingLogin>;

  constructor(private readonly options: LaunchValidatorOptions) {
    this.logins = new OneTimeRecords(options.store, ltiKeys.ltiLogin, PendingLogin, LOGIN_TTL_MS, options.logger);
  }

  /**
   * Step 1. `toolBase` is the origin lectern is reached at (PUBLIC_URL, or the request's own): the target must be on
   * it, and the id token comes back to `${toolBase}/lti/launch`. Answers the auth endpoint URL to send the browser
   * to and the state (also set as a cookie, so the launch can check it came back to the same browser).
   */
  async beginLogin(params: LoginParams, toolBase: string): Promise<{ redirect: string; state: string }> {
    const platform = await this.options.platforms.find(params.iss, params.client_id);
    if (!platform) {
      throw refuse(ErrorCode.LTI_PLATFORM_UNKNOWN, `등록되지 않은 LMS입니다 (issuer ${params.iss}${params.client_id ? `, client ID ${params.client_id}` : ''}). lectern 관리자에게 LMS 등록을 요청해 주세요.`);
    }
    if (params.lti_deployment_id !== undefined && !platform.deploymentIds.includes(params.lti_deployment_id)) throw unknownDeployment(params.lti_deployment_id);
    if (!sameOrigin(params.target_link_uri, toolBase)) {
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, `실행 대상 주소(${params.target_link_uri.slice(0, 200)})가 이 lectern(${toolBase})의 주소가 아닙니다.`);
    }
    const nonce = randomBytes(24).toString('base64url');
    const state = await this.logins.put({ platformId: platform.platformId, nonce, targetLinkUri: params.target_link_uri, createdAt: this.options.now() });
    const redirect = new URL(platform.authUrl);
    const query: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: `${toolBase}/lti/launch`,
      login_hint: params.login_hint,
      state,
      nonce,
      ...(params.lti_message_hint === undefined ? {} : { lti_message_hint: params.lti_message_hint }),
    };
    for (const [name, value] of Object.entries(query)) redirect.searchParams.set(name, value);
    return { redirect: redirect.href, state };
  }

  /**
   * Step 2: the verified launch, or an AppError. `browserState` is the state cookie when the browser sent one (a
   * browser that blocks third-party cookies in the LMS frame sends none; the one-use state in the store and the
   * nonce it carries still bind the token to this login).
   */
  async verify(form: { idToken: string | undefined; state: string | undefined }, browserState: string | undefined): Promise<VerifiedLaunch> {
    const { platforms, keySets, now, store } = this.options;
    if (!form.idToken) throw refuse(ErrorCode.LTI_MESSAGE_INVALID, 'LMS가 실행 토큰(id_token)을 보내지 않았습니다.');
    if (form.state && browserState && form.state !== browserState) {
      throw refuse(ErrorCode.LTI_STATE_INVALID, '다른 브라우저에서 시작된 LMS 실행 요청입니다. LMS에서 다시 열어 주세요.');
    }
    const pending = form.state ? await this.logins.take(form.state) : null;
    if (!pending) throw refuse(ErrorCode.LTI_STATE_INVALID, 'LMS 실행 요청(state)이 없거나 만료되었거나 이미 사용되었습니다. LMS에서 다시 열어 주세요.');
    const platform = await platforms.get(pending.platformId);
    if (!platform) throw refuse(ErrorCode.LTI_PLATFORM_UNKNOWN, '이 LMS의 등록이 삭제되었습니다. lectern 관리자에게 문의해 주세요.');

    let verified: JWTPayload;
    try {
      ({ payload: verified } = await jwtVerify(form.idToken, keySets.of(platform.jwksUrl), {
        issuer: platform.issuer,
        audience: platform.clientId,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      throw this.tokenRefusal(error, form.idToken, platform);
    }

    // azp: required when the token has several audiences, and when present it must be lectern's client id.
    const audiences = Array.isArray(verified.aud) ? verified.aud : [verified.aud];
    if ((audiences.length > 1 && verified.azp === undefined) || (verified.azp !== undefined && verified.azp !== platform.clientId)) {
      throw refuse(ErrorCode.LTI_AUDIENCE_INVALID, `실행 토큰의 azp(${String(verified.azp ?? '없음')})가 lectern의 client ID가 아닙니다.`);
    }
    if (verified.nonce !== pending.nonce) throw refuse(ErrorCode.LTI_NONCE_INVALID, '실행 토큰의 nonce가 이 로그인 요청의 것이 아닙니다.');
    // The nonce once per platform, for as long as the token could be replayed.
    const lifetimeMs = Math.max(60_000, (Number(verified.exp) + CLOCK_TOLERANCE_SECONDS) * 1000 - now());
    if (!(await store.set(ltiKeys.ltiNonce(sha256(`${platform.platformId} ${pending.nonce}`)), '1', { nx: true, ttlMs: lifetimeMs }))) {
      throw refuse(ErrorCode.LTI_NONCE_INVALID, '이미 사용된 실행 토큰입니다(nonce 재사용).');
    }

    const version = verified[CLAIM.version];
    if (version !== '1.3.0') throw refuse(ErrorCode.LTI_MESSAGE_INVALID, `LTI 버전 ${String(version ?? '(없음)')}은 지원하지 않습니다. LTI 1.3.0만 받습니다.`);
    const messageType = verified[CLAIM.messageType];
    if (!MESSAGE_TYPES.some((type) => type === messageType)) {
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, `메시지 종류 ${String(messageType ?? '(없음)')}는 지원하지 않습니다 (LtiResourceLinkRequest, LtiDeepLinkingRequest만).`);
    }
    const deploymentId = verified[CLAIM.deploymentId];
    if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId)) throw unknownDeployment(String(deploymentId ?? '(없음)'));

    const parsed = LaunchPayload.safeParse(verified);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const claim = issue ? issue.path.map(String).join('.') : '?';
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, `실행 토큰의 ${claim} 값이 올바르지 않습니다.`);
    }
    const payload = parsed.data;
    if (payload[CLAIM.messageType] === 'LtiResourceLinkRequest' && !payload[CLAIM.resourceLink]) {
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, '리소스 링크 실행에 resource_link 값이 없습니다.');
    }
    if (payload[CLAIM.messageType] === 'LtiDeepLinkingRequest' && !payload[CLAIM.deepLinkingSettings]) {
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, '딥 링크 요청에 deep_linking_settings 값이 없습니다.');
    }
    const target = payload[CLAIM.targetLinkUri];
    if (target !== undefined && !sameOrigin(target, pending.targetLinkUri)) {
      throw refuse(ErrorCode.LTI_MESSAGE_INVALID, '실행 토큰의 target_link_uri가 로그인 요청의 것과 다릅니다.');
    }
    return { platform, payload };
  }

  private tokenRefusal(error: unknown, idToken: string, platform: PlatformRecord): AppError {
    if (error instanceof joseErrors.JWTExpired) return refuse(ErrorCode.LTI_TOKEN_EXPIRED, 'LMS 실행 토큰의 유효 시간(exp)이 지났습니다. LMS에서 다시 열어 주세요.');
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      if (error.claim === 'aud') return refuse(ErrorCode.LTI_AUDIENCE_INVALID, `이 실행 토큰은 lectern의 client ID(${platform.clientId})에 보낸 것이 아닙니다 (aud).`);
      if (error.claim === 'iss') return refuse(ErrorCode.LTI_TOKEN_INVALID, `실행 토큰의 발급자(iss)가 등록된 LMS(${platform.issuer})가 아닙니다.`);
      if (error.claim === 'iat' || error.claim === 'nbf') return refuse(ErrorCode.LTI_TOKEN_EXPIRED, `실행 토큰의 발급 시각(${error.claim})이 올바르지 않습니다. LMS 서버의 시계를 확인해 주세요.`);
      return refuse(ErrorCode.LTI_TOKEN_INVALID, `실행 토큰에 ${error.claim} 값이 없거나 올바르지 않습니다.`);
    }
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return refuse(ErrorCode.LTI_TOKEN_INVALID, '실행 토큰의 서명이 LMS의 공개 키로 확인되지 않습니다 (변조되었거나 다른 키로 서명됨).');
    if (error instanceof joseErrors.JWKSNoMatchingKey) return refuse(ErrorCode.LTI_TOKEN_INVALID, '실행 토큰을 서명한 키(kid)가 LMS의 공개 키 목록(JWKS)에 없습니다.');
    if (error instanceof joseErrors.JOSEAlgNotAllowed) return refuse(ErrorCode.LTI_TOKEN_INVALID, '실행 토큰의 서명 방식이 RS256이 아닙니다.');
    if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return refuse(ErrorCode.LTI_TOKEN_INVALID, '실행 토큰의 형식이 올바르지 않습니다.');
    // The key set could not be fetched or read: the platform's side, not the token's.
    this.options.logger.warn({ err: error, jwksUrl: platform.jwksUrl, kid: safeKid(idToken) }, 'lti: platform keys unavailable');
    return new AppError(ErrorCode.LTI_PLATFORM_UNAVAILABLE, `LMS의 공개 키(JWKS: ${platform.jwksUrl})를 가져오지 못했습니다. 잠시 후 다시 시도해 주세요.`, { cause: error });
  }
}

const unknownDeployment = (deploymentId: string) =>
  refuse(ErrorCode.LTI_DEPLOYMENT_UNKNOWN, `등록되지 않은 배포 ID(${deploymentId.slice(0, 100)})입니다. lectern 관리자에게 이 배포 ID를 LMS 등록에 넣어 달라고 요청해 주세요.`);

function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

function safeKid(idToken: string): string | undefined {
  try {
    return decodeProtectedHeader(idToken).kid;
  } catch {
    return undefined;
  }
}
