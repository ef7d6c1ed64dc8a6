/**
 * HTTP helpers the pages share: the paginated list endpoints (see docs/PROTOCOL.md, "Lists") and the wording of a
 * request that never reached the server.
 */

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
  options: { cursor?: string | null; limit?: number; headers?: Record<string, string> } = {},
): Promise<Page<Item>> {
  const query = new URLSearchParams({ limit: String(options.limit ?? PAGE_LIMIT) });
  if (options.cursor) query.set('cursor', options.cursor);
  const response = await fetch(`${path}?${query}`, { headers: options.headers ?? {} });
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
