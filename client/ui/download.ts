import { apiFetch, jsonBody } from '../net/http.js';
import { element } from './dom.js';
import { errorText } from './messages.js';

/**
 * Fetches `url` with `Authorization: Bearer <token>` and saves the body as `filename` (tokens never go in URLs, so
 * a results link is fetched with the header and saved as a blob). Resolves with null, or with a Korean error message.
 */
export async function downloadWithToken(url: string, token: string, filename: string): Promise<string | null> {
  let response: Response;
  try {
    response = await apiFetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch {
    return '서버에 연결할 수 없습니다.';
  }
  if (!response.ok) {
    const body = await jsonBody(response);
    return errorText(body.error, `내려받지 못했습니다 (HTTP ${response.status}).`);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = element('a', { href, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return null;
}
