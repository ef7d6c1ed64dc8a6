import type { Logger } from '../kernel/index.js';
import { AppError } from '../kernel/index.js';
import { utcDay } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { CriticFailureType, CriticReport } from '../protocol/wire/critic.js';
import { CRITIC_FAILURE_TYPES } from '../protocol/wire/critic.js';
import { GUARD_RULES, type GuardRule } from '../protocol/wire/quality.js';
import {
  QUALITY_GRADE_BUCKETS,
  QUALITY_WORST_CASES,
  type QualityAgentSummary,
  type QualityDay,
  type QualityInteraction,
  type QualityWorstCase,
} from '../protocol/wire/quality.js';
import { RETENTION, readJsonRecord, type Store } from '../store/index.js';
import { z } from 'zod';
import { QualityCase } from './quality-case.js';
import { qualityKeys } from './quality-keys.js';

const DAY_MS = 24 * 60 * 60_000;
/** Interactions kept per timeline index (scope × agent); older entries leave the index (their records expire). */
const TIMELINE_MAX = 5_000;
/** Index entries read per store call when a grade filter skips entries. */
const SCAN_CHUNK = 50;
/** Index entries one page request looks at, at most (bounded reads): a page may come back short with a cursor. */
const SCAN_MAX = 500;
/** Agents listed per summary, at most. */
const AGENTS_MAX = 30;
const ANY_AGENT = 'any';

/** Whose graded interactions: every one (the admin), or those billed to one account (an instructor's own). */
export type QualityScope = { kind: 'all' } | { kind: 'account'; accountId: string };

const scopeKey = (scope: QualityScope) => (scope.kind === 'all' ? 'all' : `account:${scope.accountId}`);

/** A timeline member: `{id}_{grade in thousandths}`, so a grade filter reads no record. */
const memberOf = (id: string, grade: number) => `${id}_${Math.round(grade * 1000)}`;
function parseMember(member: string): { id: string; grade: number } | null {
  const separator = member.lastIndexOf('_');
  const milli = Number(member.slice(separator + 1));
  if (separator <= 0 || !Number.isInteger(milli)) return null;
  return { id: member.slice(0, separator), grade: milli / 1000 };
}

export const bucketOf = (grade: number) => Math.min(QUALITY_GRADE_BUCKETS - 1, Math.max(0, Math.floor(grade * QUALITY_GRADE_BUCKETS)));

const StoredInteraction = QualityCase.extend({
  gradedAt: z.number(),
  report: z.custom<CriticReport>((value) => typeof value === 'object' && value !== null && typeof (value as { grade?: unknown }).grade === 'number'),
});

export interface GradeFilter {
  agent?: string | undefined;
  minGrade?: number | undefined;
  maxGrade?: number | undefined;
}

export interface QualityRepositoryOptions {
  store: Store;
  /** QUALITY_RETENTION_DAYS in ms: graded interactions, indexes and aggregates live this long after their last write. */
  retentionMs: number;
  /** QUALITY_QUEUE_MAX. */
  queueMax: number;
  logger?: Logger | undefined;
  now?: () => number;
}

/**
 * The quality console's store: the queue of sampled cases, graded interactions (a record each, indexed per scope and
 * agent by time and by grade), and per-day aggregates (count, grade histogram, failure types). Everything has a TTL:
 * the queue RETENTION.qualityCaseMs, the rest `retentionMs` after its last write. Every read is bounded (a page of an
 * index, a window of days), whatever the amount of data.
 */
export class QualityRepository {
  private readonly now: () => number;

