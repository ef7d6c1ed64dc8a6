// Storage for pages an LMS frames from another site. A browser that blocks third-party storage (Safari, Firefox's
// strict mode, Chrome's incognito) makes every read of `sessionStorage` or `localStorage` in the frame throw; the
// pages use both (the classroom's session, the exam being taken, a player's rooms). Imported first by those pages:
// where a storage throws, an in-memory one stands in for this page's life, so the page works and only a reload
// forgets (the LMS launches it again). Where storage works nothing changes.

class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

function usable(name: 'sessionStorage' | 'localStorage'): boolean {
  try {
    globalThis[name].getItem('lectern.probe');
    return true;
  } catch {
    return false;
  }
}

for (const name of ['sessionStorage', 'localStorage'] as const) {
  if (!usable(name)) Object.defineProperty(globalThis, name, { value: new MemoryStorage(), configurable: true, writable: true });
}

export {};
