import { englishAntonyms } from './english-words.js';
import { contentByClause, genitiveSwap, roleSwap } from './argument-roles.js';
import { hasBatchim, koreanAntonyms } from './korean-words.js';
import { negatesSharedWord, negationFlip } from './negation.js';
import { type AnalysedText, type Token, neighbours } from './text-units.js';
import { sameExceptFinal } from './unit-match.js';

/**
 * Does the answer say the opposite of the reference with the reference's own words? Three cheap signals, each
 * measured only where the two texts talk about the same things:
 * - polarity: a negation (not/never/없다/않다/아니다/못…, negation.ts) on one side only, or antonyms swapped in
 *   (same/different, 증가/감소…). A negation and an antonym cancel: "not connected to the negative terminal" and
 *   "connected to the positive terminal" agree;
 * - reversal: the two concepts around a causal or conditional cue trade places ("A causes B" / "B causes A";
 *   a passive "by"/"의해"/"is caused" on one side only swaps back; around `than`/`보다` an antonym swaps back);
 * - swapped pairs: concepts the reference pairs clause by clause are paired crosswise ("평균은 중심, 분산은 퍼짐"
 *   / "평균은 퍼짐, 분산은 중심").
 */

export interface Contradiction {
  negationFlip: boolean;
  /**
   * The negation behind negationFlip is said of a word both texts say (negation.ts negatesSharedWord); when not, the
   * flip may be a paraphrase with another word (`not connected` for `separated`). Always true without a flip.
   */
  negationRead: boolean;
  antonymFlips: string[];
  /** The two concepts whose order around a relation word was reversed. */
  reversed: [string, string] | undefined;
  /** Concepts paired crosswise. */
  swapped: [string, string] | undefined;
  /** Polarity and reversal signals do not cancel: the answer states the opposite. */
  flipped: boolean;
}

function antonymsOf(token: Token): readonly string[] {
  return token.hangul ? koreanAntonyms(token.unit) : englishAntonyms(token.unit);
}

/**
 * What an antonym-bearing word says something about: the nearest content word without an antonym on each side,
 * within three words in the same clause ("bulb C had an open path" → c, path).
 */
function anchorsOf(text: AnalysedText, index: number): Set<string> {
  const anchors = new Set<string>();
  // Korean puts the predicate after what it says something about (`분산이 크다`): look back only, but for an adverb
  // in `-게`, which says something about the verb after it too (`쉽게 끊는다`).
  const token = text.tokens[index];
  const sides = token?.hangul === true && token.ending !== '게' ? (['before'] as const) : (['before', 'after'] as const);
  for (const side of sides) {
    const nearest = neighbours(text, index, side).find((position) => {
      const token = text.tokens[position];
      return token !== undefined && Math.abs(position - index) <= 3 && antonymsOf(token).length === 0;
    });
    if (nearest !== undefined) anchors.add(text.tokens[nearest]?.unit ?? '');
  }
  return anchors;
}

/** Whether `text` says one of `units` about `anchor` (the anchor is near a token with such a unit). */
function saysAbout(text: AnalysedText, units: readonly string[], anchor: string): boolean {
  return text.tokens.some((token, index) => units.includes(token.unit) && anchorsOf(text, index).has(anchor));
}

/**
 * Antonyms swapped in: the answer says a word about a concept (a few words away, same clause) about which the
 * reference says the opposite word, while the reference never says the answer's word about it and the answer
 * never says the opposite about it.
 */
function antonymFlips(answer: AnalysedText, reference: AnalysedText): string[] {
  const flips: string[] = [];
  answer.tokens.forEach((token, index) => {
    const opposites = antonymsOf(token);
    if (opposites.length === 0 || flips.includes(token.surface)) return;
    for (const anchor of anchorsOf(answer, index)) {
      if (!saysAbout(reference, opposites, anchor)) continue;
      if (saysAbout(reference, [token.unit], anchor) || saysAbout(answer, opposites, anchor)) continue;
      flips.push(token.surface);
      return;
    }
  });
  return flips;
}

/** Role class of a Korean ending, so that `A가 B의` and `B가 A의` line up while `A에 의해 B가` does not. */
function role(token: Token): string {
  if (!token.hangul) return '';
  if (['이', '가', '은', '는', '께서'].includes(token.ending)) return 'subject';
  if (['을', '를'].includes(token.ending)) return 'object';
  return token.ending;
}

interface Sides {
  before: number[];
  after: number[];
}

/** Content units that occur exactly once in one clause, with their positions (relation cues left out). */
function onceInClause(text: AnalysedText, clause: number | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  const positions = new Map<string, number>();
  text.tokens.forEach((token, index) => {
    if (token.clause !== clause || !token.content || token.relation) return;
    counts.set(token.unit, (counts.get(token.unit) ?? 0) + 1);
    positions.set(token.unit, index);
  });
  for (const [unit, count] of counts) if (count !== 1) positions.delete(unit);
  return positions;
}

