import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { TOOL_SCOPES } from './lti-claims.js';
import { secureUrl, type PlatformInput } from './platform-record.js';

/**
 * LTI Dynamic Registration 1.0: the admin pastes lectern's registration URL (with a one-use code made on the account
 * page) into the LMS; the LMS opens it with `openid_configuration` and `registration_token`; lectern reads the
 * platform's configuration, registers itself at the platform's `registration_endpoint` (its login, launch and JWKS
 * URLs, the Deep Linking message, the AGS and NRPS scopes) and keeps the client id (and deployment id) the platform
 * gave. The code is what makes this safe: without an admin's code nobody can register an LMS.
 */

export const RegistrationOptions = z.object({
  createdBy: z.string(),
  createdAt: z.number(),
  createInstructors: z.boolean(),
  trustEmails: z.boolean(),
});
export type RegistrationOptions = z.infer<typeof RegistrationOptions>;

export const REGISTRATION_CODE_TTL_MS = 7 * 24 * 60 * 60_000;

const PlatformConfiguration = z.looseObject({
  issuer: z.string().refine(secureUrl),
  authorization_endpoint: z.string().refine(secureUrl),
  token_endpoint: z.string().refine(secureUrl),
  jwks_uri: z.string().refine(secureUrl),
  registration_endpoint: z.string().refine(secureUrl),
  'https://purl.imsglobal.org/spec/lti-platform-configuration': z
    .looseObject({ product_family_code: z.string().max(100).optional(), version: z.string().max(100).optional() })
    .optional(),
});

const RegistrationAnswer = z.looseObject({
  client_id: z.string().min(1).max(255),
  'https://purl.imsglobal.org/spec/lti-tool-configuration': z.looseObject({ deployment_id: z.string().min(1).max(255).optional() }).optional(),
});

export interface ToolUrls {
  base: string;
}

const invalid = (message: string, cause?: unknown) => new AppError(ErrorCode.LTI_REGISTRATION_INVALID, message, { cause });

/** Registers lectern at the platform; answers the platform as lectern will store it. */
export async function registerDynamically(
  request: { openidConfiguration: string; registrationToken: string | undefined },
  options: RegistrationOptions,
  tool: ToolUrls,
  dependencies: { fetch: typeof fetch; logger: Logger; timeoutMs?: number },
): Promise<PlatformInput> {
  if (!secureUrl(request.openidConfiguration)) throw invalid('LMS 설정 주소(openid_configuration)가 https:// 주소가 아닙니다.');
  const authorization: Record<string, string> = request.registrationToken ? { authorization: `Bearer ${request.registrationToken}` } : {};
  const call = async (url: string, init: RequestInit, what: string) => {
    try {
      return await dependencies.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(dependencies.timeoutMs ?? 10_000) });
    } catch (error) {
      dependencies.logger.warn({ err: error, url }, 'lti dynamic registration: platform unreachable');
      throw invalid(`LMS의 ${what}에 연결하지 못했습니다.`, error);
    }
  };

  const configResponse = await call(request.openidConfiguration, { headers: { accept: 'application/json', ...authorization } }, '설정 주소');
  if (!configResponse.ok) throw invalid(`LMS 설정을 읽지 못했습니다 (HTTP ${configResponse.status}).`);
  const configuration = PlatformConfiguration.safeParse(await configResponse.json().catch(() => null));
  if (!configuration.success) {
    const issue = configuration.error.issues[0];
    throw invalid(`LMS 설정의 ${issue ? issue.path.join('.') : '?'} 값이 없거나 https:// 주소가 아닙니다.`);
  }
  const platform = configuration.data;
  const base = tool.base;
  const registration = {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: `${base}/lti/login`,
    redirect_uris: [`${base}/lti/launch`],
    client_name: 'lectern',
    jwks_uri: `${base}/lti/jwks`,
    logo_uri: `${base}/favicon.svg`,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: TOOL_SCOPES.join(' '),
    'https://purl.imsglobal.org/spec/lti-tool-configuration': {
      domain: new URL(base).host,
      description: 'AI 강의, 실시간 퀴즈, 시험과 채점 (lectern)',
      target_link_uri: `${base}/lti/launch`,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiDeepLinkingRequest', target_link_uri: `${base}/lti/launch`, label: 'lectern 강의·퀴즈·시험 넣기' },
        { type: 'LtiResourceLinkRequest', target_link_uri: `${base}/lti/launch`, label: 'lectern' },
      ],
    },
  };
  const answerResponse = await call(
    platform.registration_endpoint,
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...authorization }, body: JSON.stringify(registration) },
    '등록 주소',
  );
  if (!answerResponse.ok) throw invalid(`LMS가 등록을 거절했습니다 (HTTP ${answerResponse.status}).`);
  const answer = RegistrationAnswer.safeParse(await answerResponse.json().catch(() => null));
  if (!answer.success) throw invalid('LMS의 등록 응답에 client_id가 없습니다.');

  const family = platform['https://purl.imsglobal.org/spec/lti-platform-configuration']?.product_family_code;
  const deploymentId = answer.data['https://purl.imsglobal.org/spec/lti-tool-configuration']?.deployment_id;
  return {
    name: `${productName(family)} (${new URL(request.openidConfiguration).host})`.slice(0, 100),
    issuer: platform.issuer,
    clientId: answer.data.client_id,
    deploymentIds: deploymentId === undefined ? [] : [deploymentId],
    jwksUrl: platform.jwks_uri,
    authUrl: platform.authorization_endpoint,
    tokenUrl: platform.token_endpoint,
    // The LMS's own address (Canvas's issuer is canvas.instructure.com; its pages are on the school's host).
    frameOrigins: [new URL(request.openidConfiguration).origin],
    createInstructors: options.createInstructors,
    trustEmails: options.trustEmails,
  };
}

function productName(family: string | undefined): string {
  switch (family?.toLowerCase()) {
    case 'moodle':
      return 'Moodle';
    case 'canvas':
      return 'Canvas';
    case undefined:
    case '':
      return 'LMS';
    default:
      return family ?? 'LMS';
  }
}
