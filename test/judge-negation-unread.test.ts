/*
 * Rule pinned in this file (test/SPEC.md is its index; the tests below are its full statement):
 * - J18 — A negation of a word the reference does not say decides nothing. English negation is compared by parity
 *   clause by clause, whatever it applies to; when the `negation` flag comes from a negation said of a word the
 *   best-fitting reference does not say (`Terminal 1 is not connected to the positive terminal` against `Terminal 1
 *   and the positive terminal are separated by the gap`), the answer may be the reference's claim in other words: the
 *   bad verdict keeps its cap but is unsure (NEGATION_UNREAD_CONFIDENCE, below CONFIDENT_AT), unless another
 *   deciding flag holds it. A negation of a word both say (`not separated` / `separated`, `not connected` /
 *   `connected`) is read: on a Korean answer (read on its head) it decides with FLAG_CONFIDENCE, on an English one it
 *   caps without deciding (J34, parity).
 */
import { describe, expect, it } from 'vitest';
import {
  CONFIDENT_AT,
  FLAG_CONFIDENCE,
  NEGATION_UNREAD_CONFIDENCE,
  analyseText,
  assessAnswer,
  assessmentConfidence,
  confidenceReading,
  negatesSharedWord,
} from '../src/judges/index.js';

const TERMINAL = {
  question: 'Explain why you got a voltage reading of 1.5 for terminal 1 and the positive terminal.',
  reference: 'Terminal 1 and the positive terminal are separated by the gap',
};
const PATHS = { question: 'Why do bulbs B and C stay on?', reference: 'bulbs B and C are still in closed paths with the battery' };
const CONNECTED = { question: 'What does a voltage reading of 0 tell you?', reference: 'the terminals are connected' };
const BOILING = { question: '물은 1기압에서 몇 도에서 끓나요?', reference: '1기압에서 물은 섭씨 100도에서 끓는다.' };

describe('J18: a negation of a word the reference does not say decides nothing', () => {
  it.each([
    [TERMINAL, 'Terminal 1 is not connected to the positive terminal.'],
    [PATHS, 'bulb A is not in the same path as bulbs B and C'],
  ])('J18: a negation said of another word (%#) keeps the cap but is unsure', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.evidence.flags).toContain('negation');
    expect(result.label2).toBe('bad');
    expect(result.negationUnread).toBe(true);
    expect(assessmentConfidence(result)).toBeLessThanOrEqual(NEGATION_UNREAD_CONFIDENCE);
    expect(assessmentConfidence(result)).toBeLessThan(CONFIDENT_AT);
  });

  it.each([
    [TERMINAL, 'Terminal 1 is not separated from the positive terminal by a gap.'],
    [CONNECTED, 'the terminals are not connected'],
  ])('J18: a negation of a word both say (%#) is read: in English it caps like J34 says, without deciding', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.evidence.flags).toContain('negation');
    expect(result.negationUnread).toBe(false);
    expect(result.englishNegationFlag).toBe(true);
    expect(result.label2).toBe('bad');
    expect(confidenceReading(result).basis).toBe('english-negation');
  });

  it('J18: a Korean negation of a word both say still decides', () => {
    const result = assessAnswer({ ...BOILING, answer: '1기압에서 물은 100도에서 끓지 않는다.' });
    expect(result.evidence.flags).toContain('negation');
    expect(result.negationUnread).toBe(false);
    expect(assessmentConfidence(result)).toBe(FLAG_CONFIDENCE);
  });

  it('J18: the negated word is the first content word after the cue, on either side', () => {
    expect(negatesSharedWord(analyseText('it is not connected'), analyseText('they are separated by a gap'))).toBe(false);
    expect(negatesSharedWord(analyseText('there is no gap'), analyseText('they are separated by a gap'))).toBe(true);
    expect(negatesSharedWord(analyseText('they are connected'), analyseText('they are not connected'))).toBe(true);
  });

  it('J18: another deciding flag still holds an unread negation', () => {
    const unread = assessAnswer({ ...TERMINAL, answer: 'Terminal 1 is not connected to the positive terminal.' });
    const swapped = { ...unread, evidence: { ...unread.evidence, flags: [...unread.evidence.flags, 'swapped' as const] } };
    expect(swapped.negationUnread).toBe(true);
    expect(assessmentConfidence(swapped)).toBe(FLAG_CONFIDENCE);
  });
});