function sidesOf(cue: number, shared: Map<string, number>): Sides {
  const before: number[] = [];
  const after: number[] = [];
  for (const index of shared.values()) (index < cue ? before : after).push(index);
  before.sort((left, right) => left - right);
  after.sort((left, right) => left - right);
  return { before, after };
}

function passiveCount(text: AnalysedText, clause: number | undefined): number {
  return text.tokens.filter((token) => token.passive && token.clause === clause).length;
}

/** The two concepts around a relation word that trade places between reference and answer, if any. */
function reversal(answer: AnalysedText, reference: AnalysedText): [string, string] | undefined {
  const referenceCue = reference.tokens.findIndex((token) => token.relation);
  if (referenceCue < 0) return undefined;
  const cue = reference.tokens[referenceCue]?.cue;
  const answerCue = answer.tokens.findIndex((token) => token.relation && token.cue === cue);
  if (answerCue < 0) return undefined;
  // Only the cue's own clause counts, where each concept occurs once: "가격이 오르면 수요량은 감소하고, …".
  const referenceClause = reference.tokens[referenceCue]?.clause;
  const answerClause = answer.tokens[answerCue]?.clause;
  const referenceOnce = onceInClause(reference, referenceClause);
  const answerOnce = onceInClause(answer, answerClause);
  const sharedReference = new Map([...referenceOnce].filter(([unit]) => answerOnce.has(unit)));
  const sharedAnswer = new Map([...answerOnce].filter(([unit]) => referenceOnce.has(unit)));
  if (sharedReference.size < 2) return undefined;
  const unitAt = (text: AnalysedText, index: number): string => text.tokens[index]?.unit ?? '';
  const inReference = sidesOf(referenceCue, sharedReference);
  let inAnswer = sidesOf(answerCue, sharedAnswer);
  const passiveFlip = passiveCount(reference, referenceClause) % 2 !== passiveCount(answer, answerClause) % 2;
  if (passiveFlip) inAnswer = { before: [...inAnswer.after].reverse(), after: [...inAnswer.before].reverse() };
  const referenceBefore = inReference.before.map((index) => unitAt(reference, index));
  const referenceAfter = inReference.after.map((index) => unitAt(reference, index));
  const answerBefore = inAnswer.before.map((index) => unitAt(answer, index));
  const answerAfter = inAnswer.after.map((index) => unitAt(answer, index));
  // SVO: a concept before the cue in one text is after it in the other, and vice versa.
  const movedBack = referenceBefore.find((unit) => answerAfter.includes(unit));
  const movedFront = referenceAfter.find((unit) => answerBefore.includes(unit));
  if (movedBack !== undefined && movedFront !== undefined) return [movedBack, movedFront];
  // Verb-final (Korean) or cue-first (`if`): the nearest two concepts on the one side swap, roles unchanged.
  const pair = (side: 'before' | 'after'): [string, string] | undefined => {
    const referenceSide = side === 'before' ? inReference.before.slice(-2) : inReference.after.slice(0, 2);
    const answerSide = side === 'before' ? inAnswer.before.slice(-2) : inAnswer.after.slice(0, 2);
    if (referenceSide.length < 2 || answerSide.length < 2) return undefined;
    const [r1 = 0, r2 = 0] = referenceSide;
    const [a1 = 0, a2 = 0] = answerSide;
    const sameRoles = role(reference.tokens[r1] as Token) === role(answer.tokens[a1] as Token)
      && role(reference.tokens[r2] as Token) === role(answer.tokens[a2] as Token);
    const swappedUnits = unitAt(reference, r1) === unitAt(answer, a2) && unitAt(reference, r2) === unitAt(answer, a1);
    return sameRoles && swappedUnits ? [unitAt(reference, r1), unitAt(reference, r2)] : undefined;
  };
  if (inReference.after.length === 0 && inAnswer.after.length === 0) return pair('before');
  if (inReference.before.length === 0 && inAnswer.before.length === 0) return pair('after');
  return undefined;
}

const MAX_SWAP_CLAUSES = 4;

function clauseUnitSets(text: AnalysedText): Set<string>[] {
  return [...contentByClause(text).values()];
}

function firstIn(units: ReadonlySet<string>, part: ReadonlySet<string>): string | undefined {
  for (const unit of units) if (part.has(unit)) return unit;
  return undefined;
}

/**
 * Whether two units name the same thing in two forms: equal, or one is a Korean verb stem the other starts with as a
 * modifier, its last syllable taking a final (`붉` in `붉은색`, `푸르` in `푸른색`): "붉게 변하게" and "붉은색 종이"
 * both say red.
 */
