/**
 * The instructor's classes on the server ("내 수업", docs/PROTOCOL.md "Classes"), read with the account's cookie. A
 * class's instructor token (for the `/monitor` socket and the class-scoped calls) is never stored: each page load
 * asks `GET /api/classes/:id` for a fresh one.
 */
import type { ClassInfo, ClassSummary } from '../../src/protocol/wire/classroom.js';
import { apiJson, fetchAllPages, fetchPage, type Page } from './http.js';

export type { ClassSummary };

/**
 * A class opened by its owner: what the monitor and the host page need, with the fresh instructor token that
 * `GET /api/classes/:id` adds for the account (a class token caller gets none).
 */
export type OpenedClass = Omit<ClassInfo, 'students' | 'nextCursor'> & { instructorToken: string };

export function classesPage(cursor: string | null, limit?: number): Promise<Page<ClassSummary>> {
  return fetchPage<ClassSummary>('/api/classes', 'classes', { cursor, ...(limit ? { limit } : {}) });
}

export function allClasses(): Promise<ClassSummary[]> {
  return fetchAllPages<ClassSummary>('/api/classes', 'classes');
}

/** The class with a fresh instructor token (the account's own class; 404 for anyone else's). */
export async function openClass(classId: string): Promise<OpenedClass> {
  const body = await apiJson<OpenedClass>(`/api/classes/${encodeURIComponent(classId)}?limit=1`, { fallback: '수업을 열지 못했습니다.' });
  return { classId: body.classId, name: body.name, code: body.code, materialId: body.materialId ?? null, createdAt: body.createdAt, closedAt: body.closedAt ?? null, instructorToken: body.instructorToken };
}

/** Makes a class; with `roster` (names) its students pick their name from that list instead of typing a nickname. */
export async function createClass(name: string, materialId: string | null, roster: string[] = []): Promise<OpenedClass> {
  const request = { name, ...(materialId ? { materialId } : {}), ...(roster.length > 0 ? { roster } : {}) };
  const body = await apiJson<OpenedClass>('/api/classes', { method: 'POST', body: request, fallback: '수업을 만들지 못했습니다.' });
  return { ...body, materialId: body.materialId ?? materialId, closedAt: null, createdAt: body.createdAt ?? Date.now() };
}
