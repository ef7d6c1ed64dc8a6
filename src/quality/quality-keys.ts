import { storeKey as key } from '../store/index.js';

/** The "AI 품질" console's store keys: sampled agent outputs, their grades and aggregates; all with TTLs. */
export const qualityKeys = {
  /** Sampled outputs waiting to be graded (sorted set of case ids scored by sampling time); RETENTION.qualityCaseMs. */
  qualityQueue: () => key('quality', 'queue'),
  /** A sampled output waiting in the queue (JSON: agent, instruction, input, output, at, attribution); RETENTION.qualityCaseMs. */
  qualityCase: (id: string) => key('quality', 'case', id),
  /**
   * The sampled outputs (queued cases and graded interactions share their id) written from a material or for a tutoring
   * session (sorted set of ids by sampling time), so deleting the material or the session's class deletes them; the
   * interactions' TTL.
   */
  qualityOwned: (owner: 'material' | 'session', id: string) => key('quality', owner, id, 'samples'),
  /** A graded interaction (JSON: the case and its critic report); QUALITY_RETENTION_DAYS. */
  qualityInteraction: (id: string) => key('quality', 'interaction', id),
  /**
   * Graded interactions of a scope (`all`, or `account:{id}` for those billed to one account) and agent (`any` for
   * every agent), newest first (sorted set of `{id}_{grade in thousandths}` scored by time, capped); QUALITY_RETENTION_DAYS.
   */
  qualityTimeline: (scope: string, agent: string) => key('quality', scope, 'timeline', agent),
  /** The lowest-graded interactions of a scope and agent (sorted set like the timeline's, scored by grade, capped). */
  qualityWorst: (scope: string, agent: string) => key('quality', scope, 'worst', agent),
  /** One UTC day of a scope and agent (hash: count, ungraded, gradeSum in thousandths, b0…b9, f:{failure type}). */
  qualityDaily: (scope: string, agent: string, day: string) => key('quality', scope, 'daily', agent, day),
  /** The agents of a scope with graded outputs (sorted set scored by the last grading). */
  qualityAgents: (scope: string) => key('quality', scope, 'agents'),
  /** Tokens the background grading spent on one UTC day (string counter); 2 days TTL. */
  qualityUsage: (day: string) => key('quality', 'usage', day),
  /** Lease of the one node running the background grading. */
  qualityLease: () => key('quality', 'lease'),
};
