/**
 * The key terms of a material, per chapter (GET /api/materials/:id/key-terms): the host's quiz topics and the
 * classroom's question example are the material's own words. `token`: a student's session token (the classroom);
 * without it the instructor's browser session is used. Remembered per material for the page's life.
 */
import type { MaterialKeyTerms } from '../../src/protocol/wire/material-terms.js';
import { apiJson } from './http.js';

const known = new Map<string, Promise<MaterialKeyTerms>>();

export function materialKeyTerms(materialId: string, token?: string): Promise<MaterialKeyTerms> {
  let found = known.get(materialId);
  if (!found) {
    found = apiJson<MaterialKeyTerms>(`/api/materials/${encodeURIComponent(materialId)}/key-terms`, {
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      fallback: '자료의 핵심 용어를 불러오지 못했습니다.',
    });
    // A failure is not remembered: the next look asks again.
    found.catch(() => known.delete(materialId));
    known.set(materialId, found);
  }
  return found;
}
