import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';

/**
 * A local LMS platform for the tests, speaking LTI 1.3 Advantage on the wire as Moodle and Canvas do: it signs
 * launches with its own RS256 keys and serves them as a JWKS (and can rotate them), answers the OIDC auth request with
 * the auto-posting `id_token` form, issues access tokens for client-credentials JWT assertions it verifies against
 * the tool's JWKS, serves a course roster (NRPS, two members a page with `Link: rel="next"`), line items and scores
 * (AGS), takes Deep Linking responses (verifying the tool's signature), and supports Dynamic Registration. Its
 * course page frames the tool as an LMS does (an iframe whose form auto-posts the login initiation), for the browser.
 *
 * Every launch goes through the real routes: `launch()` posts the login initiation to the tool, follows the redirect
 * to this platform's auth endpoint, reads the form it answers, and posts it to the tool's launch URL. `tamper`
 * changes what the platform signs (claims, key, expiry, audience) to test the tool's refusals.
 */

export const ROLES = {
  learner: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
  instructor: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor', 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty'],
};

export interface FakeUser {
  sub: string;
  name: string;
  email?: string;
  roles: string[];
}

export interface Tamper {
  /** Claims replaced (or added) in the signed token; `undefined` removes one. */
  claims?: Record<string, unknown>;
  /** Signed with a key the platform never published. */
  rogueKey?: boolean;
  /** Seconds from now of `exp` (negative: already expired). */
  expiresIn?: number;
  /** The token's signature bytes changed after signing. */
  corruptSignature?: boolean;
  /** The id token of an earlier launch instead of a new one (another login's nonce). */
  idToken?: string;
}

export interface LaunchOptions {
  user: FakeUser;
  /** A resource link of the course (its custom parameters are what the tool put there by deep linking). */
  link?: FakeLink;
  /** `deep-link`: the LMS asks the tool for content (a teacher adding an activity). */
  message?: 'resource' | 'deep-link';
  courseId?: string;
  deploymentId?: string;
  tamper?: Tamper;
}

export interface FakeLink {
  id: string;
  title: string;
  custom: Record<string, string>;
  lineItemId?: string;
}

export interface LaunchResult {
  status: number;
  html: string;
  /** The landing page's JSON, or null for an error page. */
  landing: Record<string, unknown> | null;
  errorCode: string | null;
  /** The Set-Cookie headers of the launch answer. */
  cookies: string[];
  /** The form the platform posted (to replay it). */
  form: { id_token: string; state: string };
  /** The state cookie the login set. */
  stateCookie: string | null;
}

export interface LineItemRecord {
  id: string;
  label: string;
  scoreMaximum: number;
  resourceId?: string;
  tag?: string;
  resourceLinkId?: string;
}

export interface ScoreRecord {
  lineItemId: string;
  userId: string;
  scoreGiven: number;
  scoreMaximum: number;
  timestamp: string;
  activityProgress: string;
  gradingProgress: string;
}

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface PendingLaunch extends LaunchOptions {
  toolLaunchUrl: string;
}

export class FakeLms {
  url = '';
  clientId = 'lectern-client';
  deploymentId = 'dep-1';
  readonly course = { id: 'course-101', title: '확률과 통계' };
  members: FakeUser[] = [];
  /** The tool's URLs once known (manual registration: set by the test; dynamic registration: learned). */
  tool: { loginUrl: string; launchUrl: string; jwksUrl: string } | null = null;
  readonly lineItems = new Map<string, LineItemRecord>();
  readonly scores: ScoreRecord[] = [];
  readonly links: FakeLink[] = [];
  readonly deepLinkAnswers: JWTPayload[] = [];
  readonly tokenRequests: { scope: string; ok: boolean }[] = [];
  readonly registrations: Record<string, unknown>[] = [];
  /** Calls of the score endpoint to refuse (with this status) before accepting again. */
  scoreFailures: { count: number; status: number } = { count: 0, status: 500 };
  registrationToken = `reg-${randomUUID()}`;

