/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QI1 — Incremental standings equal a recompute. The standings a reveal stores after question q — built from the
 *   standings after q − 1 and question q's answers only — equal computeStandings over every recorded answer of
 *   questions 0..q, after every question of a game of every item type, with a late joiner, with a kick between two
 *   reveals (which removes the kicked player's earlier answers from every count), when another node (a new
 *   RoomService on the same store, without this node's cache) scores the next reveal, and when the game ends; on the
 *   memory store and on Redis.
 * - QI2 — Extending is refused when it cannot equal a recompute. extendStandings returns null for a table that is not
 *   the one after q − 1 or that has a row of a player no longer scored; otherwise it equals computeStandings.
 * - QI3 — A row for every player from the start. The standings before any question closes (a room ended during its
 *   first question) have a zero row for every scored player, so the results and the room list count them.
 * - QI4 — A reveal writes what is new only. The standings stored after question q carry each player's totals and
 *   the result of question q alone, the results head carries no answers, and question q's results are one field of
 *   the room's per-question results; the results read back (head joined with every question's results) equal those
 *   built from a recompute of every recorded answer, after every reveal, a late joiner and a kick, and at the end.
 * - QI5 — A game under way across a deploy keeps every question. When the questions before the closing one have no
 *   per-question results (a version that stored results whole scored them), the reveal recomputes from every
 *   recorded answer and writes every question's results, so the results read back still equal a recompute.
 * - QI6 — A close prepared during the answer grace changes nothing. The close worked out when a question's grace
 *   begins (RoomService.prepareClose) gives the standings and results a close from the store gives: when nothing
 *   changed in the grace (and then the close reads no answers), and when an answer, a join, a kick of a player who
 *   answered or of one who did not, or a pause and resume came in between (then it scores from the store); with a
 *   short-text question whose grades are stored at the close; on the memory store and on Redis.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenSigner } from '../src/auth/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { RoomOptions, type Quiz, type RoomItem } from '../src/protocol/quiz.js';
import { RoomService } from '../src/quiz/room-service.js';
import { buildResults } from '../src/quiz/room-results.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { computeStandings, extendStandings, standingsHistory, type RecordedAnswer, type ScoringOptions } from '../src/quiz/scoring.js';
import type { ShortGrades } from '../src/quiz/short-answer-judge.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/index.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';

const base = { explanation: '설명', difficulty: 'easy' as const };
const items: RoomItem[] = [
  { ...base, question: '평균은?', choices: ['가', '나', '다', '라'], answer: 1 },
  { ...base, type: 'truefalse', question: '중앙값은 이상값에 덜 민감하다.', answer: true },
  { ...base, type: 'multi', question: '대푯값을 모두 고르세요.', choices: ['평균', '중앙값', '분산', '최빈값'], answers: [0, 1, 3] },
  { ...base, type: 'ordering', question: '순서대로 늘어놓으세요.', steps: ['가설', '유의수준', '검정통계량', '결론'] },
  { ...base, type: 'numeric', question: '서울–부산 거리는 약 몇 km?', answer: 325, tolerance: 25, range: 125, unit: 'km' },
  { ...base, type: 'poll', question: '오늘 수업은?', explanation: '', choices: ['쉬웠다', '적당했다', '어려웠다'] },
  { ...base, question: '분산은?', choices: ['가', '나', '다', '라'], answer: 2 },
];
const quiz: Quiz = { quizId: 'quiz-qi', classId: 'class-qi', title: '누적 점수', createdAt: 0, items: items as Quiz['items'] };

/** A deterministic answer of player `p` to question `q` in the item's shape (some players skip some questions). */
function answerOf(q: number, p: number) {
  const item = items[q]!;
  const pick = (p * 7 + q * 3) % 4;
  switch (item.type) {
    case 'truefalse':
      return { choice: pick % 2 };
    case 'multi':
      return { choices: [...new Set([pick, (pick + 1) % 4])].sort() };
    case 'ordering':
      return { order: [pick, (pick + 1) % 4, (pick + 2) % 4, (pick + 3) % 4] };
    case 'numeric':
      return { value: 250 + pick * 30 };
    case 'poll':
      return { choice: pick % 3 };
    default:
      return { choice: pick };
  }
}

const redis = suiteRedis();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

