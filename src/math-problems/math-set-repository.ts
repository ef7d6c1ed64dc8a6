import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import type { MathCheck, MathSummary } from '../protocol/jobs.js';
import type { PageRequest } from '../protocol/page.js';
import { Difficulty, QuizItemSource } from '../protocol/quiz.js';
import { pageOfIndex, readJsonRecord, type Store } from '../store/index.js';
import { MATH_CRITERIA, MathProblemType, type MathCriterion, type MathProblem } from './problem.js';
import { MathRequest } from './problem-generator.js';
import { mathKeys } from './math-keys.js';

/**
 * Math problem sets: what a `math-problems` job made, kept without expiry with every problem's
 * judgement (seed 002's future work) — the kept problems and the rejected ones. Besides the set: a list entry
 * (`mathSetSummary`, what a list page reads), the material's index of sets (its deletion drains it, src/data/), the
 * account's index per material (its list) and the account's judgement summary per material, a hash of counters
 * added to as each set is stored (HINCRBY: two jobs finishing together both count), so the summary is one read.
 */

const MATH_CHECKS = ['choices', 'answer-key', 'equivalence', 'guard'] as const satisfies readonly MathCheck[];
const Scores = z.object(Object.fromEntries(MATH_CRITERIA.map((criterion) => [criterion, z.number()])) as Record<MathCriterion, z.ZodNumber>);

export const StoredMathProblem = z.object({
  problemId: z.string(),
  type: MathProblemType,
  question: z.string(),
  choices: z.array(z.string()).optional(),
  correct_answer: z.string(),
  explanation: z.string(),
  final_answer: z.string(),
  difficulty: Difficulty,
  sources: z.array(QuizItemSource),
  judgement: z.object({
    judged: z.boolean(),
    passed: z.boolean(),
    scores: Scores.nullable(),
    feedback: z.string(),
    model: z.string(),
    attempt: z.number().int(),
    check: z.enum(MATH_CHECKS).optional(),
    equivalence: z.enum(['equal', 'different', 'unknown']).optional(),
  }),
}) satisfies z.ZodType<MathProblem>;

export const MathSetRecord = z.object({
  setId: z.string(),
  materialId: z.string(),
  accountId: z.string(),
  chapter: z.number().int().optional(),
  request: MathRequest,
  problems: z.array(StoredMathProblem),
  rejected: z.array(StoredMathProblem),
  /** Generation attempts it took (at most 3). */
  attempts: z.number().int(),
  /** The job that made it. */
  jobId: z.string(),
  createdAt: z.number(),
  /** The judge model's name ('' offline or when nothing was judged). */
  judgeModel: z.string(),
  /** false: the job ended before every problem passed (the set keeps what did). */
  complete: z.boolean(),
});
export type MathSetRecord = z.infer<typeof MathSetRecord>;

/** A set's list entry: the record without its problems, with their counts. */
export const MathSetEntry = MathSetRecord.omit({ problems: true, rejected: true }).extend({
  kept: z.number().int(),
  rejectedCount: z.number().int(),
  multipleChoice: z.number().int(),
});
export type MathSetEntry = z.infer<typeof MathSetEntry>;

export type NewMathSet = Omit<MathSetRecord, 'setId' | 'createdAt'>;

/** How many shared sets a class's students see (the newest shares). */
export const MAX_SHARED_SETS = 20;

/** A class student's first short answer to a problem, as recorded. */
export const FirstMathAnswer = z.object({ answer: z.string(), correct: z.boolean(), at: z.number() });
export type FirstMathAnswer = z.infer<typeof FirstMathAnswer>;

/** Score sums are kept ×1000 as integers (HINCRBY), so a mean of 4.25 survives the round trip. */
const SCALE = 1000;