  private server: Server | null = null;
  private keys: { kid: string; privateKey: PrivateKey; publicJwk: JWK }[] = [];
  private rogue: { kid: string; privateKey: PrivateKey } | null = null;
  private readonly pending = new Map<string, PendingLaunch>();
  private readonly tokens = new Map<string, { scopes: string[] }>();
  private toolKeys: ReturnType<typeof createRemoteJWKSet> | null = null;
  private lineItemCount = 0;

  get issuer() {
    return this.url;
  }
  get jwksUrl() {
    return `${this.url}/jwks`;
  }
  get authUrl() {
    return `${this.url}/auth`;
  }
  get tokenUrl() {
    return `${this.url}/token`;
  }
  get openidConfigurationUrl() {
    return `${this.url}/.well-known/openid-configuration`;
  }

  /** The body of `POST /api/lti/platforms` that registers this platform by hand. */
  registration(extra: Record<string, unknown> = {}) {
    return {
      name: '테스트 Moodle',
      issuer: this.issuer,
      clientId: this.clientId,
      deploymentIds: [this.deploymentId],
      jwksUrl: this.jwksUrl,
      authUrl: this.authUrl,
      tokenUrl: this.tokenUrl,
      ...extra,
    };
  }

  /** Tells the platform where the tool is (what an admin types into the LMS's tool form). */
  useTool(base: string): void {
    this.tool = { loginUrl: `${base}/lti/login`, launchUrl: `${base}/lti/launch`, jwksUrl: `${base}/lti/jwks` };
    this.toolKeys = createRemoteJWKSet(new URL(this.tool.jwksUrl), { cooldownDuration: 0 });
  }

