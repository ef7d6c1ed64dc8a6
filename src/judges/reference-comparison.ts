import { type Contradiction, findContradiction } from './contradiction.js';
import type { AnalysedText } from './text-units.js';
import { type UnitGroup, groupFound, unitFound, unitGroups } from './unit-match.js';

/**
 * How an answer compares with one reference answer: the measurements the assessor's score is made of. Every
 * number is a share in [0, 1] (or a bounded log ratio), defined the same way for any question, so the few
 * weights fitted on the English dev sets carry over to unseen questions and to Korean.
 */
export interface ReferenceComparison {
  matched: UnitGroup[];
  missing: UnitGroup[];
  /** Number of the question's distinct content units. */
  questionSize: number;
  /** Number of the reference's distinct concepts. */
  referenceSize: number;
  /** Share of the reference's concepts found in the answer. */
  recall: number;
  /** The same over the concepts the question does not already contain (echoing the question earns nothing). */
  novelRecall: number;
  novelMatched: number;
  /** Number of the reference's concepts that the question does not contain. */
  novelCount: number;
  /** Share of the answer's distinct content units found in the reference. */
  precision: number;
  /** Share of the answer's distinct content units found in the reference or the question. */
  onTopic: number;
  /** Share of the reference's adjacent concept pairs found near each other, in order, in the answer. */
  bigramRecall: number;
  /** Dice overlap of spacing-free character bigrams (Hangul) and units (Latin). */
  gramDice: number;
  /** log2 of answer to reference content length, clipped to [-3, 3]. */
  lengthRatio: number;
  /** Share of the answer's distinct content units that are the question's own. */
  questionShare: number;
  contradiction: Contradiction;
}

function isHangulUnit(unit: string): boolean {
  return /[\uac00-\ud7a3]/u.test(unit);
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

function bigramRecall(answer: AnalysedText, reference: AnalysedText): number {
  const positions = new Map<string, number[]>();
  answer.units.forEach((unit, index) => positions.set(unit, [...(positions.get(unit) ?? []), index]));
  const contentTokens = reference.tokens.filter((token) => token.content);
  let total = 0;
  let found = 0;
  for (let index = 0; index + 1 < contentTokens.length; index += 1) {
    const left = contentTokens[index];
    const right = contentTokens[index + 1];
    if (left === undefined || right === undefined || left.sentence !== right.sentence || left.unit === right.unit) continue;
    total += 1;
    if (left.hangul && right.hangul && answer.hangulStream.includes(left.unit + right.unit)) {
      found += 1;
      continue;
    }
    const leftAt = positions.get(left.unit) ?? [];
    const rightAt = positions.get(right.unit) ?? [];
    if (leftAt.some((at) => rightAt.some((other) => other > at && other - at <= 3))) found += 1;
  }
  return share(found, total);
}

function dice(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size + right.size === 0) return 0;
  let common = 0;
  for (const gram of left) if (right.has(gram)) common += 1;
  return (2 * common) / (left.size + right.size);
}

/**
 * Whether the answer holds a reference concept. Where one concept of the reference contains another (`데크레셴도`
 * holds `크레셴도`, `표본평균` holds `평균`) the reference tells the two apart, so each must be written out as itself:
 * the looser readings (syllable bigrams of a run without spaces, a final syllable of slack) would take the one for
 * the other, and the inner one is not found inside the outer one (`데크레셴도는` says nothing of `크레셴도`).
 */
function found(group: UnitGroup, groups: readonly UnitGroup[], answer: AnalysedText): boolean {
  // Hangul only: the loose readings are Hangul's, and English stems nest by chance (`rout` in `router`).
  const others = groups.filter((other) => other !== group).flatMap((other) => other.units).filter(isHangulUnit);
  const nested = group.units.some((unit) => isHangulUnit(unit) && others.some((other) => other !== unit && (other.includes(unit) || unit.includes(other))));
  if (!nested) return groupFound(group, answer);
  return group.units.some((unit) => {
    if (answer.unitSet.has(unit)) return true;
    if (!isHangulUnit(unit)) return false;
    // The answer's run without spaces, with the reference's longer concepts that contain this one taken out.
    const outer = others.filter((other) => other !== unit && other.includes(unit));
    const stream = outer.reduce((text, other) => text.split(other).join(' '), answer.hangulStream);
    return stream.includes(unit);
  });
}

export function compareWithReference(
  answer: AnalysedText,
  reference: AnalysedText,
  question: AnalysedText,
): ReferenceComparison {
  const groups = unitGroups(reference);
  const matched: UnitGroup[] = [];
  const missing: UnitGroup[] = [];
  for (const group of groups) (found(group, groups, answer) ? matched : missing).push(group);
  const novel = groups.filter((group) => !group.units.some((unit) => unitFound(unit, isHangulUnit(unit), question)));
  const novelMatched = novel.filter((group) => matched.includes(group)).length;
  const answerUnits = [...answer.unitSet];
  const inReference = answerUnits.filter((unit) => unitFound(unit, isHangulUnit(unit), reference));
  const inQuestion = answerUnits.filter((unit) => unitFound(unit, isHangulUnit(unit), question));
  const onTopic = answerUnits.filter((unit) => inReference.includes(unit) || inQuestion.includes(unit));
  const ratio = Math.log2((answer.units.length + 1) / (reference.units.length + 1));
  return {
    matched,
    missing,
    questionSize: question.unitSet.size,
    referenceSize: groups.length,
    recall: share(matched.length, groups.length),
    novelRecall: novel.length === 0 ? share(matched.length, groups.length) : share(novelMatched, novel.length),
    novelMatched,
    novelCount: novel.length,
    precision: share(inReference.length, answerUnits.length),
    onTopic: share(onTopic.length, answerUnits.length),
    bigramRecall: bigramRecall(answer, reference),
    gramDice: dice(answer.grams, reference.grams),
    lengthRatio: Math.max(-3, Math.min(3, ratio)),
    questionShare: share(inQuestion.length, answerUnits.length),
    contradiction: findContradiction(answer, reference),
  };
}