  constructor(private readonly options: QualityRepositoryOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Queues a sampled case; false (nothing written) when the queue is full. */
  async enqueue(sampled: QualityCase): Promise<boolean> {
    const { store, queueMax } = this.options;
    if ((await store.zcard(qualityKeys.qualityQueue())) >= queueMax) return false;
    await store.set(qualityKeys.qualityCase(sampled.id), JSON.stringify(sampled), { ttlMs: RETENTION.qualityCaseMs });
    await store.zadd(qualityKeys.qualityQueue(), sampled.at, sampled.id, { ttlMs: RETENTION.qualityCaseMs });
    // Found again through its material and session when either is deleted (data lifecycle), before it expires.
    const owned = { ttlMs: this.options.retentionMs };
    if (sampled.materialId !== undefined) await store.zadd(qualityKeys.qualityOwned('material', sampled.materialId), sampled.at, sampled.id, owned);
    if (sampled.sessionId !== undefined) await store.zadd(qualityKeys.qualityOwned('session', sampled.sessionId), sampled.at, sampled.id, owned);
    return true;
  }

  queued(): Promise<number> {
    return this.options.store.zcard(qualityKeys.qualityQueue());
  }

  /** Takes the oldest queued case (removed from the queue, ZREM decides who got it); null when none is left. */
  async takeNext(): Promise<QualityCase | null> {
    const { store, logger } = this.options;
    for (;;) {
      const [oldest] = await store.zrange(qualityKeys.qualityQueue(), 0, 0);
      if (oldest === undefined) return null;
      if ((await store.zrem(qualityKeys.qualityQueue(), oldest.member)) === 0) continue;
      const key = qualityKeys.qualityCase(oldest.member);
      const sampled = readJsonRecord(await store.get(key), QualityCase, { key, ...(logger ? { logger } : {}) });
      await store.del(key);
      if (sampled !== null) return sampled;
    }
  }

  /** Stores a graded interaction and counts it in its day's aggregates, for everyone (`all`) and for its account. */
  async saveGraded(sampled: QualityCase, report: CriticReport): Promise<QualityInteraction> {
    const { store, retentionMs } = this.options;
    const gradedAt = this.now();
    const interaction: QualityInteraction = { ...sampled, gradedAt, report };
    const ttl = { ttlMs: retentionMs };
    await store.set(qualityKeys.qualityInteraction(sampled.id), JSON.stringify(interaction), ttl);
    // Its owners' indexes live as long as the interaction (data lifecycle deletes through them).
    if (sampled.materialId !== undefined) await store.zadd(qualityKeys.qualityOwned('material', sampled.materialId), sampled.at, sampled.id, ttl);
    if (sampled.sessionId !== undefined) await store.zadd(qualityKeys.qualityOwned('session', sampled.sessionId), sampled.at, sampled.id, ttl);
    const member = memberOf(sampled.id, report.grade);
    const day = utcDay(sampled.at);
    for (const scope of this.scopesOf(sampled)) {
      await store.zadd(qualityKeys.qualityAgents(scope), gradedAt, sampled.agent, ttl);
      for (const agent of [sampled.agent, ANY_AGENT]) {
        await store.zadd(qualityKeys.qualityTimeline(scope, agent), sampled.at, member, ttl);
        await this.trimOldest(qualityKeys.qualityTimeline(scope, agent), TIMELINE_MAX);
      }
      await store.zadd(qualityKeys.qualityWorst(scope, sampled.agent), report.grade, member, ttl);
      await this.trimHighest(qualityKeys.qualityWorst(scope, sampled.agent), QUALITY_WORST_CASES);
      const daily = qualityKeys.qualityDaily(scope, sampled.agent, day);
      await store.hincrby(daily, 'count', 1, ttl);
      await store.hincrby(daily, 'gradeSum', Math.round(report.grade * 1000), ttl);
      await store.hincrby(daily, `b${bucketOf(report.grade)}`, 1, ttl);
      for (const type of report.failure_types) await store.hincrby(daily, `f:${type}`, 1, ttl);
    }
    return interaction;
  }

  /** A sampled output the critic could not grade: counted, never given a grade. */
  async countUngraded(sampled: QualityCase): Promise<void> {
    const ttl = { ttlMs: this.options.retentionMs };
    for (const scope of this.scopesOf(sampled)) {
      await this.options.store.zadd(qualityKeys.qualityAgents(scope), this.now(), sampled.agent, ttl);
      await this.options.store.hincrby(qualityKeys.qualityDaily(scope, sampled.agent, utcDay(sampled.at)), 'ungraded', 1, ttl);
    }
  }

  /**
   * Counts the item guard's refusals of generated items, per agent and rule in their day's aggregates, for everyone
   * and for the account billed: the console shows them beside the agent's graded outputs.
   */
  async countRefusals(refusals: readonly { agent: string; rule: GuardRule; accountId?: string | undefined }[]): Promise<void> {
    const ttl = { ttlMs: this.options.retentionMs };
    const day = utcDay(this.now());
    for (const refusal of refusals) {
      const scopes = ['all', ...(refusal.accountId === undefined ? [] : [`account:${refusal.accountId}`])];
      for (const scope of scopes) {
        await this.options.store.zadd(qualityKeys.qualityAgents(scope), this.now(), refusal.agent, ttl);
        await this.options.store.hincrby(qualityKeys.qualityDaily(scope, refusal.agent, day), `r:${refusal.rule}`, 1, ttl);
      }
    }
  }

  /** Per agent: the days of the window (oldest first), totals, failure types, guard refusals and the worst cases. */
  async summary(scope: QualityScope, days: number): Promise<QualityAgentSummary[]> {
    const { store } = this.options;
    const key = scopeKey(scope);
    const agents = await store.zrange(qualityKeys.qualityAgents(key), 0, AGENTS_MAX - 1, { reverse: true });
    const today = this.now();
    const window = Array.from({ length: days }, (_, index) => utcDay(today - (days - 1 - index) * DAY_MS));
    const summaries: QualityAgentSummary[] = [];
    // One agent after the other: at most `days` (≤ 31) reads in flight.
    for (const { member: agent } of agents) {
      const hashes = await Promise.all(window.map((day) => store.hgetall(qualityKeys.qualityDaily(key, agent, day))));
      const failureTypes: Partial<Record<CriticFailureType, number>> = {};
      const refusals: Partial<Record<GuardRule, number>> = {};
      let count = 0;
      let ungraded = 0;
      let gradeSum = 0;
      const dayRows: QualityDay[] = hashes.map((hash, index) => {
        const dayCount = Number(hash.count ?? 0);
        const daySum = Number(hash.gradeSum ?? 0);
        count += dayCount;
        gradeSum += daySum;
        ungraded += Number(hash.ungraded ?? 0);
        for (const type of CRITIC_FAILURE_TYPES) {
          const seen = Number(hash[`f:${type}`] ?? 0);
          if (seen > 0) failureTypes[type] = (failureTypes[type] ?? 0) + seen;
        }
        for (const rule of GUARD_RULES) {
          const refused = Number(hash[`r:${rule}`] ?? 0);
          if (refused > 0) refusals[rule] = (refusals[rule] ?? 0) + refused;
        }
        return {
          day: window[index] ?? '',
          count: dayCount,
          ungraded: Number(hash.ungraded ?? 0),
          buckets: Array.from({ length: QUALITY_GRADE_BUCKETS }, (_, bucket) => Number(hash[`b${bucket}`] ?? 0)),
          mean: dayCount > 0 ? Math.round(daySum / dayCount) / 1000 : null,
        };
      });
      summaries.push({
        agent,
        days: dayRows,
        count,
        ungraded,
        mean: count > 0 ? Math.round(gradeSum / count) / 1000 : null,
        failureTypes,
        refusals,
        worst: await this.worst(key, agent),
      });
    }
    return summaries;
  }

  /**
   * A page of graded interactions, newest first, of one agent or all, within a grade range. At most SCAN_MAX index
   * entries are looked at per call, so a narrow filter may answer a short page with a cursor to go on.
   */
  async page(scope: QualityScope, filter: GradeFilter, page: { cursor?: string | undefined; limit: number }): Promise<{ interactions: QualityInteraction[]; nextCursor: string | null }> {
    const { ids, nextCursor } = await this.scan(scope, filter, page.cursor, page.limit, SCAN_MAX);
    return { interactions: await this.read(ids), nextCursor };
  }

  /** Every interaction of the filter, newest first, a page at a time (the export streams them), at most `max`. */
  async *each(scope: QualityScope, filter: GradeFilter, max: number): AsyncIterable<QualityInteraction> {
    let cursor: string | undefined;
    let given = 0;
    do {
      const { ids, nextCursor } = await this.scan(scope, filter, cursor, Math.min(SCAN_CHUNK, max - given), SCAN_MAX);
      for (const interaction of await this.read(ids)) {
        yield interaction;
        given += 1;
      }
      cursor = nextCursor ?? undefined;
    } while (cursor !== undefined && given < max);
  }

  private async scan(
    scope: QualityScope,
    filter: GradeFilter,
    cursor: string | undefined,
    limit: number,
    scanMax: number,
  ): Promise<{ ids: string[]; nextCursor: string | null }> {
    const { store } = this.options;
    const index = qualityKeys.qualityTimeline(scopeKey(scope), filter.agent ?? ANY_AGENT);
    let start = 0;
    if (cursor !== undefined) {
      const rank = await store.zrank(index, cursor, { reverse: true });
      if (rank === null) throw new AppError(ErrorCode.INVALID_PAYLOAD, '목록 위치(cursor)를 찾을 수 없습니다. 처음부터 다시 불러와 주세요.');
      start = rank + 1;
    }
    const ids: string[] = [];
    let scanned = 0;
    let last: string | undefined;
    while (scanned < scanMax) {
      const entries = await store.zrange(index, start + scanned, start + scanned + SCAN_CHUNK - 1, { reverse: true });
      for (const { member } of entries) {
        scanned += 1;
        last = member;
        const parsed = parseMember(member);
        if (parsed === null) continue;
        if (filter.minGrade !== undefined && parsed.grade < filter.minGrade) continue;
        if (filter.maxGrade !== undefined && parsed.grade > filter.maxGrade) continue;
        ids.push(parsed.id);
        if (ids.length === limit) {
          const more = (await store.zrange(index, start + scanned, start + scanned, { reverse: true })).length > 0;
          return { ids, nextCursor: more ? member : null };
        }
      }
      if (entries.length < SCAN_CHUNK) return { ids, nextCursor: null };
    }
    return { ids, nextCursor: last ?? null };
  }

  /** The records of a page in one batch; expired ones are left out. */
  private async read(ids: readonly string[]): Promise<QualityInteraction[]> {
    if (ids.length === 0) return [];
    const { store, logger } = this.options;
    const raw = await store.mget(ids.map((id) => qualityKeys.qualityInteraction(id)));
    return raw.flatMap((value, index) => {
      const record = readJsonRecord(value, StoredInteraction, { key: qualityKeys.qualityInteraction(ids[index] ?? ''), ...(logger ? { logger } : {}) });
      return record === null ? [] : [record as QualityInteraction];
    });
  }

  private async worst(scope: string, agent: string): Promise<QualityWorstCase[]> {
    const entries = await this.options.store.zrange(qualityKeys.qualityWorst(scope, agent), 0, QUALITY_WORST_CASES - 1);
    const ids = entries.map(({ member }) => parseMember(member)?.id).filter((id): id is string => id !== undefined);
    return (await this.read(ids)).map((interaction) => ({
      id: interaction.id,
      at: interaction.at,
      grade: interaction.report.grade,
      excerpt: interaction.output.length > 300 ? `${interaction.output.slice(0, 299)}…` : interaction.output,
      failure_types: interaction.report.failure_types,
      fixable_issues: interaction.report.fixable_issues,
      unfixable_issues: interaction.report.unfixable_issues,
    }));
  }

  private scopesOf(sampled: QualityCase): string[] {
    return sampled.accountId === undefined ? ['all'] : ['all', scopeKey({ kind: 'account', accountId: sampled.accountId })];
  }

  private async trimOldest(key: string, max: number): Promise<void> {
    const size = await this.options.store.zcard(key);
    if (size <= max) return;
    const old = await this.options.store.zrange(key, 0, size - max - 1);
    if (old.length > 0) await this.options.store.zrem(key, ...old.map((entry) => entry.member));
  }

  private async trimHighest(key: string, max: number): Promise<void> {
    const size = await this.options.store.zcard(key);
    if (size <= max) return;
    const high = await this.options.store.zrange(key, 0, size - max - 1, { reverse: true });
    if (high.length > 0) await this.options.store.zrem(key, ...high.map((entry) => entry.member));
  }
}