export class MathSetRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  async create(input: NewMathSet): Promise<MathSetRecord> {
    const set: MathSetRecord = { ...input, setId: randomUUID().replaceAll('-', ''), createdAt: this.now() };
    const { store } = this;
    // The set and its entry before the indexes: a list never names a set that is not there.
    await store.set(mathKeys.mathSet(set.setId), JSON.stringify(set));
    await store.set(mathKeys.mathSetSummary(set.setId), JSON.stringify(entryOf(set)));
    await store.zadd(mathKeys.materialMathSets(set.materialId), set.createdAt, set.setId);
    await store.zadd(mathKeys.accountMathSets(set.accountId, set.materialId), set.createdAt, set.setId);
    await this.count(set);
    return set;
  }

  async get(setId: string): Promise<MathSetRecord | null> {
    if (!/^[0-9a-f]{32}$/.test(setId)) return null;
    return readJsonRecord(await this.store.get(mathKeys.mathSet(setId)), MathSetRecord, { key: mathKeys.mathSet(setId), logger: this.logger });
  }

  /** Shares the set with a class (its students answer its short-answer problems); sharing again keeps the first time. */
  async share(setId: string, classId: string): Promise<void> {
    const { store } = this;
    if ((await store.zscore(mathKeys.classMathSets(classId), setId)) !== null) return;
    await store.zadd(mathKeys.classMathSets(classId), this.now(), setId);
  }

  /** Whether the set is shared with the class. */
  async sharedWith(classId: string, setId: string): Promise<boolean> {
    return (await this.store.zscore(mathKeys.classMathSets(classId), setId)) !== null;
  }

  /** The sets shared with a class, newest share first (at most {@link MAX_SHARED_SETS}); a set since gone is skipped. */
  async shared(classId: string): Promise<MathSetRecord[]> {
    const members = await this.store.zrange(mathKeys.classMathSets(classId), 0, MAX_SHARED_SETS - 1, { reverse: true });
    const ids = members.map(({ member }) => member);
    const sets = await Promise.all(ids.map((setId) => this.get(setId)));
    return sets.flatMap((set) => (set ? [set] : []));
  }

  /**
   * Records a class student's first short answer to a problem (HSETNX: later answers never replace it) and returns
   * the recorded one with whether this was it.
   */
  async recordFirstAnswer(
    sessionId: string,
    field: { setId: string; problemId: string },
    answer: FirstMathAnswer,
    ttlMs: number,
  ): Promise<{ recorded: FirstMathAnswer; first: boolean }> {
    const key = mathKeys.sessionMathAnswers(sessionId);
    const name = `${field.setId}:${field.problemId}`;
    const first = await this.store.hsetnx(key, name, JSON.stringify(answer), { ttlMs });
    if (first) return { recorded: answer, first };
    const stored = readJsonRecord(await this.store.hget(key, name), FirstMathAnswer, { key, logger: this.logger });
    return { recorded: stored ?? answer, first };
  }

  /** A class student's recorded first answers (set, problem, correct), for the learner profile's signals. */
  async firstAnswers(sessionId: string): Promise<{ setId: string; problemId: string; correct: boolean; at: number }[]> {
    const key = mathKeys.sessionMathAnswers(sessionId);
    const fields = await this.store.hgetall(key);
    return Object.entries(fields)
      .flatMap(([name, raw]) => {
        const answer = readJsonRecord(raw, FirstMathAnswer, { key, logger: this.logger });
        const [setId, problemId] = name.split(':');
        return answer && setId && problemId ? [{ setId, problemId, correct: answer.correct, at: answer.at }] : [];
      })
      .sort((a, b) => a.at - b.at);
  }

  /** One page of an account's sets of a material, newest first (list entries only: one batch read). */
  async list(accountId: string, materialId: string, page: PageRequest): Promise<{ sets: MathSetEntry[]; nextCursor: string | null }> {
    const { members, nextCursor } = await pageOfIndex(this.store, mathKeys.accountMathSets(accountId, materialId), page, { reverse: true });
    if (members.length === 0) return { sets: [], nextCursor };
    const raws = await this.store.mget(members.map((setId) => mathKeys.mathSetSummary(setId)));
    const sets = raws.flatMap((raw, index) => {
      const entry = readJsonRecord(raw, MathSetEntry, { key: mathKeys.mathSetSummary(members[index] ?? ''), logger: this.logger });
      return entry ? [entry] : [];
    });
    return { sets, nextCursor };
  }

  /** The account's judgement summary of a material's math problems (one read). */
  async summary(accountId: string, materialId: string): Promise<MathSummary> {
    const fields = await this.store.hgetall(mathKeys.accountMathSummary(accountId, materialId));
    const number = (field: string) => Number(fields[field] ?? 0) || 0;
    const scored = number('scored');
    return {
      sets: number('sets'),
      kept: number('kept'),
      rejected: number('rejected'),
      judged: number('judged'),
      unjudged: number('unjudged'),
      meanScores: Object.fromEntries(
        MATH_CRITERIA.map((criterion) => [criterion, scored === 0 ? null : Math.round((number(`sum:${criterion}`) / SCALE / scored) * 100) / 100]),
      ) as MathSummary['meanScores'],
      rejectedBy: {
        choices: number('check:choices'),
        'answer-key': number('check:answer-key'),
        equivalence: number('check:equivalence'),
        guard: number('check:guard'),
        judge: number('check:judge'),
      },
    };
  }

  private async count(set: MathSetRecord): Promise<void> {
    const add = new Map<string, number>([['sets', 1], ['kept', set.problems.length], ['rejected', set.rejected.length]]);
    const bump = (field: string, by: number) => add.set(field, (add.get(field) ?? 0) + by);
    for (const problem of [...set.problems, ...set.rejected]) {
      const { judgement } = problem;
      bump(judgement.judged ? 'judged' : 'unjudged', 1);
      // Means over what a judge actually scored: the network policy's default 4s are not a judgement.
      if (judgement.judged && judgement.scores) {
        bump('scored', 1);
        for (const criterion of MATH_CRITERIA) bump(`sum:${criterion}`, Math.round(judgement.scores[criterion] * SCALE));
      }
    }
    for (const problem of set.rejected) bump(`check:${problem.judgement.check ?? 'judge'}`, 1);
    const key = mathKeys.accountMathSummary(set.accountId, set.materialId);
    for (const [field, by] of add) if (by !== 0) await this.store.hincrby(key, field, by);
  }
}

function entryOf(set: MathSetRecord): MathSetEntry {
  const { problems, rejected, ...rest } = set;
  return { ...rest, kept: problems.length, rejectedCount: rejected.length, multipleChoice: problems.filter((problem) => problem.type === 'multiple_choice').length };
}
