// Quiz host, the address phones use to join: PUBLIC_URL when the server has one (GET /api/site), else the address
// this page was opened at. Opened on localhost without PUBLIC_URL, the join link and QR code point at the phone
// itself, so the page says so (and how to fix it) instead of letting a class scan a dead code.
import { apiFetch, jsonBody } from '../../net/http.js';
import { $ } from '../../ui/dom.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

let publicUrl: string | null = null;

/** The origin (or origin + path) phones should open, without a trailing slash. */
export function joinBase(): string {
  return publicUrl ?? location.origin;
}

/** Whether this page was opened on the machine itself (a phone cannot reach that address). */
export function openedLocally(): boolean {
  return LOCAL_HOSTS.has(location.hostname) || location.hostname.endsWith('.localhost');
}

/** Reads PUBLIC_URL once and shows the localhost warning when it applies. A failed read keeps the page's address. */
export async function loadPublicAddress(): Promise<void> {
  try {
    const response = await apiFetch('/api/site');
    const body = await jsonBody<{ publicUrl?: string | null }>(response);
    if (response.ok && typeof body.publicUrl === 'string' && /^https?:\/\//.test(body.publicUrl)) publicUrl = body.publicUrl;
  } catch {
    // Offline: the page's own address is the best guess.
  }
  $('localhost-warning').hidden = publicUrl !== null || !openedLocally();
}