function sameWord(unit: string, other: string): boolean {
  if (unit === other) return true;
  const [stem, word] = unit.length <= other.length ? [unit, other] : [other, unit];
  if (!/^[\uac00-\ud7a3]+$/u.test(stem + word)) return false;
  if (word.startsWith(stem) && word.length > stem.length) return true;
  const last = stem.length - 1;
  return !hasBatchim(stem[last] ?? '') && word.startsWith(stem.slice(0, last)) && sameExceptFinal(stem[last] ?? '', word[last] ?? '');
}

/**
 * Concepts the reference pairs clause by clause, paired crosswise by the answer: for two reference clauses, two
 * answer clauses each mix words found only in the first with words found only in the second ("평균은 중심,
 * 분산은 퍼짐" / "평균은 퍼짐, 분산은 중심"; "A는 X이고 B는 Y" / "A는 Y이고 B는 X"). A word the two reference
 * clauses say in two forms (`붉게 변하게` / `붉은색 종이`) pairs with one only when the answer says it in both.
 */
function swappedPairs(answer: AnalysedText, reference: AnalysedText): [string, string] | undefined {
  const referenceClauses = clauseUnitSets(reference);
  const answerClauses = clauseUnitSets(answer);
  const saidOnceBy = (unit: string): boolean => answerClauses.filter((clause) => [...clause].some((word) => sameWord(unit, word))).length <= 1;
  // A restatement pattern: in long multi-clause texts crosswise mentions are the norm, not a swap.
  if (referenceClauses.length > MAX_SWAP_CLAUSES || answerClauses.length > MAX_SWAP_CLAUSES) return undefined;
  for (let first = 0; first < referenceClauses.length; first += 1) {
    for (let second = first + 1; second < referenceClauses.length; second += 1) {
      const left = referenceClauses[first] ?? new Set<string>();
      const right = referenceClauses[second] ?? new Set<string>();
      // A word the answer says in one clause only, in a form one reference clause uses while the other says it in
      // another form, ties the answer to neither: "산성은 붉은색" may mean the paper that turns red.
      const tiedTo = (clause: ReadonlySet<string>, other: ReadonlySet<string>) =>
        new Set([...clause].filter((unit) => !other.has(unit) && !(saidOnceBy(unit) && [...other].some((word) => sameWord(unit, word)))));
      const onlyLeft = tiedTo(left, right);
      const onlyRight = tiedTo(right, left);
      const mixed = answerClauses
        .map((clause) => ({ left: firstIn(clause, onlyLeft), right: firstIn(clause, onlyRight) }))
        .filter((entry) => entry.left !== undefined && entry.right !== undefined);
      for (let one = 0; one < mixed.length; one += 1) {
        for (let other = one + 1; other < mixed.length; other += 1) {
          const a = mixed[one];
          const b = mixed[other];
          if (a?.left !== undefined && b?.left !== undefined && a.left !== b.left && a.right !== b.right) {
            return [a.left, b.left];
          }
        }
      }
    }
  }
  return undefined;
}

/** Cues of comparison: a reversal around them is undone by an antonym ("A is larger than B" = "B is smaller than A"). */
const COMPARATIVE_CUES: ReadonlySet<string> = new Set(['than', '보다']);

export function findContradiction(answer: AnalysedText, reference: AnalysedText): Contradiction {
  const negation = negationFlip(answer, reference);
  const antonyms = antonymFlips(answer, reference);
  const reversed = reversal(answer, reference);
  // Roles (particles, of/by) and 의-chains traded between two concepts: a swap of paired concepts.
  // Several antonyms swapped in are one claim turned around, and a negation on top turns it back
  // ("not connected to the negative terminal" = "connected to the positive terminal").
  const polarity = negation !== antonyms.length > 0;
  const roles = roleSwap(answer, reference);
  // The two sides of a comparison traded (`대륙은 해양보다` / `해양이 대륙보다`) are one more polarity flip:
  // "대륙은 해양보다 비열이 작다" = "해양은 대륙보다 비열이 크다", but "해양이 대륙보다 비열이 작다" is the opposite.
  const comparisonTurned = roles !== undefined && roles.roles.includes('than');
  const swapped = swappedPairs(answer, reference) ?? (roles !== undefined && !(comparisonTurned && polarity) ? roles.units : undefined) ?? genitiveSwap(answer, reference);
  const cue = reference.tokens.find((token) => token.relation)?.cue ?? '';
  let flipped = polarity && !comparisonTurned;
  if (reversed !== undefined) {
    // Around a comparison, swapping the two sides is one more polarity flip; around a cause, a condition or an
    // order in time it is a contradiction by itself ("A causes B" / "B causes A").
    flipped = COMPARATIVE_CUES.has(cue) ? !polarity : true;
  }
  return { negationFlip: negation, negationRead: !negation || negatesSharedWord(answer, reference), antonymFlips: antonyms, reversed, swapped, flipped };
}
