import { createHash } from 'node:crypto';
import { analyseText, findContradiction, type AnalysedText } from '../judges/index.js';
import { analyze } from '../retrieval/index.js';
import { cosineSimilarity } from '../text/index.js';
import type { GradeStatus } from './exam-types.js';

/**
 * One exam item's answers grouped by meaning, so that a teacher grades a group in one action. Pure: no
 * store, no model; the caller passes the model's embeddings when it has semantic ones.
 *
 * - Similarity: with embeddings, their cosine (two answers join at EMBEDDING_THRESHOLD); offline, the cosine of term
 *   vectors made by the retrieval analyzer (Hangul bigrams, stemmed English words; TERM_THRESHOLD). Two answers of
 *   the same text (blank ones included) are always alike.
 * - Contradiction apart: two answers where one says the opposite of the other with the same words (a negation, an
 *   antonym, a reversal: src/judges findContradiction, read both ways) never share a group, however many words
 *   they share. Term vectors cannot tell `같다` from `같지 않다`.
 * - Complete linkage: every two answers of a group are alike, not just a chain of neighbours, so one group never
 *   drifts from one meaning to another.
 * - Detached answers (the teacher moved them out) stand alone.
 * - Order: groups holding a Needs_Review answer first, then larger groups, then by their first answer's place.
 * - The group id is a short hash of the question id and the sorted member session ids: the same while membership
 *   is unchanged, different as soon as an answer joins or leaves (a stale id is refused, the teacher reloads).
 */

export const TERM_THRESHOLD = 0.45;
export const EMBEDDING_THRESHOLD = 0.88;

export interface GroupableAnswer {
  sessionId: string;
  text: string;
  /** The item's status as it counts now (an override, else the grade). */
  status: GradeStatus;
}

export interface AnswerGroup {
  groupId: string;
  questionId: number;
  /** Members in the order the answers were given. */
  answers: GroupableAnswer[];
  /** Some member waits for the teacher (Needs_Review). */
  needsReview: boolean;
  /** A single answer the teacher moved out of its group. */
  detached: boolean;
}

export interface GroupingOptions {
  /** One vector per answer, in the answers' order: the model's semantic embeddings. Term vectors without them. */
  embeddings?: readonly (readonly number[])[] | undefined;
  /** Session ids whose answer was moved out of its group. */
  detached?: ReadonlySet<string> | undefined;
  /** The similarity at which two answers join: TERM_THRESHOLD or EMBEDDING_THRESHOLD unless given (`eval:groups` sweeps it). */
  threshold?: number | undefined;
}

/** The stable id of a group: the question and its members, whatever order they come in. */
export function answerGroupId(questionId: number, sessionIds: readonly string[]): string {
  return createHash('sha256')
    .update(`${questionId}|${[...sessionIds].sort().join(',')}`)
    .digest('hex')
    .slice(0, 12);
}

/** Term-frequency vector of the retrieval analyzer's terms. */
function termVector(text: string): Map<string, number> {
  const vector = new Map<string, number>();
  for (const term of analyze(text)) vector.set(term, (vector.get(term) ?? 0) + 1);
  return vector;
}

function termCosine(left: Map<string, number>, right: Map<string, number>): number {
  let dot = 0;
  for (const [term, count] of left) dot += count * (right.get(term) ?? 0);
  if (dot === 0) return 0;
  const norm = (vector: Map<string, number>) => Math.sqrt([...vector.values()].reduce((sum, count) => sum + count * count, 0));
  return dot / (norm(left) * norm(right));
}

const normalized = (text: string) => text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
const sameText = (left: string, right: string) => normalized(left) === normalized(right);

/** Pairwise similarity of the answers; -1 where one contradicts the other. */
function similarities(answers: readonly GroupableAnswer[], options: Pick<GroupingOptions, 'embeddings' | 'threshold'>): { matrix: number[][]; threshold: number } {
  const { embeddings } = options;
  const terms = embeddings === undefined ? answers.map((answer) => termVector(answer.text)) : [];
  const analysed = new Map<number, AnalysedText>();
  const analysis = (index: number): AnalysedText => {
    let text = analysed.get(index);
    if (text === undefined) {
      text = analyseText(answers[index]?.text ?? '');
      analysed.set(index, text);
    }
    return text;
  };
  const threshold = options.threshold ?? (embeddings === undefined ? TERM_THRESHOLD : EMBEDDING_THRESHOLD);
  const matrix = answers.map(() => new Array<number>(answers.length).fill(0));
  for (let left = 0; left < answers.length; left++) {
    for (let right = left + 1; right < answers.length; right++) {
      const a = answers[left] as GroupableAnswer;
      const b = answers[right] as GroupableAnswer;
      let similarity = sameText(a.text, b.text)
        ? 1
        : embeddings === undefined
          ? termCosine(terms[left] as Map<string, number>, terms[right] as Map<string, number>)
          : cosineSimilarity(embeddings[left] as number[], embeddings[right] as number[]);
      // Only alike answers are read for a contradiction (the check is the costly part).
      if (similarity >= threshold && !sameText(a.text, b.text)) {
        if (findContradiction(analysis(left), analysis(right)).flipped || findContradiction(analysis(right), analysis(left)).flipped) similarity = -1;
      }
      (matrix[left] as number[])[right] = similarity;
      (matrix[right] as number[])[left] = similarity;
    }
  }
  return { matrix, threshold };
}

