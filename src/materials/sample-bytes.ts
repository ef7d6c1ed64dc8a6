/**
 * The sample lecture's bytes, built once per process. The build is deterministic (fixed dates, same font subset), so
 * every app of a process can share one copy: production boots one app per process and builds it once as before,
 * while a test process booting dozens of apps no longer has each app build it again (a worker thread and about a
 * second of font shaping each). Callers never transfer or change the bytes they get (the PDF pool copies them).
 */
let shared: Promise<Uint8Array> | undefined;

/** The shared bytes, or `build()`'s when none were built yet or the shared build failed (e.g. its app's pool closed). */
export async function sampleBytesOnce(build: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const current = shared;
  if (current) {
    try {
      return await current;
    } catch {
      // Whoever started that build failed (its pool closed under it, say); this caller builds its own below.
    }
  }
  const mine = build();
  shared = mine;
  mine.catch(() => {
    if (shared === mine) shared = undefined;
  });
  return mine;
}
