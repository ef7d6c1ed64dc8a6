/**
 * Where a browser goes after signing in. Only a path on this site: an absolute URL, a scheme-relative `//host`
 * or a backslash trick (`/\host`, which browsers read as `//host`) would make the sign-in an open redirect.
 */
export const DEFAULT_RETURN_PATH = '/';

const MAX_RETURN_PATH = 512;

export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_PATH) return DEFAULT_RETURN_PATH;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return DEFAULT_RETURN_PATH;
  // Control characters (tab, newline) are dropped by URL parsers and could turn the path into `//host`.
  for (const char of value) if (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) return DEFAULT_RETURN_PATH;
  // The resolved URL must stay on a dummy origin: catches anything the checks above did not think of.
  const resolved = new URL(value, 'http://lectern.invalid');
  if (resolved.origin !== 'http://lectern.invalid') return DEFAULT_RETURN_PATH;
  return resolved.pathname + resolved.search + resolved.hash;
}
