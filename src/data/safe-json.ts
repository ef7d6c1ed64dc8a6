/** A corrupt value is treated as absent (what cannot be read is skipped, and still deleted by key). */
export function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