function serviceOn(store: Store, clock: { now: number }, served: Quiz = quiz): RoomService {
  return new RoomService({
    store,
    quizzes: { get: async (id) => (id === served.quizId ? served : null) },
    signer: new TokenSigner('qi'),
    logger: createLogger('silent'),
    answerGraceMs: 250,
    now: () => clock.now,
  });
}

async function recomputeInputs(service: RoomService, roomId: string, q: number) {
  const meta = await service.meta(roomId);
  const answers: Map<string, RecordedAnswer>[] = [];
  for (let index = 0; index <= q; index += 1) answers.push(await service.repository.answers(roomId, index));
  // Short-text answers count by the grades stored at their close (QI6 checks those grade every answer given).
  const grades = new Map<number, ShortGrades>();
  for (let index = 0; index <= q; index += 1) {
    const stored = await service.shortGrades(roomId, index);
    if (stored) grades.set(index, stored);
  }
  const options: ScoringOptions = { questionMs: meta.options.questionSeconds * 1000, streakBonus: meta.options.streakBonus, speedBonus: meta.options.speedBonus, roomId, grades };
  return { meta, players: await service.repository.scoredPlayers(roomId), answers, options };
}

/** What a recompute from every stored answer gives after question `q` (the reference the stored table must equal). */
async function recomputed(service: RoomService, roomId: string, q: number) {
  const { meta, players, answers, options } = await recomputeInputs(service, roomId, q);
  return computeStandings(meta.items, players, answers, q, options);
}

/** QI4: the stored records hold what is new only, and the results read back equal those of a recompute. */
async function expectResultsAfter(store: Store, service: RoomService, roomId: string, q: number) {
  const { meta, players, answers, options } = await recomputeInputs(service, roomId, q);
  const expected = buildResults(meta, await service.phase(roomId), computeStandings(meta.items, players, answers, q, options), standingsHistory(meta.items, players, answers, q, options));
  expect(await service.repository.results(roomId), `results after question ${q}`).toEqual(expected);
  const table = JSON.parse((await store.hget(quizKeys.room(roomId), `standings:${q}`))!) as { rows: Record<string, unknown>[] };
  for (const row of table.rows) expect(Object.keys(row)).not.toContain('results');
  const head = JSON.parse((await store.get(quizKeys.roomResults(roomId)))!) as { players: { answers: unknown[] }[] };
  expect(head.players.every((player) => player.answers.length === 0)).toBe(true);
  expect(Object.keys(await store.hgetall(quizKeys.roomQuestionResults(roomId))).sort()).toEqual(Array.from({ length: q + 1 }, (_, index) => String(index)).sort());
}

/** `legacyAfter`: after that question's reveal the per-question results are removed, as in a room whose earlier
 * results a previous version stored whole (a game under way across a deploy). */
async function playGame(store: Store, prefix: string, legacyAfter?: number): Promise<void> {
  const clock = { now: 1_000_000 };
  const first = serviceOn(store, clock);
  const { roomId } = await first.create(quiz.classId, { quizId: quiz.quizId, options: RoomOptions.parse({ previewSeconds: 0, lateJoin: true }) }, 'account-qi');
  const { code } = await first.meta(roomId);
  const players: string[] = [];
  for (let index = 0; index < 6; index += 1) {
    clock.now += 1;
    players.push((await first.join(code, `${prefix}${index}`)).playerId);
  }
  // Question 3 and 4 are scored by a second node (no cache of the first node's tables), the rest by the first.
  const second = serviceOn(store, clock);
  await first.command(roomId, 'room:start', {});
  for (let q = 0; q < items.length; q += 1) {
    const node = q === 3 || q === 4 ? second : first;
    if (q === 2) {
      clock.now += 1;
      players.push((await node.join(code, `${prefix}late`)).playerId);
    }
    for (const [p, playerId] of players.entries()) {
      if ((p + q) % 5 === 4) continue;
      clock.now += 137 * (p + 1);
      const answer = answerOf(q, p);
      // A numeric answer is typed text on the wire (recorded as its value).
      const sent = 'value' in answer ? { text: `${answer.value} km` } : answer;
      await node.submit(roomId, playerId, { questionIndex: q, ...sent } as never);
    }
    clock.now += 10;
    await node.command(roomId, 'room:skip', {});
    const stored = await node.repository.standings(roomId, q);
    expect(stored, `standings after question ${q}`).toEqual(await recomputed(node, roomId, q));
    expect(node.computedStandings(roomId, q)).toEqual(stored);
    await expectResultsAfter(store, node, roomId, q);
    if (q === legacyAfter) await store.del(quizKeys.roomQuestionResults(roomId));
    // A kick between two reveals: the next reveal must leave the kicked player's earlier answers out everywhere.
    if (q === 4) await node.command(roomId, 'room:kick', { playerId: players[1]! });
    if (q < items.length - 1) {
      await node.command(roomId, 'room:next', {});
      await node.command(roomId, 'room:next', {});
    }
  }
  await first.command(roomId, 'room:next', {});
  await first.command(roomId, 'room:end', {});
  const last = items.length - 1;
  const final = await first.repository.standings(roomId, last);
  expect(final).toEqual(await recomputed(first, roomId, last));
  expect(final!.rows.map((row) => row.playerId)).not.toContain(players[1]);
  expect(final!.rows).toHaveLength(6);
  await expectResultsAfter(store, first, roomId, last);
}

