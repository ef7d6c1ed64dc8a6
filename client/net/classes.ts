/**
 * The instructor's classes on the server ("내 수업", docs/PROTOCOL.md "Classes"), read with the account's cookie. A
 * class's instructor token (for the `/monitor` socket and the class-scoped calls) is never stored: each page load
 * asks `GET /api/classes/:id` for a fresh one.
 */
import { apiJson, fetchAllPages, fetchPage, type Page } from './http.js';

/** One class of `GET /api/classes`. */
export interface ClassSummary {
  classId: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  closed: boolean;
  studentCount: number;
}

/** A class opened by its owner: what the monitor and the host page need, with a fresh instructor token. */
export interface OpenedClass {
  classId: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  closedAt: number | null;
  instructorToken: string;
}

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

export async function createClass(name: string, materialId: string | null): Promise<OpenedClass> {
  const body = await apiJson<OpenedClass>('/api/classes', { method: 'POST', body: { name, ...(materialId ? { materialId } : {}) }, fallback: '수업을 만들지 못했습니다.' });
  return { ...body, materialId: body.materialId ?? materialId, closedAt: null, createdAt: body.createdAt ?? Date.now() };
}