/** Complete-linkage clusters of the indexes in `members` (agglomerative: merge the closest pair while it is alike). */
function completeLinkage(members: readonly number[], matrix: readonly number[][], threshold: number): number[][] {
  const clusters = members.map((index) => [index]);
  // linkage[i][j]: the least similarity between clusters i and j (complete linkage), kept up to date on each merge.
  const linkage = clusters.map((_, i) => clusters.map((__, j) => (i === j ? -Infinity : (matrix[members[i] as number] as number[])[members[j] as number] as number)));
  const alive = clusters.map(() => true);
  for (;;) {
    let best = -Infinity;
    let pair: [number, number] | undefined;
    for (let i = 0; i < clusters.length; i++) {
      if (!alive[i]) continue;
      for (let j = i + 1; j < clusters.length; j++) {
        const value = (linkage[i] as number[])[j] as number;
        if (alive[j] && value > best) {
          best = value;
          pair = [i, j];
        }
      }
    }
    if (pair === undefined || best < threshold) break;
    const [keep, gone] = pair;
    (clusters[keep] as number[]).push(...(clusters[gone] as number[]));
    alive[gone] = false;
    for (let other = 0; other < clusters.length; other++) {
      if (!alive[other] || other === keep) continue;
      const merged = Math.min((linkage[keep] as number[])[other] as number, (linkage[gone] as number[])[other] as number);
      (linkage[keep] as number[])[other] = merged;
      (linkage[other] as number[])[keep] = merged;
    }
  }
  return clusters.filter((_, index) => alive[index]).map((cluster) => cluster.sort((left, right) => left - right));
}

/** Groups one item's answers by meaning (see the file's header for the rules). */
export function groupAnswers(questionId: number, answers: readonly GroupableAnswer[], options: GroupingOptions = {}): AnswerGroup[] {
  const detached = options.detached ?? new Set<string>();
  const embeddings = options.embeddings !== undefined && options.embeddings.length === answers.length ? options.embeddings : undefined;
  // Equal texts always share a group and compare alike with every other answer: the comparisons run once per text
  // (a class often writes the same answer many times), and each text's group takes all its answers.
  const byText = new Map<string, number[]>();
  answers.forEach((answer, index) => {
    if (detached.has(answer.sessionId)) return;
    const key = normalized(answer.text);
    byText.set(key, [...(byText.get(key) ?? []), index]);
  });
  const texts = [...byText.values()];
  const representatives = texts.map((indexes) => answers[indexes[0] as number] as GroupableAnswer);
  const { matrix, threshold } = similarities(representatives, {
    embeddings: embeddings && texts.map((indexes) => embeddings[indexes[0] as number] as number[]),
    threshold: options.threshold,
  });
  const clusters = [
    ...completeLinkage(
      texts.map((_, position) => position),
      matrix,
      threshold,
    ).map((positions) => ({ indexes: positions.flatMap((position) => texts[position] as number[]).sort((left, right) => left - right), detached: false })),
    ...answers.flatMap((answer, index) => (detached.has(answer.sessionId) ? [{ indexes: [index], detached: true }] : [])),
  ];
  return clusters
    .map(({ indexes, detached: alone }) => {
      const members = indexes.map((index) => answers[index] as GroupableAnswer);
      return {
        first: indexes[0] ?? 0,
        group: {
          groupId: answerGroupId(questionId, members.map((member) => member.sessionId)),
          questionId,
          answers: members,
          needsReview: members.some((member) => member.status === 'Needs_Review'),
          detached: alone,
        },
      };
    })
    .sort((left, right) => Number(right.group.needsReview) - Number(left.group.needsReview) || right.group.answers.length - left.group.answers.length || left.first - right.first)
    .map(({ group }) => group);
}
