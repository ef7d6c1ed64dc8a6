import { createHash } from 'node:crypto';

/**
 * Results that do not depend on the student (a question's model answer, its subconcepts) are computed once and
 * shared: the first caller's promise is handed to everyone asking the same thing meanwhile (single flight), and
 * the result is kept, least recently used first out. A failure is not kept, so the next caller tries again.
 */
export class SharedResults<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly capacity = 1_000) {}

  static key(...parts: string[]): string {
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  }

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries.delete(key);
      this.entries.set(key, existing);
      return existing;
    }
    const created = compute();
    this.entries.set(key, created);
    created.catch(() => {
      if (this.entries.get(key) === created) this.entries.delete(key);
    });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return created;
  }
}
