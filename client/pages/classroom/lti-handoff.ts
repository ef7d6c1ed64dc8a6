// An LMS launch hands its student over to the classroom in the URL's fragment (`#lti=…`, base64url JSON, written by
// the launch's landing page): a page the LMS frames may have no storage that survives a navigation (third-party
// storage blocked), and a fragment never reaches a server or a Referer. Read once at start, then removed from the
// address; what it carries goes where the classroom reads it (its session, the exam to open).
import { saveSession, type StoredSession } from './stored-session.js';

/** The classroom's "exam being taken" (class-exam.ts opens it on entering). */
const OPEN_EXAM_KEY = 'lectern.exam.open';

export interface ClassroomHandoff {
  session: Omit<StoredSession, 'lastSeq' | 'started'>;
  examId?: string;
}

export function encodeHandoff(value: object): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeHandoff<T>(text: string): T | null {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)))) as T;
  } catch {
    return null;
  }
}

/** Takes the handoff of the address's fragment, if any (the session is stored, the fragment removed). */
export function takeClassroomHandoff(): void {
  const encoded = new URLSearchParams(location.hash.slice(1)).get('lti');
  if (!encoded) return;
  history.replaceState(null, '', location.pathname + location.search);
  const handoff = decodeHandoff<ClassroomHandoff>(encoded);
  if (!handoff?.session || typeof handoff.session.token !== 'string') return;
  saveSession({ ...handoff.session, lastSeq: 0, started: false });
  try {
    if (handoff.examId) sessionStorage.setItem(OPEN_EXAM_KEY, handoff.examId);
    else sessionStorage.removeItem(OPEN_EXAM_KEY);
  } catch {
    // The exam stays one click away in the class's list.
  }
}