  async start(): Promise<void> {
    await this.rotateKey();
    const rogue = await generateKeyPair('RS256');
    this.rogue = { kid: 'rogue-key', privateKey: rogue.privateKey };
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    // `localhost`, not 127.0.0.1: in the browser test the LMS is another site than lectern (127.0.0.1).
    this.url = `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** A new signing key, published first; the old ones stay published (as a platform rotating its keys does). */
  async rotateKey(options: { dropOld?: boolean } = {}): Promise<string> {
    const pair = await generateKeyPair('RS256', { extractable: true });
    const kid = `lms-${randomUUID().slice(0, 8)}`;
    const entry = { kid, privateKey: pair.privateKey, publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' } };
    this.keys = options.dropOld ? [entry] : [entry, ...this.keys];
    return kid;
  }

  /** A launch through the real routes: login initiation → auth endpoint → id_token form post. */
  async launch(toolBase: string, options: LaunchOptions): Promise<LaunchResult> {
    const prepared = await this.prepare(toolBase, options);
    if ('refused' in prepared) return prepared.refused;
    return this.postLaunch(toolBase, prepared.form, prepared.stateCookie);
  }

  /** The first two steps of a launch (login initiation, auth endpoint): the form the browser would post, unposted. */
  async prepare(toolBase: string, options: LaunchOptions): Promise<{ form: { id_token: string; state: string }; stateCookie: string | null } | { refused: LaunchResult }> {
    const hint = randomUUID();
    this.pending.set(hint, { ...options, toolLaunchUrl: `${toolBase}/lti/launch` });
    const login = await fetch(`${toolBase}/lti/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        iss: this.issuer,
        login_hint: options.user.sub,
        target_link_uri: `${toolBase}/lti/launch`,
        lti_message_hint: hint,
        client_id: this.clientId,
        lti_deployment_id: options.deploymentId ?? this.deploymentId,
      }),
      redirect: 'manual',
    });
    if (login.status !== 302) {
      const html = await login.text();
      return { refused: { status: login.status, html, landing: null, errorCode: errorCode(html), cookies: [], form: { id_token: '', state: '' }, stateCookie: null } };
    }
    const stateCookie = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').find((cookie) => cookie.startsWith('lectern_lti_state=')) ?? null;
    const auth = await fetch(login.headers.get('location') ?? '', { redirect: 'manual' });
    const formHtml = await auth.text();
    if (auth.status !== 200) throw new Error(`fake LMS auth endpoint refused: ${auth.status} ${formHtml}`);
    return { form: { id_token: field(formHtml, 'id_token'), state: field(formHtml, 'state') }, stateCookie };
  }

  /** Posts a launch form to the tool (a replay posts an old one again). */
  async postLaunch(toolBase: string, form: { id_token: string; state: string }, stateCookie: string | null): Promise<LaunchResult> {
    const response = await fetch(`${toolBase}/lti/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(stateCookie ? { cookie: stateCookie } : {}) },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
    const html = await response.text();
    const json = /<script type="application\/json" id="lti-landing">([\s\S]*?)<\/script>/.exec(html)?.[1];
    return {
      status: response.status,
      html,
      landing: json ? (JSON.parse(json) as Record<string, unknown>) : null,
      errorCode: errorCode(html),
      cookies: response.headers.getSetCookie(),
      form,
      stateCookie,
    };
  }

  /** Posts a Deep Linking response JWT back to this platform, as the tool's picker page does. */
  async returnDeepLink(returnUrl: string, jwt: string): Promise<{ status: number; text: string }> {
    const response = await fetch(returnUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ JWT: jwt }) });
    return { status: response.status, text: await response.text() };
  }

  /** The id token the platform signs for a pending launch (the auth endpoint's answer). */
  private async idToken(launch: PendingLaunch, nonce: string): Promise<string> {
    const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
    const courseId = launch.courseId ?? this.course.id;
    const deepLink = launch.message === 'deep-link';
    const claims: Record<string, unknown> = {
      nonce,
      name: launch.user.name,
      ...(launch.user.email ? { email: launch.user.email } : {}),
      [`${lti}message_type`]: deepLink ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest',
      [`${lti}version`]: '1.3.0',
      [`${lti}deployment_id`]: launch.deploymentId ?? this.deploymentId,
      [`${lti}target_link_uri`]: launch.toolLaunchUrl,
      [`${lti}roles`]: launch.user.roles,
      [`${lti}context`]: { id: courseId, title: this.course.title, label: 'STAT101', type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'] },
      [`${lti}tool_platform`]: { guid: 'fake-lms', name: 'Fake Moodle', product_family_code: 'moodle', version: '4.3' },
      'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': { context_memberships_url: `${this.url}/nrps/${courseId}`, service_versions: ['2.0'] },
      'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
        scope: [
          'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
          'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
          'https://purl.imsglobal.org/spec/lti-ags/scope/score',
          'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
        ],
        lineitems: `${this.url}/ags/${courseId}/lineitems`,
        ...(launch.link?.lineItemId ? { lineitem: `${this.url}/ags/${courseId}/lineitems/${launch.link.lineItemId}` } : {}),
      },
      ...(deepLink
        ? {
            'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
              deep_link_return_url: `${this.url}/deep-link-return`,
              accept_types: ['ltiResourceLink'],
              accept_presentation_document_targets: ['iframe', 'window'],
              accept_multiple: true,
              data: 'platform-opaque-data',
            },
          }
        : {
            [`${lti}resource_link`]: { id: launch.link?.id ?? 'course-home', title: launch.link?.title ?? '강좌 홈' },
            ...(launch.link && Object.keys(launch.link.custom).length > 0 ? { [`${lti}custom`]: launch.link.custom } : {}),
          }),
    };
    const tamper = launch.tamper ?? {};
    for (const [name, value] of Object.entries(tamper.claims ?? {})) {
      if (value === undefined) delete claims[name];
      else claims[name] = value;
    }
    const key = tamper.rogueKey ? this.rogue : this.keys[0];
    if (!key) throw new Error('fake LMS has no key');
    const now = Math.floor(Date.now() / 1000);
    let token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(typeof claims.iss === 'string' ? claims.iss : this.issuer)
      .setAudience((claims.aud as string | string[] | undefined) ?? this.clientId)
      .setSubject(launch.user.sub)
      .setIssuedAt(now - (tamper.expiresIn !== undefined && tamper.expiresIn < 0 ? 3600 : 0))
      .setExpirationTime(now + (tamper.expiresIn ?? 300))
      .sign(key.privateKey);
    if (tamper.corruptSignature) {
      const [header, payload, signature] = token.split('.');
      const flipped = (signature ?? '').startsWith('A') ? `B${signature?.slice(1)}` : `A${signature?.slice(1)}`;
      token = `${header}.${payload}.${flipped}`;
    }
    return tamper.idToken ?? token;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const path = url.pathname;
    if (request.method === 'GET' && path === '/jwks') return json(response, 200, { keys: this.keys.map((key) => key.publicJwk) });
    if (request.method === 'GET' && path === '/auth') return this.authorize(url, response);
    if (request.method === 'POST' && path === '/token') return this.token(await formBody(request), response);
    if (request.method === 'GET' && path.startsWith('/nrps/')) return this.roster(request, url, response);
    const lineItems = /^\/ags\/([^/]+)\/lineitems(?:\/([^/]+)(\/scores)?)?$/.exec(path);
    if (lineItems) return this.grades(request, url, response, lineItems[2], lineItems[3] !== undefined);
    if (request.method === 'POST' && path === '/deep-link-return') return this.deepLinkReturn(await formBody(request), response);
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') return this.openidConfiguration(request, response);
    if (request.method === 'POST' && path === '/register') return this.register(request, response);
    if (request.method === 'GET' && path === '/course') return this.coursePage(url, response);
    if (request.method === 'GET' && path === '/launch-frame') return this.launchFrame(url, response);
    json(response, 404, { error: 'not found' });
  }

  /** The OIDC auth endpoint: checks the request as a platform does and answers the auto-posting form. */
  private async authorize(url: URL, response: ServerResponse): Promise<void> {
    const query = Object.fromEntries(url.searchParams);
    const launch = this.pending.get(query.lti_message_hint ?? '');
    const problems = [
      query.scope !== 'openid' && 'scope',
      query.response_type !== 'id_token' && 'response_type',
      query.response_mode !== 'form_post' && 'response_mode',
      query.client_id !== this.clientId && 'client_id',
      !query.nonce && 'nonce',
      !query.state && 'state',
      this.tool && query.redirect_uri !== this.tool.launchUrl && launch?.toolLaunchUrl !== query.redirect_uri && 'redirect_uri',
      !launch && 'lti_message_hint',
      launch && query.login_hint !== launch.user.sub && 'login_hint',
    ].filter(Boolean);
    if (problems.length > 0 || !launch) return json(response, 400, { error: 'invalid_request', problems });
    this.pending.delete(query.lti_message_hint ?? '');
    const idToken = await this.idToken(launch, query.nonce ?? '');
    html(
      response,
      `<form id="post" method="post" action="${escape(query.redirect_uri ?? '')}">
<input type="hidden" name="id_token" value="${escape(idToken)}"><input type="hidden" name="state" value="${escape(query.state ?? '')}">
</form><script>document.getElementById('post').submit()</script>`,
    );
  }

  /** Client credentials with a JWT assertion signed by the tool's key (checked against the tool's JWKS). */
  private async token(form: URLSearchParams, response: ServerResponse): Promise<void> {
    const scope = form.get('scope') ?? '';
    const refuse = (error: string) => {
      this.tokenRequests.push({ scope, ok: false });
      json(response, 400, { error });
    };
    if (form.get('grant_type') !== 'client_credentials') return refuse('unsupported_grant_type');
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return refuse('invalid_client');
    if (!this.toolKeys) return refuse('invalid_client');
    try {
      const { payload } = await jwtVerify(form.get('client_assertion') ?? '', this.toolKeys, { issuer: this.clientId, subject: this.clientId, audience: this.tokenUrl });
      if (!payload.jti) return refuse('invalid_client');
    } catch {
      return refuse('invalid_client');
    }
    const token = randomUUID();
    this.tokens.set(token, { scopes: scope.split(' ') });
    this.tokenRequests.push({ scope, ok: true });
    json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope });
  }

  private bearer(request: IncomingMessage, scope: string): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return token !== undefined && (this.tokens.get(token)?.scopes.includes(scope) ?? false);
  }

  private roster(request: IncomingMessage, url: URL, response: ServerResponse): void {
    if (!this.bearer(request, 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly')) return json(response, 401, { error: 'unauthorized' });
    if (request.headers.accept !== 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json') return json(response, 406, { error: 'media type' });
    const page = Number(url.searchParams.get('page') ?? '0');
    const members = this.members.slice(page * 2, page * 2 + 2).map((member) => ({ user_id: member.sub, name: member.name, email: member.email, roles: member.roles, status: 'Active' }));
    const next = (page + 1) * 2 < this.members.length ? `<${this.url}${url.pathname}?page=${page + 1}>; rel="next"` : undefined;
    response.writeHead(200, { 'content-type': 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json', ...(next ? { link: next } : {}) });
    response.end(JSON.stringify({ id: url.href, context: { id: this.course.id, title: this.course.title }, members }));
  }

  private async grades(request: IncomingMessage, url: URL, response: ServerResponse, itemId: string | undefined, scores: boolean): Promise<void> {
    if (scores && itemId && request.method === 'POST') {
      if (!this.bearer(request, 'https://purl.imsglobal.org/spec/lti-ags/scope/score')) return json(response, 401, { error: 'unauthorized' });
      if (request.headers['content-type'] !== 'application/vnd.ims.lis.v1.score+json') return json(response, 415, { error: 'media type' });
      if (!this.lineItems.has(itemId)) return json(response, 404, { error: 'no such line item' });
      if (this.scoreFailures.count > 0) {
        this.scoreFailures.count -= 1;
        return json(response, this.scoreFailures.status, { error: 'gradebook is busy' });
      }
      const body = JSON.parse(await text(request)) as Omit<ScoreRecord, 'lineItemId'>;
      this.scores.push({ ...body, lineItemId: itemId });
      response.writeHead(204).end();
      return;
    }
    if (!this.bearer(request, 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem')) return json(response, 401, { error: 'unauthorized' });
    if (request.method === 'GET' && !itemId) {
      const resourceId = url.searchParams.get('resource_id');
      const items = [...this.lineItems.values()].filter((item) => resourceId === null || item.resourceId === resourceId);
      response.writeHead(200, { 'content-type': 'application/vnd.ims.lis.v2.lineitemcontainer+json' });
      response.end(JSON.stringify(items.map((item) => ({ ...item, id: `${this.url}/ags/${this.course.id}/lineitems/${item.id}` }))));
      return;
    }
    if (request.method === 'POST' && !itemId) {
      const body = JSON.parse(await text(request)) as Omit<LineItemRecord, 'id'>;
      const item = this.addLineItem(body);
      response.writeHead(201, { 'content-type': 'application/vnd.ims.lis.v2.lineitem+json' });
      response.end(JSON.stringify({ ...item, id: `${this.url}/ags/${this.course.id}/lineitems/${item.id}` }));
      return;
    }
    json(response, 405, { error: 'method' });
  }

  private addLineItem(body: Omit<LineItemRecord, 'id'>): LineItemRecord {
    this.lineItemCount += 1;
    const item = { ...body, id: String(this.lineItemCount) };
    this.lineItems.set(item.id, item);
    return item;
  }

  /** A Deep Linking response: the tool's signature, audience, message type and the echoed data are checked. */
  private async deepLinkReturn(form: URLSearchParams, response: ServerResponse): Promise<void> {
    if (!this.toolKeys) return json(response, 400, { error: 'no tool' });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(form.get('JWT') ?? '', this.toolKeys, { issuer: this.clientId, audience: this.issuer }));
    } catch (error) {
      return json(response, 400, { error: `invalid JWT: ${String(error)}` });
    }
    const dl = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
    if (payload['https://purl.imsglobal.org/spec/lti/claim/message_type'] !== 'LtiDeepLinkingResponse' || payload[`${dl}data`] !== 'platform-opaque-data' || !payload.nonce) {
      return json(response, 400, { error: 'not a deep linking response' });
    }
    this.deepLinkAnswers.push(payload);
    const items = (payload[`${dl}content_items`] ?? []) as { type: string; title: string; url: string; custom?: Record<string, string>; lineItem?: Omit<LineItemRecord, 'id'> }[];
    for (const item of items) {
      const link: FakeLink = { id: `rl-${this.links.length + 1}`, title: item.title, custom: item.custom ?? {} };
      if (item.lineItem) link.lineItemId = this.addLineItem({ ...item.lineItem, resourceLinkId: link.id }).id;
      this.links.push(link);
    }
    html(response, `<p>${items.length}개의 링크를 추가했습니다.</p>`);
  }

  private openidConfiguration(request: IncomingMessage, response: ServerResponse): void {
    if (request.headers.authorization !== `Bearer ${this.registrationToken}`) return json(response, 401, { error: 'registration token' });
    json(response, 200, {
      issuer: this.issuer,
      authorization_endpoint: this.authUrl,
      token_endpoint: this.tokenUrl,
      jwks_uri: this.jwksUrl,
      registration_endpoint: `${this.url}/register`,
      scopes_supported: ['openid'],
      response_types_supported: ['id_token'],
      id_token_signing_alg_values_supported: ['RS256'],
      'https://purl.imsglobal.org/spec/lti-platform-configuration': { product_family_code: 'moodle', version: '4.3', messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }] },
    });
  }

  private async register(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.authorization !== `Bearer ${this.registrationToken}`) return json(response, 401, { error: 'registration token' });
    const body = JSON.parse(await text(request)) as Record<string, unknown>;
    this.registrations.push(body);
    const redirect = (body.redirect_uris as string[] | undefined)?.[0];
    const login = body.initiate_login_uri as string | undefined;
    const jwks = body.jwks_uri as string | undefined;
    if (!redirect || !login || !jwks || body.token_endpoint_auth_method !== 'private_key_jwt') return json(response, 400, { error: 'invalid_client_metadata' });
    this.clientId = `dyn-${randomUUID().slice(0, 8)}`;
    this.tool = { loginUrl: login, launchUrl: redirect, jwksUrl: jwks };
    this.toolKeys = createRemoteJWKSet(new URL(jwks), { cooldownDuration: 0 });
    json(response, 200, { ...body, client_id: this.clientId, 'https://purl.imsglobal.org/spec/lti-tool-configuration': { ...(body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as object), deployment_id: this.deploymentId } });
  }

  /** The course page an LMS shows: the activity framed; the frame's form posts the login initiation to the tool. */
  private coursePage(url: URL, response: ServerResponse): void {
    html(
      response,
      `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>${escape(this.course.title)}</title></head><body>
<h1>${escape(this.course.title)}</h1>
<iframe id="tool" name="tool" title="lectern" style="width:1100px;height:800px" src="/launch-frame?${escape(url.searchParams.toString())}" allow="clipboard-write"></iframe>
</body></html>`,
    );
  }

  /** Inside the frame: the login initiation form, auto-posted to the tool (the pending launch named by `hint`). */
  private launchFrame(url: URL, response: ServerResponse): void {
    const hint = url.searchParams.get('hint') ?? '';
    const launch = this.pending.get(hint);
    if (!launch || !this.tool) return json(response, 400, { error: 'no such launch' });
    const fields = { iss: this.issuer, login_hint: launch.user.sub, target_link_uri: this.tool.launchUrl, lti_message_hint: hint, client_id: this.clientId, lti_deployment_id: this.deploymentId };
    html(
      response,
      `<form id="login" method="post" action="${escape(this.tool.loginUrl)}">${Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`)
        .join('')}</form><script>document.getElementById('login').submit()</script>`,
    );
  }

  /** Prepares a launch for the browser: the course page URL that frames it. */
  coursePageFor(toolBase: string, options: LaunchOptions): string {
    const hint = randomUUID();
    this.pending.set(hint, { ...options, toolLaunchUrl: `${toolBase}/lti/launch` });
    return `${this.url}/course?hint=${hint}`;
  }
}

export async function startFakeLms(): Promise<FakeLms> {
  const lms = new FakeLms();
  await lms.start();
  return lms;
}

function field(htmlText: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(htmlText)?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"') ?? '';
}

function errorCode(htmlText: string): string | null {
  return /data-testid="lti-error-code">([A-Z_]+)</.exec(htmlText)?.[1] ?? null;
}

function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function html(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(body);
}

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await text(request));
}
