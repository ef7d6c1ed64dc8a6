import { storeKey as key } from '../store/index.js';

/** The math problem sets' store keys: what a `math-problems` job made, kept with every judgement. */
export const mathKeys = {
  /** A math problem set (JSON: material, account, request, problems and rejected ones with their judgements); no TTL. */
  mathSet: (id: string) => key('math-set', id),
  /** A math problem set's list entry (JSON: counts, request, creation time), written with the set; no TTL. */
  mathSetSummary: (id: string) => key('math-set', id, 'summary'),
  /** Every math problem set of a material, whoever made it (sorted set by creation time): its deletion drains it; no TTL. */
  materialMathSets: (materialId: string) => key('material', materialId, 'math-sets'),
  /** The math sets shared with a class, by time shared (zset; durable, deleted with the class). */
  classMathSets: (classId: string) => key('class', classId, 'math-sets'),
  /** A class student's first short answer per `{setId}:{problemId}` (hash, HSETNX; TTL as the session's). */
  sessionMathAnswers: (sessionId: string) => key('session', sessionId, 'math-answers'),
  /** An account's math problem sets of one material (sorted set by creation time): its list; no TTL. */
  accountMathSets: (accountId: string, materialId: string) => key('account', accountId, 'math-sets', materialId),
  /**
   * An account's judgement summary for one material (hash of counters: sets, kept, rejected, judged, unjudged, score
   * sums ×1000 per criterion, rejections per check), added to as each set is stored; no TTL.
   */
  accountMathSummary: (accountId: string, materialId: string) => key('account', accountId, 'math-summary', materialId),
};
