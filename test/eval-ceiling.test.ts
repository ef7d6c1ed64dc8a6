/*
 * Rules pinned in this file (test/SPEC.md is their index):
 * - GR18 — The ceiling of a score. `npm run eval:judge` prints, per set, what any pair of thresholds on the assessor's
 *   P(good) could reach: the score's ROC AUC and the largest coverage at precision ≥ 0.85 for good and for bad, the
 *   pair chosen on the answers themselves. A score that orders every good answer above every bad one covers all of
 *   them; one that orders nothing covers none; ties are one cut, never split.
 */
import { describe, expect, it } from 'vitest';
import { scoreCeiling } from '../scripts/eval-confidence.js';

const good = (count: number) => new Array<'good'>(count).fill('good');
const bad = (count: number) => new Array<'bad'>(count).fill('bad');

describe('the ceiling of a score (GR18)', () => {
  it('GR18 a score that separates the labels covers every answer, with AUC 1', () => {
    const ceiling = scoreCeiling([0.1, 0.2, 0.3, 0.7, 0.8, 0.9], [...bad(3), ...good(3)]);
    expect(ceiling).toEqual({ auc: 1, coverage: 1, low: 0.3, high: 0.7 });
  });

  it('GR18 a score that orders nothing covers nothing, with AUC 0.5', () => {
    const ceiling = scoreCeiling([0.5, 0.5, 0.5, 0.5], [...good(2), ...bad(2)]);
    expect(ceiling.auc).toBe(0.5);
    expect(ceiling.coverage).toBe(0);
  });

  it('GR18 the coverage stops where a side would drop under 0.85 precision', () => {
    // Five bad answers at 0–0.04, five good ones at 0.90–0.94, and between them two good answers scored below two bad
    // ones. Taking any of the four into either side brings that side to 5/6 = 0.83, so only the ten clear ones count.
    const scores = [0, 0.01, 0.02, 0.03, 0.04, 0.4, 0.45, 0.5, 0.55, 0.9, 0.91, 0.92, 0.93, 0.94];
    const labels = [...bad(5), 'good' as const, 'good' as const, 'bad' as const, 'bad' as const, ...good(5)];
    expect(scoreCeiling(scores, labels)).toEqual({ auc: 0.918, coverage: 0.714, low: 0.04, high: 0.9 });
  });

  it('GR18 tied scores fall on one side together', () => {
    // Two good and two bad answers share 0.5: no cut can split them, so only the clear answers are covered.
    const ceiling = scoreCeiling([0.1, 0.2, 0.5, 0.5, 0.5, 0.5, 0.8, 0.9], [...bad(2), 'good', 'good', 'bad', 'bad', ...good(2)]);
    expect(ceiling.coverage).toBe(0.5);
    expect(ceiling.auc).toBe(0.875);
  });
});
