import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Store } from '../store/index.js';
import { SCOPE } from './lti-claims.js';
import type { PlatformRecord } from './platform-record.js';
import { sha256 } from './platform-repository.js';
import type { ToolKeys } from './tool-keys.js';
import { ltiKeys } from './lti-keys.js';

/**
 * lectern calling a platform's LTI Advantage services: an OAuth 2 access token by the client-credentials grant with
 * a JWT assertion signed by lectern's tool key (kept in the store, shared by every node, for its lifetime less a
 * minute), then Names and Role Provisioning (the course roster, paged by `Link: rel="next"`) and Assignment and Grade
 * Services (line items and scores). Every failure is a retryable `LTI_PLATFORM_UNAVAILABLE` naming what failed; a
 * 401 with a cached token drops it and asks for a new one once.
 */

const MEDIA = {
  members: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
  lineItems: 'application/vnd.ims.lis.v2.lineitemcontainer+json',
  lineItem: 'application/vnd.ims.lis.v2.lineitem+json',
  score: 'application/vnd.ims.lis.v1.score+json',
} as const;

const TokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().int().positive().optional(), token_type: z.string().optional() });

export const Member = z.looseObject({
  user_id: z.string().min(1).max(255),
  name: z.string().max(300).optional(),
  given_name: z.string().max(300).optional(),
  family_name: z.string().max(300).optional(),
  email: z.string().max(320).optional(),
  roles: z.array(z.string()).max(100).default([]),
  status: z.enum(['Active', 'Inactive', 'Deleted']).default('Active'),
});
export type Member = z.infer<typeof Member>;
const MemberPage = z.looseObject({ members: z.array(z.unknown()).max(10_000) });

export const LineItem = z.looseObject({
  id: z.url(),
  label: z.string().optional(),
  scoreMaximum: z.number().optional(),
  resourceId: z.string().optional(),
  tag: z.string().optional(),
  resourceLinkId: z.string().optional(),
});
export type LineItem = z.infer<typeof LineItem>;

export interface Score {
  userId: string;
  scoreGiven: number;
  scoreMaximum: number;
  /** ISO 8601 with milliseconds: a platform keeps the newest score of a user. */
  timestamp: string;
  comment?: string;
}

/** The most pages of a roster read at once (a course of tens of thousands is not a class). */
const MAX_ROSTER_PAGES = 20;

export interface PlatformClientOptions {
  store: Store;
  toolKeys: ToolKeys;
  logger: Logger;
  fetch?: typeof fetch;
  /** How long one call to a platform may take (10 s by default). */
  timeoutMs?: number;
}