describe('QI1 incremental standings equal a recompute from every answer', () => {
  it('QI1 QI4 on the memory store: every reveal, a late joiner, a kick, another node, the end', async () => {
    const store = new MemoryStore();
    closers.push(() => store.close());
    await playGame(store, '메');
  });

  it('QI1 QI4 on Redis: every reveal, a late joiner, a kick, another node, the end', async () => {
    const store = testRedisStore(redis.url);
    closers.push(() => store.close());
    await playGame(store, '레');
  });
});

describe('QI5 a game under way across a deploy keeps every question in its results', () => {
  it('QI5 when the earlier questions have no per-question results (stored whole before), the next reveal recomputes and writes them all', async () => {
    const store = new MemoryStore();
    closers.push(() => store.close());
    await playGame(store, '배', 1);
  });

  it('QI5 on Redis', async () => {
    const store = testRedisStore(redis.url);
    closers.push(() => store.close());
    await playGame(store, '포', 3);
  });
});

/** QI6: what happens in the grace after the close was prepared, by question (the index cycles through them). */
const GRACE_EVENTS = ['nothing', 'answer', 'join', 'kick-answered', 'kick-silent', 'pause-resume'] as const;
const preparedItems: RoomItem[] = [...items.slice(0, 6), { ...base, type: 'short', question: '가운데 값의 이름은?', answer: '중앙값' } as RoomItem];
const preparedQuiz: Quiz = { ...quiz, quizId: 'quiz-qi6', items: preparedItems as Quiz['items'] };

