/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM13 — Generated short text. `POST /api/materials/:id/quiz` with `format: 'short'` (offline model here) stores the
 *   generated items that read as questions without choices as short text (the correct choice is the model answer,
 *   no choices), each through the item guard's answer check; the others stay 4-choice. Unit: a question pointing at
 *   its choices ("다음 중"), a long answer, or an answer the guard refuses (a placeholder; reported to the guard
 *   report as `quiz.short`) stays 4-choice, and the item keeps its quizId, sources and picture.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { GuardRefusal } from '../src/guard/index.js';
import type { QuizItem, RoomItem } from '../src/protocol/quiz.js';
import { toShortItems } from '../src/quiz/index.js';
import { signUp } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp } from './support/test-app.js';

beforeAll(samplePdfBytes);

const item = (question: string, answer: string): QuizItem => ({
  question,
  choices: [answer, '물품의 실제 상태', '매수인의 의견', '운송인의 판단'],
  answer: 0,
  explanation: '은행은 서류만으로 심사합니다.',
  difficulty: 'easy',
  quizId: '0a1b2c3d',
  sources: [{ chunkId: '0.1', chapter: 0, chapterTitle: '신용장', startPage: 1, endPage: 1 }],
  image: 'f'.repeat(32),
  imageAlt: '신용장 서류',
});

describe('generated short-text items', () => {
  it('TM13 an item becomes short text only when it reads without choices and its answer passes the guard', () => {
    const refused: GuardRefusal[] = [];
    const guard = { refused: (refusals: readonly GuardRefusal[]) => void refused.push(...refusals) };
    const { items, converted } = toShortItems(
      [
        item('신용장 거래에서 은행이 서류를 심사하는 기준은?', '서류의 문면'),
        item('다음 중 은행이 서류를 심사하는 기준은?', '서류의 문면'),
        item('은행이 심사하는 것은?', '서류의 문면과 그 사이의 일치 여부를 꼼꼼하게 살피는 것이며 물품은 보지 않는다'),
        item('은행이 심사하는 기준은?', 'TODO'),
      ],
      { passages: ['은행은 서류의 문면만으로 심사한다.'], guard },
    );
    expect(converted).toBe(1);
    expect(items[0]).toEqual({
      type: 'short',
      question: '신용장 거래에서 은행이 서류를 심사하는 기준은?',
      answer: '서류의 문면',
      explanation: '은행은 서류만으로 심사합니다.',
      difficulty: 'easy',
      quizId: '0a1b2c3d',
      sources: [{ chunkId: '0.1', chapter: 0, chapterTitle: '신용장', startPage: 1, endPage: 1 }],
      image: 'f'.repeat(32),
      imageAlt: '신용장 서류',
    });
    expect(items.slice(1).map((entry) => entry.type ?? 'choice')).toEqual(['choice', 'choice', 'choice']);
    expect(refused.map((refusal) => [refusal.agent, refusal.rule])).toEqual([['quiz.short', 'placeholder']]);
  });

  it('TM13 the offline generator with format short stores short-text items through the guard', async (context: TestContext) => {
    const app = await startTestApp({ SIGNUP: 'open' });
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const material = await loadSample(app);
    const account = await signUp(app);
    const made = await call(`${app.url}/api/classes`, 'POST', { headers: account.bearer, body: { name: '단답 생성반' } });
    const reply = await call(`${app.url}/api/materials/${material.id}/quiz`, 'POST', { headers: account.bearer, body: { classId: made.body.classId, format: 'short' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const items = reply.body.items as RoomItem[];
    const shorts = items.filter((entry) => entry.type === 'short');
    expect(shorts.length).toBeGreaterThan(0);
    for (const short of shorts) {
      expect(short).not.toHaveProperty('choices');
      expect((short as { answer: string }).answer.length).toBeLessThanOrEqual(40);
    }
    const stored = await call(`${app.url}/api/quizzes/${reply.body.quizId}`, 'GET', { headers: account.bearer });
    expect((stored.body.items as RoomItem[]).filter((entry) => entry.type === 'short')).toHaveLength(shorts.length);
  });
});