export class PlatformClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PlatformClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  /** Every member of the course (active or not), following the platform's pages. */
  async members(platform: PlatformRecord, membershipsUrl: string): Promise<Member[]> {
    const found: Member[] = [];
    let url: string | null = membershipsUrl;
    for (let page = 0; url !== null && page < MAX_ROSTER_PAGES; page += 1) {
      const response = await this.call(platform, [SCOPE_MEMBERS], url, { headers: { accept: MEDIA.members } }, '강좌 명단(NRPS)');
      const body = MemberPage.safeParse(await readJson(response));
      if (!body.success) throw unavailable('강좌 명단(NRPS)', '응답 형식이 올바르지 않습니다');
      for (const raw of body.data.members) {
        const member = Member.safeParse(raw);
        if (member.success) found.push(member.data);
      }
      url = nextLink(response.headers.get('link'));
    }
    return found;
  }

  /** The line items of a course with this resource id (AGS `resource_id` filter). */
  async lineItems(platform: PlatformRecord, lineItemsUrl: string, resourceId: string): Promise<LineItem[]> {
    const url = new URL(lineItemsUrl);
    url.searchParams.set('resource_id', resourceId);
    const response = await this.call(platform, [SCOPE_LINE_ITEM], url.href, { headers: { accept: MEDIA.lineItems } }, '성적 항목 목록(AGS)');
    const body = z.array(z.unknown()).safeParse(await readJson(response));
    if (!body.success) throw unavailable('성적 항목 목록(AGS)', '응답 형식이 올바르지 않습니다');
    return body.data.flatMap((raw) => {
      const item = LineItem.safeParse(raw);
      return item.success && item.data.resourceId === resourceId ? [item.data] : [];
    });
  }

  async createLineItem(platform: PlatformRecord, lineItemsUrl: string, item: Omit<LineItem, 'id'>): Promise<LineItem> {
    const response = await this.call(
      platform,
      [SCOPE_LINE_ITEM],
      lineItemsUrl,
      { method: 'POST', headers: { 'content-type': MEDIA.lineItem, accept: MEDIA.lineItem }, body: JSON.stringify(item) },
      '성적 항목 만들기(AGS)',
    );
    const created = LineItem.safeParse(await readJson(response));
    if (!created.success) throw unavailable('성적 항목 만들기(AGS)', '응답에 항목 주소(id)가 없습니다');
    return created.data;
  }

  /** Posts a user's score to a line item (`{lineitem}/scores`, the line item's query kept). */
  async postScore(platform: PlatformRecord, lineItemUrl: string, score: Score): Promise<void> {
    const url = new URL(lineItemUrl);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
    await this.call(
      platform,
      [SCOPE_SCORE],
      url.href,
      {
        method: 'POST',
        headers: { 'content-type': MEDIA.score },
        body: JSON.stringify({ ...score, activityProgress: 'Completed', gradingProgress: 'FullyGraded' }),
      },
      '점수 보내기(AGS)',
    );
  }

  /** One service call with a bearer token; a 401 drops a cached token and tries once more with a new one. */
  private async call(platform: PlatformRecord, scopes: readonly string[], url: string, init: RequestInit, what: string): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      const token = await this.accessToken(platform, scopes);
      const response = await this.send(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } }, what);
      if (response.status === 401 && attempt === 0) {
        await this.options.store.del(tokenKey(platform, scopes));
        continue;
      }
      if (!response.ok) throw unavailable(what, `HTTP ${response.status}${await errorDetail(response)}`);
      return response;
    }
  }

  /** An access token for the scopes, from the store while it lives, else from the platform's token endpoint. */
  async accessToken(platform: PlatformRecord, scopes: readonly string[]): Promise<string> {
    const { store, toolKeys } = this.options;
    const cached = await store.get(tokenKey(platform, scopes));
    if (cached !== null) return cached;
    const assertion = await toolKeys.sign({ iss: platform.clientId, sub: platform.clientId, aud: platform.tokenUrl }, 300);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: [...scopes].sort().join(' '),
    });
    const response = await this.send(
      platform.tokenUrl,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
      '접근 토큰 발급',
    );
    if (!response.ok) throw unavailable('접근 토큰 발급', `HTTP ${response.status}${await errorDetail(response)}`);
    const answer = TokenAnswer.safeParse(await readJson(response));
    if (!answer.success) throw unavailable('접근 토큰 발급', '응답에 access_token이 없습니다');
    const lifetimeMs = (answer.data.expires_in ?? 3600) * 1000 - 60_000;
    if (lifetimeMs > 0) await store.set(tokenKey(platform, scopes), answer.data.access_token, { ttlMs: lifetimeMs });
    return answer.data.access_token;
  }

  private async send(url: string, init: RequestInit, what: string): Promise<Response> {
    try {
      return await this.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000) });
    } catch (error) {
      this.options.logger.warn({ err: error, url }, 'lti: platform call failed');
      throw unavailable(what, '연결할 수 없습니다', error);
    }
  }
}

const SCOPE_MEMBERS = SCOPE.memberships;
const SCOPE_LINE_ITEM = SCOPE.lineItem;
const SCOPE_SCORE = SCOPE.score;

const tokenKey = (platform: PlatformRecord, scopes: readonly string[]) => ltiKeys.ltiAccessToken(platform.platformId, sha256([...scopes].sort().join(' ')));

function unavailable(what: string, detail: string, cause?: unknown): AppError {
  return new AppError(ErrorCode.LTI_PLATFORM_UNAVAILABLE, `LMS ${what}에 실패했습니다: ${detail}.`, { retryable: true, cause });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** A short, printable piece of an error body (the platform's words help an admin), never more than 200 characters. */
async function errorDetail(response: Response): Promise<string> {
  try {
    const text = (await response.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
    return text ? ` (${text})` : '';
  } catch {
    return '';
  }
}

/** The `rel="next"` URL of a Link header, or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}