async function playPrepared(store: Store, prefix: string): Promise<void> {
  const clock = { now: 2_000_000 };
  const node = serviceOn(store, clock, preparedQuiz);
  const { roomId } = await node.create(quiz.classId, { quizId: preparedQuiz.quizId, options: RoomOptions.parse({ previewSeconds: 0, lateJoin: true }) }, 'account-qi');
  const { code } = await node.meta(roomId);
  const players: string[] = [];
  for (let index = 0; index < 6; index += 1) {
    clock.now += 1;
    players.push((await node.join(code, `${prefix}${index}`)).playerId);
  }
  const kicked = new Set<string>();
  await node.command(roomId, 'room:start', {});
  for (let q = 0; q < preparedItems.length; q += 1) {
    const event = GRACE_EVENTS[q % GRACE_EVENTS.length]!;
    const active = players.filter((playerId) => !kicked.has(playerId));
    // The last active player holds an answer back for the grace ('answer'); otherwise a player skips now and then.
    const silent = active.at(-1)!;
    for (const [p, playerId] of active.entries()) {
      if (playerId === silent || (p + q) % 5 === 4) continue;
      clock.now += 137 * (p + 1);
      const answer = preparedItems[q]!.type === 'short' ? { text: p % 2 === 0 ? '중앙값' : '평균' } : answerOf(q, p);
      const sent = 'value' in answer ? { text: `${answer.value} km` } : answer;
      await node.submit(roomId, playerId, { questionIndex: q, ...sent } as never);
    }
    const open = await node.phase(roomId);
    if (open.phase !== 'open') throw new Error(`question ${q} is not open`);
    await node.prepareClose(roomId, open);
    clock.now += 10;
    if (event === 'answer') await node.submit(roomId, silent, { questionIndex: q, ...(preparedItems[q]!.type === 'short' ? { text: '중앙값' } : answerOf(q, 1)) } as never);
    if (event === 'join') players.push((await node.join(code, `${prefix}late${q}`)).playerId);
    if (event === 'kick-answered' || event === 'kick-silent') {
      const target = event === 'kick-silent' ? silent : active.find((playerId, p) => playerId !== silent && (p + q) % 5 !== 4)!;
      await node.command(roomId, 'room:kick', { playerId: target });
      kicked.add(target);
    }
    if (event === 'pause-resume') {
      await node.command(roomId, 'room:pause', {});
      await node.command(roomId, 'room:resume', {});
    }
    const answersRead = vi.spyOn(node.repository, 'answers');
    await node.command(roomId, 'room:skip', {});
    // With nothing changed the close takes what was prepared and reads no answers; otherwise it reads them again.
    expect(answersRead.mock.calls.some(([, index]) => index === q), `question ${q} (${event}): answers read at the close`).toBe(event !== 'nothing');
    answersRead.mockRestore();
    const stored = await node.repository.standings(roomId, q);
    expect(stored, `standings after question ${q} (${event})`).toEqual(await recomputed(node, roomId, q));
    await expectResultsAfter(store, node, roomId, q);
    if (preparedItems[q]!.type === 'short') {
      // Every typed answer of the question, including one given in the grace, has its grade stored at the close.
      const grades = Object.values((await node.shortGrades(roomId, q)) ?? {});
      expect(grades.reduce((sum, grade) => sum + grade.count, 0), 'short-text answers graded').toBe((await node.repository.answers(roomId, q)).size);
    }
    if (q < preparedItems.length - 1) {
      await node.command(roomId, 'room:next', {});
      await node.command(roomId, 'room:next', {});
    }
  }
}

describe('QI6 a close prepared during the answer grace gives what a close from the store gives', () => {
  it('QI6 on the memory store: nothing changed, an answer, a join, two kicks, a pause in the grace; a short-text question', async () => {
    const store = new MemoryStore();
    closers.push(() => store.close());
    await playPrepared(store, '준');
  });

  it('QI6 on Redis', async () => {
    const store = testRedisStore(redis.url);
    closers.push(() => store.close());
    await playPrepared(store, '비');
  });
});

describe('QI2 extendStandings only extends what it can', () => {
  const options: ScoringOptions = { questionMs: 10_000, streakBonus: true, speedBonus: true, roomId: 'room-qi2' };
  const people = [1, 2, 3, 4].map((index) => ({ playerId: `p${index}`, nickname: `n${index}`, joinedAt: index }));
  const answers = items.map((_, q) => new Map(people.map((player, p) => [player.playerId, { ...answerOf(q, p), responseMs: 400 + 900 * p + 50 * q } as RecordedAnswer])));

  it('QI3 before any question closes every scored player has a zero row (a room ended in its first question lists them)', () => {
    const table = computeStandings(items, people, answers, -1, options);
    expect(table.rows.map((row) => [row.playerId, row.score, row.result])).toEqual(people.map((player) => [player.playerId, 0, undefined]));
  });

  it('QI2 equals computeStandings question by question; null for a wrong table or a player no longer scored', () => {
    let table = computeStandings(items, people, answers, -1, options);
    for (let q = 0; q < items.length; q += 1) {
      const extended = extendStandings(items, people, table, answers[q], q, options);
      expect(extended).toEqual(computeStandings(items, people, answers, q, options));
      table = extended!;
    }
    const afterTwo = computeStandings(items, people, answers, 2, options);
    expect(extendStandings(items, people, afterTwo, answers[4], 4, options)).toBeNull();
    expect(extendStandings(items, people.slice(1), afterTwo, answers[3], 3, options)).toBeNull();
    // A player who joined after question 2 closed: no earlier answers, the same table as a recompute.
    const late = { playerId: 'p9', nickname: 'n9', joinedAt: 9 };
    const withLate = new Map(answers[3]).set('p9', { ...answerOf(3, 5), responseMs: 100 } as RecordedAnswer);
    const all = [...answers.slice(0, 3), withLate];
    expect(extendStandings(items, [...people, late], afterTwo, withLate, 3, options)).toEqual(computeStandings(items, [...people, late], all, 3, options));
  });
});
