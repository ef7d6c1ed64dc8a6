/**
 * Every `Content-Disposition` this server sends goes through here. A download's name may come from what people
 * typed (a chapter title from a PDF's outline): characters that reverse or hide text (U+202E turns "cod.exe" into
 * "exe.doc" on screen), controls, and path or quote characters are dropped before the name reaches a save dialog.
 * The header carries a plain-ASCII `filename` for old clients and the UTF-8 name in `filename*` (RFC 6266, RFC 5987).
 */

/**
 * Controls, bidi marks, embeddings, overrides and isolates, zero-width and other invisible format characters. The
 * combining ones (variation selectors, the grapheme joiner) are listed on their own, to be dropped, not combined.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffc]|[\u{e0000}-\u{e007f}]/gu;
/** What a file name may not hold on common systems, or what would break the quoted header value. */
const UNSAFE = /[\\/:*?"<>|%;]+/g;

/** The name as it will be saved: hidden characters dropped, unsafe ones replaced, spaces collapsed; `fallback` if empty. */
export function safeFileName(name: string, fallback = 'download'): string {
  const cleaned = name
    .normalize('NFC')
    .replace(HIDDEN, '')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return cleaned.length > 0 ? cleaned.slice(0, 180) : fallback;
}

/** The header value for `name` (cleaned by {@link safeFileName}), shown `inline` or saved as an `attachment`. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const safe = safeFileName(name);
  // Non-ASCII becomes '_' in the fallback; the extension survives because it is ASCII.
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
