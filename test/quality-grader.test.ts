/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QC10 — One grader, never a default grade. A second node finds the grading lease taken and grades nothing until
 *   the first stops (it releases the lease) …
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/kernel/logger.js';
import type { CriticReport } from '../src/protocol/wire/critic.js';
import { QualityBudget, QualityGrader, QualityRepository, type CaseGrader } from '../src/quality/index.js';
import { MemoryStore } from '../src/store/memory-store.js';

/** QC10 (test/SPEC.md): the background grading's lease and its ungraded cases, with a scripted critic on a memory store. */

const DAY_MS = 24 * 60 * 60_000;
const logger = createLogger('silent');

const report = (grade: number): CriticReport => ({
  grade,
  criteria_scores: { completeness: grade, accuracy: grade, consistency: grade, safety: grade, helpfulness: grade },
  failure_types: grade < 0.5 ? ['NOT_HELPFUL'] : [],
  fixable_issues: [],
  unfixable_issues: [],
  grading_report: `전체 점수: ${grade}/1.0`,
  tags: [],
  weights: { completeness: 0.25, accuracy: 0.3, consistency: 0.15, safety: 0.2, helpfulness: 0.1 },
  criteria_name: 'default',
  grader: { model: 'scripted', heuristic: false },
});

function world(grader: CaseGrader) {
  const store = new MemoryStore();
  const repository = new QualityRepository({ store, retentionMs: DAY_MS, queueMax: 100 });
  const budget = new QualityBudget({ store, dailyTokens: 1_000 });
  const make = (nodeId: string) => new QualityGrader({ store, repository, grader, budget, nodeId, logger });
  return { store, repository, make };
}

const sample = (id: string, output: string) => ({ id, agent: 'tutor.judge', at: Date.now(), instruction: '판정하세요.', input: '{}', output, accountId: 'acc1' });

describe('QC10 the background grading', () => {
  it('QC10 one node at a time: a second node finds the lease taken and grades nothing', async () => {
    const { repository, make } = world({ grade: async () => ({ ok: true, report: report(0.9) }) });
    await repository.enqueue(sample('a1', '좋은 판정'));
    const first = make('node-1');
    const second = make('node-2');
    expect(await second.runOnce()).toMatchObject({ ran: true, graded: 1 });
    await repository.enqueue(sample('a2', '또 다른 판정'));
    expect(await first.runOnce()).toEqual({ ran: false, graded: 0, ungraded: 0, budgetSpent: false });
    expect(await repository.queued()).toBe(1);
    await second.stop();
    // Released on stop: the other node takes over at once.
    expect(await first.runOnce()).toMatchObject({ ran: true, graded: 1 });
    await first.stop();
  });

  it('QC10 a case the critic cannot grade is counted as ungraded, never given a grade; the run goes on', async () => {
    const { repository, make } = world({
      grade: async (gradedCase) =>
        gradedCase.data_to_grade.output === '깨진 답' ? { ok: false, code: 'GRADING_ERROR', message: '평가하지 못했습니다.' } : { ok: true, report: report(0.3) },
    });
    await repository.enqueue(sample('b1', '깨진 답'));
    await repository.enqueue({ ...sample('b2', '짧은 판정'), at: Date.now() + 1 });
    const grader = make('node-1');
    expect(await grader.runOnce()).toEqual({ ran: true, graded: 1, ungraded: 1, budgetSpent: false });
    const [agent] = await repository.summary({ kind: 'account', accountId: 'acc1' }, 1);
    expect(agent).toMatchObject({ agent: 'tutor.judge', count: 1, ungraded: 1, mean: 0.3, failureTypes: { NOT_HELPFUL: 1 } });
    expect(agent?.days[0]?.buckets[3]).toBe(1);
    const page = await repository.page({ kind: 'all' }, {}, { limit: 20 });
    expect(page.interactions.map((interaction) => interaction.output)).toEqual(['짧은 판정']);
    await grader.stop();
  });
});
