// DOM and socket helpers every page shares: element lookup, building nodes with textContent only (server and user
// text is untrusted and never becomes HTML), and an acked socket command that always resolves.

export const ACK_TIMEOUT_MS = 10_000;

export const $ = (id) => document.getElementById(id);

/** A DOM node; `text` becomes textContent (never HTML). */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('data-') || name.startsWith('aria-') || name === 'role' || name === 'for') node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** Emits a command and resolves with its ack, or with a local error when offline or when the ack times out. */
export function sendCommand(socket, name, payload = {}) {
  return new Promise((resolve) => {
    if (!socket?.connected) {
      resolve({ ok: false, error: { code: 'OFFLINE', message: '서버와 연결이 끊겨 있습니다. 다시 연결되면 시도해 주세요.' } });
      return;
    }
    socket.timeout(ACK_TIMEOUT_MS).emit(name, payload, (error, ack) => {
      if (error) resolve({ ok: false, error: { code: 'TIMEOUT', message: '서버가 응답하지 않습니다. 잠시 후 다시 시도해 주세요.' } });
      else resolve(ack ?? { ok: false, error: { code: 'INTERNAL', message: '요청을 처리하지 못했습니다.' } });
    });
  });
}

/** What to show for a failed request: a fetch that never reached the server throws TypeError. */
export function requestFailure(error) {
  return error instanceof TypeError ? '서버에 연결할 수 없습니다.' : error.message;
}

/** Largest page a list endpoint serves (see docs/PROTOCOL.md, "Lists"). */
export const PAGE_LIMIT = 50;

/**
 * One page of a list endpoint (`GET path?cursor=&limit=`): `{items, nextCursor, body}`, where `key` names the array
 * in the answer (`quizzes`, `rooms`, `materials`). Throws with the server's message on an error answer.
 */
export async function fetchPage(path, key, { cursor, limit = PAGE_LIMIT, headers = {} } = {}) {
  const url = new URL(path, location.origin);
  url.searchParams.set('limit', String(limit));
  if (cursor) url.searchParams.set('cursor', cursor);
  const response = await fetch(url.pathname + url.search, { headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error?.message || `목록을 불러오지 못했습니다 (HTTP ${response.status}).`);
  return { items: body[key] ?? [], nextCursor: body.nextCursor ?? null, body };
}

/** Every item of a list, page after page (for pickers that must offer everything). */
export async function fetchAllPages(path, key, options = {}) {
  const items = [];
  let cursor = null;
  let first;
  do {
    const page = await fetchPage(path, key, { ...options, cursor });
    first ??= page.body;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return { items, body: first };
}
