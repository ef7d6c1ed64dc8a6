import { z } from 'zod';

/**
 * The claims of an LTI 1.3 message (1EdTech LTI Core 1.3, Deep Linking 2.0, NRPS 2.0, AGS 2.0) that lectern reads,
 * by their full URIs, and the zod schema a verified id token's payload is parsed with. The signature, issuer,
 * audience and expiry are checked by `jose` before this schema sees anything (launch-validator.ts).
 */

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const CLAIM = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  toolPlatform: `${LTI}tool_platform`,
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  deepLinkingMessage: 'https://purl.imsglobal.org/spec/lti-dl/claim/msg',
  namesRoles: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  gradeService: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
} as const;

export const SCOPE = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  resultReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

/** Every scope lectern asks a platform for (dynamic registration and the token requests). */
export const TOOL_SCOPES = [SCOPE.lineItem, SCOPE.lineItemReadOnly, SCOPE.score, SCOPE.resultReadOnly, SCOPE.memberships] as const;

export const MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
/**
 * Roles that teach: the course's instructors (teaching assistants are `membership/Instructor#TeachingAssistant`),
 * content developers and administrators, and the institution's or system's administrators.
 */
const TEACHING_ROLES = [
  `${MEMBERSHIP}Instructor`,
  `${MEMBERSHIP}ContentDeveloper`,
  `${MEMBERSHIP}Administrator`,
  'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
];

/** Whether the roles make the user a teacher of the course (short role names such as `Instructor` count too). */
export function teaches(roles: readonly string[]): boolean {
  return roles.some((role) => TEACHING_ROLES.includes(role) || role === 'Instructor' || role === 'Administrator');
}

const Text = z.string().min(1).max(2048);

/** What lectern reads of a verified launch's payload (unknown claims pass through untouched and are ignored). */
export const LaunchPayload = z.looseObject({
  sub: z.string().min(1).max(255),
  name: z.string().max(300).optional(),
  given_name: z.string().max(300).optional(),
  family_name: z.string().max(300).optional(),
  email: z.string().max(320).optional(),
  nonce: z.string().min(1).max(512),
  azp: z.string().optional(),
  [CLAIM.messageType]: z.enum(MESSAGE_TYPES),
  [CLAIM.version]: z.literal('1.3.0'),
  [CLAIM.deploymentId]: z.string().min(1).max(255),
  [CLAIM.targetLinkUri]: z.string().max(2048).optional(),
  [CLAIM.roles]: z.array(z.string().max(512)).max(100),
  [CLAIM.resourceLink]: z.looseObject({ id: Text, title: z.string().max(1000).optional() }).optional(),
  [CLAIM.context]: z.looseObject({ id: Text, title: z.string().max(1000).optional(), label: z.string().max(1000).optional() }).optional(),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.deepLinkingSettings]: z
    .looseObject({
      deep_link_return_url: z.url(),
      accept_types: z.array(z.string()).max(50),
      accept_multiple: z.boolean().optional(),
      data: z.string().max(4096).optional(),
    })
    .optional(),
  [CLAIM.namesRoles]: z.looseObject({ context_memberships_url: z.url() }).optional(),
  [CLAIM.gradeService]: z
    .looseObject({ scope: z.array(z.string()).max(20), lineitems: z.url().optional(), lineitem: z.url().optional() })
    .optional(),
});
export type LaunchPayload = z.infer<typeof LaunchPayload>;

/** The user's name as the LMS gives it: `name`, else given and family names, else null. */
export function displayName(payload: Pick<LaunchPayload, 'name' | 'given_name' | 'family_name'>): string | null {
  const full = payload.name?.trim();
  if (full) return full;
  const parts = [payload.family_name?.trim(), payload.given_name?.trim()].filter((part) => part);
  return parts.length > 0 ? parts.join(' ') : null;
}
