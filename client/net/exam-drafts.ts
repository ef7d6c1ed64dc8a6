/**
 * A student's exam drafts on their way to the server: every keystroke is kept at once in this tab's
 * sessionStorage, and the changed answers are sent together (`PUT /api/class-exams/:id/draft`) once typing rests for
 * `DEBOUNCE_MS`. A failed save is retried with a growing pause until it goes through, and a reload sends what the
 * server had not confirmed yet, so a dropped connection or a closed tab never loses text. What the server refuses for
 * good (the deadline passed, the item was submitted) is reported, not retried.
 */
export const DEBOUNCE_MS = 800;
const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000];

export type DraftState =
  | { kind: 'idle' }
  | { kind: 'typing' }
  | { kind: 'saving' }
  | { kind: 'saved'; savedAt: number; serverNow: number }
  | { kind: 'retrying'; message: string; inMs: number }
  | { kind: 'refused'; code: string | undefined; message: string };

/** The tab's storage (the page passes `sessionStorage`; no DOM types here, the unit tests run in node). */
export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface DraftSaverOptions {
  storage: TabStorage;
  /** The storage key of this exam and student. */
  storageKey: string;
  save(answers: Record<string, string>): Promise<{ savedAt: number; serverNow: number }>;
  state(state: DraftState): void;
}

/** What the tab keeps: every answer as typed, and which of them the server has not confirmed. */
interface LocalCopy {
  answers: Record<string, string>;
  unsent: string[];
}

/** Codes after which sending the same answers again cannot succeed. */
const FINAL_CODES = new Set(['EXAM_CLOSED', 'EXAM_ALREADY_SUBMITTED', 'EXAM_NOT_FOUND', 'EXAM_NOT_PUBLISHED', 'UNAUTHORIZED', 'FORBIDDEN']);

export class DraftSaver {
  private local: LocalCopy;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending = false;
  private failures = 0;
  private stopped = false;

  constructor(private readonly options: DraftSaverOptions) {
    this.local = readLocal(options.storage, options.storageKey);
  }

  /**
   * The answers to show: the server's drafts, overlaid with what this tab typed that the server has not confirmed
   * (then sent at once). Items the server took as submitted keep the server's text.
   */
  restore(serverDrafts: Record<string, string>, submitted: Record<string, true>): Record<string, string> {
    for (const id of Object.keys(submitted)) this.forget(id);
    const unsent = new Set(this.local.unsent);
    const merged: Record<string, string> = { ...serverDrafts };
    for (const id of unsent) merged[id] = this.local.answers[id] ?? '';
    this.local = { answers: { ...merged }, unsent: [...unsent] };
    this.write();
    if (unsent.size > 0) this.schedule(0);
    return merged;
  }

  /** A keystroke: kept locally now, sent when typing rests. */
  set(id: number, text: string): void {
    if (this.stopped) return;
    const key = String(id);
    this.local.answers[key] = text;
    if (!this.local.unsent.includes(key)) this.local.unsent.push(key);
    this.write();
    this.options.state({ kind: 'typing' });
    this.schedule(DEBOUNCE_MS);
  }

  /** Sends what is unsent now (before a submission); resolves true when nothing is left unsent. */
  async flush(): Promise<boolean> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.send();
    return this.local.unsent.length === 0;
  }

  /** The item was submitted: its draft no longer travels. */
  forget(id: number | string): void {
    const key = String(id);
    this.local.unsent = this.local.unsent.filter((entry) => entry !== key);
    this.write();
  }

  get hasUnsent(): boolean {
    return this.local.unsent.length > 0;
  }

  /** No more saving (deadline, whole exam submitted, panel closed); the local copy stays until `clear`. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  clear(): void {
    this.stop();
    try {
      this.options.storage.removeItem(this.options.storageKey);
    } catch {
      // No storage: nothing kept.
    }
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, delay);
  }

  private async send(): Promise<void> {
    if (this.stopped || this.sending || this.local.unsent.length === 0) return;
    this.sending = true;
    const batch = Object.fromEntries(this.local.unsent.map((id) => [id, this.local.answers[id] ?? '']));
    this.options.state({ kind: 'saving' });
    try {
      const reply = await this.options.save(batch);
      this.failures = 0;
      // Only what was sent and not typed over meanwhile is confirmed.
      this.local.unsent = this.local.unsent.filter((id) => this.local.answers[id] !== batch[id]);
      this.write();
      this.options.state(this.local.unsent.length > 0 ? { kind: 'typing' } : { kind: 'saved', savedAt: reply.savedAt, serverNow: reply.serverNow });
    } catch (error) {
      // An ApiError (client/net/http.ts) carries the server's code.
      const code = (error as { code?: unknown } | null)?.code;
      const message = error instanceof Error ? error.message : String(error);
      if (typeof code === 'string' && FINAL_CODES.has(code)) {
        this.options.state({ kind: 'refused', code, message });
        this.stop();
      } else {
        const inMs = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)] ?? 15_000;
        this.failures += 1;
        this.options.state({ kind: 'retrying', message, inMs });
        this.sending = false;
        this.schedule(inMs);
        return;
      }
    } finally {
      this.sending = false;
    }
    // Typed while the request was out: send that too, after the usual pause.
    if (!this.stopped && this.local.unsent.length > 0 && !this.timer) this.schedule(DEBOUNCE_MS);
  }

  private write(): void {
    try {
      this.options.storage.setItem(this.options.storageKey, JSON.stringify(this.local));
    } catch {
      // Private mode without storage: the server's copy is the only one.
    }
  }
}

function readLocal(storage: TabStorage, key: string): LocalCopy {
  try {
    const saved = JSON.parse(storage.getItem(key) ?? 'null') as Partial<LocalCopy> | null;
    if (saved && typeof saved.answers === 'object' && saved.answers !== null && Array.isArray(saved.unsent)) {
      const answers: Record<string, string> = {};
      for (const [id, text] of Object.entries(saved.answers)) if (typeof text === 'string') answers[id] = text;
      return { answers, unsent: saved.unsent.filter((id): id is string => typeof id === 'string' && id in answers) };
    }
  } catch {
    // Unreadable: start empty.
  }
  return { answers: {}, unsent: [] };
}
