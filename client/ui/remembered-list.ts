import { element } from './dom.js';

/**
 * A list this browser keeps in localStorage (the instructor's classes, the rooms it hosts, the rooms a player
 * joined): newest first, one entry per id, malformed entries dropped on read. Without storage (private mode) the
 * page still works until it is closed.
 */
export class RememberedList<Entry extends object> {
  constructor(
    private readonly key: string,
    private readonly idOf: (entry: Entry) => string,
    private readonly valid: (candidate: Record<string, unknown>) => boolean,
    private readonly max = Number.POSITIVE_INFINITY,
  ) {}

  all(): Entry[] {
    try {
      const saved: unknown = JSON.parse(localStorage.getItem(this.key) ?? '[]');
      if (!Array.isArray(saved)) return [];
      return saved.filter((entry): entry is Entry => typeof entry === 'object' && entry !== null && this.valid(entry as Record<string, unknown>));
    } catch {
      return [];
    }
  }

  /** Puts `entry` first (replacing the entry of the same id). */
  remember(entry: Entry): void {
    const id = this.idOf(entry);
    this.write([entry, ...this.all().filter((other) => this.idOf(other) !== id)].slice(0, this.max));
  }

  update(id: string, changes: Partial<Entry>): void {
    this.write(this.all().map((entry) => (this.idOf(entry) === id ? { ...entry, ...changes } : entry)));
  }

  forget(id: string): void {
    this.write(this.all().filter((entry) => this.idOf(entry) !== id));
  }

  private write(list: Entry[]): void {
    try {
      localStorage.setItem(this.key, JSON.stringify(list));
    } catch {
      // No storage (private mode): it works until the page is closed.
    }
  }
}

/** When an entry was made, in the words of the lists (empty when unknown). */
export function createdLabel(createdAt: number | undefined): string {
  return createdAt ? new Date(createdAt).toLocaleString('ko-KR', { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/**
 * One remembered entry as the pages list it (`kind`: `class` on the monitor, `room` on the quiz host): its title,
 * a line of details and its buttons. The title is untrusted: textContent only.
 */
export function rememberedItem(kind: 'class' | 'room', id: string, title: string, details: string, actions: HTMLElement[]): HTMLLIElement {
  return element(
    'li',
    { className: `${kind}-item`, 'data-testid': `${kind}-item`, [`data-${kind}-id`]: id },
    element('div', { className: `${kind}-item-text` }, element('strong', { text: title }), element('span', { className: 'muted', text: details })),
    element('div', { className: `${kind}-item-actions` }, ...actions),
  );
}
