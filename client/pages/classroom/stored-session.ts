import type { MaterialOutline } from './lecture-view.js';

/** The classroom's session as this tab keeps it (sessionStorage), so a reload resumes the same session. */
export interface StoredSession {
  sessionId: string;
  token: string;
  lastSeq: number;
  /** `lecture:start` was acknowledged (or a snapshot showed the lecture under way). */
  started: boolean;
  nickname: string;
  classId?: string;
  classCode?: string;
  material: MaterialOutline;
}

const STORAGE_KEY = 'lectern.classroom';
/** The nickname last used on this browser (the quiz player page reads the same key). */
export const NICKNAME_KEY = 'lectern.nickname';

export function loadSession(): StoredSession | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<StoredSession> | null;
    return saved && typeof saved.token === 'string' && saved.material ? (saved as StoredSession) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: StoredSession): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Private mode without storage: the page still works, only a reload starts over.
  }
}

export function forgetSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
