/*
 * Rules pinned in this file (test/SPEC.md is their index):
 * - GR20 — Told as final only at the target precision. A verdict is told as final from CONFIDENT_AT, §3's precision
 *   target (0.85), and each offline confidence is the share right of its group under grouped cross-validation over
 *   the dev sets pooled: a good verdict whose P(good) is 0.3–0.4 above the threshold (0.80 right) is unsure, one 0.4
 *   or more above it (0.88) is told; a bad verdict 0.2 or more below it (0.90) and a never-good flag (0.88) are told.
 *   `npm run eval:judge` prints every group (`Confidence groups`): what the confidence rests on and its share right.
 */
import { describe, expect, it } from 'vitest';
import { TARGET_PRECISION, confidenceGroups } from '../scripts/eval-confidence.js';
import { CONFIDENT_AT, FLAG_CONFIDENCE, assessAnswer, confidenceReading } from '../src/judges/index.js';

const QUESTION = '평균에 대해 자신의 말로 설명해 보세요.';
const REFERENCE = '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다. 평균은 자료의 무게중심입니다.';
const reading = (answer: string) => {
  const assessment = assessAnswer({ question: QUESTION, reference: REFERENCE, answer });
  return { label2: assessment.label2, ...confidenceReading(assessment) };
};

describe('told as final only at the target precision (GR20)', () => {
  it('GR20 the bar for a final verdict is the precision §3 asks of final verdicts', () => {
    expect(CONFIDENT_AT).toBe(TARGET_PRECISION);
  });

  it('GR20 a right paraphrase in other words is asked about; the definition restated is told as right', () => {
    // `모든 값을 더해서` for `값을 모두 더한 뒤`: good, but in the margin row where one good verdict in five is wrong.
    const paraphrase = reading('모든 값을 더해서 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.');
    expect(paraphrase).toMatchObject({ label2: 'good', basis: 'margin', row: 0.3 });
    expect(paraphrase.confidence).toBeLessThan(CONFIDENT_AT);
    const restated = reading('값을 모두 더한 뒤 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.');
    expect(restated).toMatchObject({ label2: 'good', basis: 'margin', row: 0.4 });
    expect(restated.confidence).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('GR20 a bad verdict decided by a never-good flag or read far below the threshold is told; a terse one with a key term is not', () => {
    const negated = reading('평균은 자료의 값을 모두 더한 뒤 개수로 나눈 값이 아니에요.');
    expect(negated).toMatchObject({ label2: 'bad', basis: 'flag', confidence: FLAG_CONFIDENCE });
    expect(FLAG_CONFIDENCE).toBeGreaterThanOrEqual(CONFIDENT_AT);
    expect(reading('잘 모르겠어요')).toMatchObject({ label2: 'bad', basis: 'certain' });
    const offSubject = reading('오늘 점심은 김치찌개를 먹었어요.');
    expect(offSubject).toMatchObject({ label2: 'bad', basis: 'margin' });
    expect(offSubject.row).toBeGreaterThanOrEqual(0.2);
    expect(offSubject.confidence).toBeGreaterThanOrEqual(CONFIDENT_AT);
    const terse = reading('무게중심');
    expect(terse).toMatchObject({ label2: 'bad' });
    expect(terse.basis).not.toBe('margin');
    expect(terse.confidence).toBeLessThan(CONFIDENT_AT);
  });

  it('GR20 the eval groups verdicts as the confidence reads them and measures each group', () => {
    const groups = confidenceGroups([
      { gold: 'good', predicted: 'good', confidence: 0.8, basis: 'margin', row: 0.3 },
      { gold: 'bad', predicted: 'good', confidence: 0.8, basis: 'margin', row: 0.3 },
      { gold: 'good', predicted: 'good', confidence: 0.88, basis: 'margin', row: 0.4 },
      { gold: 'bad', predicted: 'bad', confidence: 0.88, basis: 'flag' },
      { gold: 'good', predicted: 'bad', confidence: 0.6, basis: 'key-term' },
      { gold: 'bad', predicted: 'bad', confidence: 0.51, basis: 'margin', row: 0 },
    ]);
    expect(groups).toEqual([
      { group: 'flag (bad)', n: 1, told: 0.88, right: 1 },
      { group: 'key-term (bad)', n: 1, told: 0.6, right: 0 },
      { group: 'margin bad ≥ 0', n: 1, told: 0.51, right: 1 },
      { group: 'margin good ≥ 0.3', n: 2, told: 0.8, right: 0.5 },
      { group: 'margin good ≥ 0.4', n: 1, told: 0.88, right: 1 },
    ]);
  });

  it('GR20 a group also measures how often its three-way status is right, over the verdicts that have one (GR21)', () => {
    const [group] = confidenceGroups([
      { gold: 'bad', predicted: 'bad', confidence: 0.9, basis: 'margin', row: 0.2, status: { gold: 'incorrect', predicted: 'incorrect' } },
      { gold: 'bad', predicted: 'bad', confidence: 0.9, basis: 'margin', row: 0.2, status: { gold: 'partial', predicted: 'incorrect' } },
      { gold: 'bad', predicted: 'bad', confidence: 0.9, basis: 'margin', row: 0.2 },
    ]);
    expect(group).toEqual({ group: 'margin bad ≥ 0.2', n: 3, told: 0.9, right: 1, status: { n: 2, right: 0.5 } });
  });
});
