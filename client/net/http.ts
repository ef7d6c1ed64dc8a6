/**
 * HTTP helpers the pages share: the one place every page request goes through (same-origin cookies, and the CSRF
 * header on state-changing requests that the instructor's session cookie authorises), the paginated list endpoints
 * (see docs/PROTOCOL.md, "Conventions") and the wording of a request that never reached the server.
 */
import { ERROR_MESSAGES } from '../../src/protocol/wire/index.js';

/**
 * The session's CSRF token (from sign-in, sign-up or `GET /api/auth/me`), kept in memory only: a script on another
 * site can make the browser send the cookie but can never read this value, so it cannot forge the header.
 */
let csrfToken: string | null = null;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The header a state-changing request needs (for XMLHttpRequest uploads, which cannot use `apiFetch`). */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'x-csrf-token': csrfToken } : {};
}

/**
 * fetch with the account's cookie and, on POST/PUT/PATCH/DELETE, its CSRF token. A state-changing request of a page
 * that has not learned the token (a student's page, in a browser where an instructor is also signed in) goes without
 * the cookie: the server would refuse a cookie without its token (CSRF_INVALID), and as a guest it is what it means.
 * Sign-in, sign-up and reset pass `credentials` themselves: their answer sets the session cookie.
 */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const method = (init.method ?? 'GET').toUpperCase();
  const changes = !SAFE_METHODS.has(method);
  if (changes) for (const [name, value] of Object.entries(csrfHeaders())) headers.set(name, value);
  return fetch(path, { credentials: changes && !csrfToken ? 'omit' : 'same-origin', ...init, headers });
}

/** An error answer: the Korean message to show and the stable code to branch on. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * A JSON request through `apiFetch` (a `body` is sent as JSON); the answer's body, or an `ApiError` with the
 * server's Korean message (or the protocol's sentence for its code, or `fallback`).
 */
export async function apiJson<T extends object>(
  path: string,
  {
    method = 'GET',
    body,
    headers = {},
    fallback = '요청을 처리하지 못했습니다.',
    credentials,
  }: { method?: string; body?: unknown; headers?: Record<string, string>; fallback?: string; credentials?: RequestCredentials } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await apiFetch(path, {
      method,
      ...(credentials ? { credentials } : {}),
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError('서버에 연결할 수 없습니다.', 0, undefined);
  }
  const data = await jsonBody<T>(response);
  if (!response.ok) {
    const code = data.error?.code;
    const byCode = code !== undefined ? (ERROR_MESSAGES as Record<string, string | undefined>)[code] : undefined;
    throw new ApiError(data.error?.message || byCode || `${fallback} (HTTP ${response.status})`, response.status, code);
  }
  return data;
}

/**
 * Sends again after each `429` that says when (`Retry-After`): a class join behind a school's one address while a
 * whole lecture hall joins. `waiting(seconds)` is told every second of the wait, then `waiting(0)` as it sends again;
 * the form's fields are never touched. After `maxWaitSeconds` of waiting in all it answers the last 429.
 */
export async function sendRetryingAfter(send: () => Promise<Response>, waiting: (seconds: number) => void, maxWaitSeconds = 180): Promise<Response> {
  let waited = 0;
  for (;;) {
    const response = await send();
    const seconds = Number(response.headers.get('retry-after'));
    if (response.status !== 429 || !Number.isInteger(seconds) || seconds < 1 || waited + seconds > maxWaitSeconds) return response;
    for (let left = seconds; left > 0; left -= 1) {
      waiting(left);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    waited += seconds;
    waiting(0);
  }
}

/** Largest page a list endpoint serves. */
export const PAGE_LIMIT = 50;

/** The error body every HTTP error answer carries. */
export interface ErrorBody {
  error?: { code?: string; message?: string };
}

export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
  /** The whole answer (some lists carry more, e.g. the upload limits next to the materials). */
  body: Record<string, unknown>;
}

/** What to show for a failed request: a fetch that never reached the server throws TypeError. */
export function requestFailure(error: unknown): string {
  if (error instanceof TypeError) return '서버에 연결할 수 없습니다.';
  return error instanceof Error ? error.message : String(error);
}

/** A JSON body, or `{}` when there is none or it does not parse. */
export async function jsonBody<T extends object = Record<string, unknown>>(response: Response): Promise<T & ErrorBody> {
  return (await response.json().catch(() => ({}))) as T & ErrorBody;
}

/**
 * One page of a list endpoint (`GET path?cursor=&limit=`), where `key` names the array in the answer (`quizzes`,
 * `rooms`, `materials`). Throws with the server's message on an error answer.
 */
export async function fetchPage<Item>(
  path: string,
  key: string,
  options: { cursor?: string | null; limit?: number; headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<Page<Item>> {
  const query = new URLSearchParams({ ...options.query, limit: String(options.limit ?? PAGE_LIMIT) });
  if (options.cursor) query.set('cursor', options.cursor);
  const response = await apiFetch(`${path}?${query}`, { headers: options.headers ?? {} });
  const body = await jsonBody(response);
  if (!response.ok) throw new Error(body.error?.message || `목록을 불러오지 못했습니다 (HTTP ${response.status}).`);
  const items = body[key];
  const nextCursor = body.nextCursor;
  return { items: Array.isArray(items) ? (items as Item[]) : [], nextCursor: typeof nextCursor === 'string' ? nextCursor : null, body };
}

/** Every item of a list, page after page (for pickers that must offer everything). */
export async function fetchAllPages<Item>(path: string, key: string, options: { headers?: Record<string, string> } = {}): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Item> = await fetchPage<Item>(path, key, { ...options, cursor });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * `DELETE path` (204, or 404 when it is already gone: either way it no longer exists). Throws with the server's
 * Korean message otherwise (e.g. ROOM_LIVE while a quiz room is being played).
 */
export async function deleteResource(path: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await apiFetch(path, { method: 'DELETE', headers });
  if (response.ok || response.status === 404) return;
  const body = await jsonBody(response);
  throw new Error(body.error?.message || `지우지 못했습니다 (HTTP ${response.status}).`);
}
