/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - H5 — Lower. `hand:lower {}` at any point (waiting for the question, while a reply streams, waiting for a check
 *   reply) sends `tutor:reply-end` for a reply still open (and nothing more of it) …
 * - H6 — Out of turn. `hand:raise` with a hand up answers `HAND_ALREADY_RAISED`, before the lecture started
 *   `HAND_NOT_NOW`; `hand:ask`, `hand:reply`, `hand:lower` without a raised hand `HAND_NOT_RAISED` …
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { connectInstructor, createClass, getJson, joinClass } from './support/classroom-client.js';
import {
  answerChecks,
  askHand,
  dialogueOf,
  findEvent,
  lectureBefore,
  lectureDeltasBetween,
  lowerHand,
  nextTurn,
  raiseHand,
  replyHand,
  SPECIFIC_QUESTION,
  VAGUE_QUESTION,
  type DialogueView,
} from './support/hand-client.js';
import { joinLecture, loadSample, offlineStudent, samplePdfBytes, type LectureClient } from './support/lecture-client.js';
import type { ClassInfo } from '../src/protocol/classroom.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The raise-hand dialogue end to end on the offline model (rules H1–H6 and H9 of test/SPEC.md): a real server on
 * port 0, the sample material, a recording student on `/tutor` and an instructor on `/monitor`.
 */

// One server for the whole file: every test has its own session (and class), and the sample's lecture is generated
// once, so the tests can run side by side without booting and ingesting over and over.
let shared: { app: TestApp; material: Material };
beforeAll(async () => {
  await samplePdfBytes();
  const app = await startTestApp();
  shared = { app, material: await loadSample(app) };
});
afterAll(async () => {
  await shared?.app.stop();
});

async function boot(_context: TestContext): Promise<{ app: TestApp; material: Material }> {
  return shared;
}

/**
 * Starts the lecture slowly (so the hand goes up well before the first question, 199 characters in) and raises the
 * hand once some text arrived; the dialogue then runs at full speed. Resolves with the index after the raise ack.
 */
async function raiseWhileStreaming(client: LectureClient): Promise<{ sent: number; acked: number }> {
  await client.ok('lecture:speed', { tokensPerSecond: 30 });
  await client.ok('lecture:start');
  await client.waitForText(0, 40);
  const raised = await raiseHand(client);
  expect(client.all('lecture:question')).toEqual([]);
  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  return raised;
}

/** H4: the lecture goes on to the chapter's first question with exactly the generated text before it. */
async function expectLectureResumes(app: TestApp, material: Material, client: LectureClient): Promise<void> {
  const closed = client.events.map((event) => event.event).lastIndexOf('hand:closed');
  await client.waitForEvent('lecture:question', { from: closed });
  expect(client.text.get(0)).toBe(await lectureBefore(app, material.id, 0, 1));
  expect(client.seqErrors).toEqual([]);
}

/** H1: nothing of the lecture arrived between the raise ack and hand:closed. */
function expectLectureHeld(client: LectureClient, from: number): void {
  const closed = findEvent(client.events, 'hand:closed', from);
  expect(closed).toBeGreaterThan(from);
  expect(lectureDeltasBetween(client.events, from, closed)).toEqual([]);
}

/** The part headings of the offline explanations: `**1/3. 확률**` -> '1/3. 확률'. */
const heading = (text: string) => /^\*\*(.+?)\*\*/u.exec(text)?.[1];

describe.concurrent('a raised hand on the offline model', () => {
  it('H1 H2 H4: a specific question stops the lecture at once, gets one answer, and the lecture resumes exactly', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    const { sent: from, acked } = await raiseWhileStreaming(client);

    const prompt = await client.waitForEvent('assistant:prompt', { from });
    expect(prompt.text).toBe('무엇이 궁금한가요? 궁금한 내용을 적어 주세요.');
    await askHand(client, `  ${SPECIFIC_QUESTION} `);
    expect(await client.waitForEvent('hand:asked')).toMatchObject({ text: SPECIFIC_QUESTION });
    const closed = await client.waitForEvent('hand:closed');
    expect(closed.kind).toBe('specific');
    await client.waitForEvent('lecture:delta', { from: findEvent(client.events, 'hand:closed') });

    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt'));
    expect(view.shape).toEqual(['prompt', 'ask', 'asked', 'answer', 'closed:specific', 'lecture']);
    const [answer] = view.replies;
    // Extractive: the material's own sentence on the formula, under the concept the question is about.
    expect(answer?.text).toContain('**질문하신 내용: 기댓값**');
    expect(answer?.text).toContain('기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.');
    expectLectureHeld(client, acked);
    await expectLectureResumes(app, material, client);
  });

  it('H1 H3 H4: a vague question is explained part by part; "아니요" re-explains (3 tries at most), "네" moves on; final, summary, resume', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    const { sent: from, acked } = await raiseWhileStreaming(client);
    await client.waitForEvent('assistant:prompt');
    await askHand(client, VAGUE_QUESTION);

    const first = await nextTurn(client, from);
    const total = first.check?.total ?? 0;
    const parts = total - 1;
    expect(parts).toBeGreaterThanOrEqual(2);
    expect(parts).toBeLessThanOrEqual(4);
    // Part 1: three times not understood (the third moves on anyway); the later parts understood; the final
    // explanation once not understood, then understood.
    const plan = (check: { index: number }, n: number): string => {
      if (check.index === 0) return ['아니요', '가중치를 곱하는 게 헷갈려요', '모르겠어요'][n - 1] ?? 'unexpected';
      if (check.index < parts) return check.index % 2 === 1 ? '네' : '이해했어요';
      return n === parts + 3 ? '아니요' : '네, 이해했어요';
    };
    expect((await answerChecks(client, from, plan)).kind).toBe('vague');
    await client.waitForEvent('lecture:delta', { from: findEvent(client.events, 'hand:closed') });

    const view: DialogueView = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt'));
    const partTurns = (index: number, replies: string[]) => replies.flatMap((reply) => ['explain', `check${index + 1}/${total}`, `reply:${reply}`]);
    expect(view.shape).toEqual([
      'prompt',
      'ask',
      'asked',
      ...partTurns(0, ['아니요', '가중치를 곱하는 게 헷갈려요', '모르겠어요']),
      ...Array.from({ length: parts - 1 }, (_, at) => partTurns(at + 1, [plan({ index: at + 1 }, 0)])).flat(),
      ...partTurns(parts, ['아니요', '네, 이해했어요']),
      'summary',
      'closed:vague',
      'lecture',
    ]);

    // Checks: one index per part in order, the final one last; a retry says it explained again.
    const concepts = [...new Set(view.checks.map((check) => check.concept))];
    expect(concepts).toHaveLength(total);
    expect(concepts.at(-1)).toBe('기댓값');
    expect(view.checks.map((check) => check.index)).toEqual([0, 0, 0, ...Array.from({ length: parts - 1 }, (_, at) => at + 1), parts, parts]);
    expect(view.checks[0]?.text).toContain('이해되셨나요?');
    expect(view.checks[1]?.text).toContain('다시 설명했어요');
    expect(view.checks.at(-2)?.text).toContain('정리했어요');
    expect(view.checks.at(-1)?.text).toContain('다시 설명했어요');

    // Explanations: "i/n. part" headings in order; the re-explanations of part 1 show other sentences, and the one
    // after "…헷갈려요" starts from what the student found confusing.
    const explains = view.replies.filter((reply) => reply.kind === 'explain');
    expect(explains.every((reply) => reply.ended && !reply.abandoned && reply.text.length > 0)).toBe(true);
    expect(explains.slice(0, parts + 2).map((reply) => heading(reply.text))).toEqual([
      `1/${parts}. ${concepts[0]}`,
      `1/${parts}. ${concepts[0]}`,
      `1/${parts}. ${concepts[0]}`,
      ...concepts.slice(1, parts).map((concept, at) => `${at + 2}/${parts}. ${concept}`),
    ]);
    expect(new Set(explains.slice(0, 3).map((reply) => reply.text)).size).toBe(3);
    expect(explains[2]?.text).toContain('헷갈리셨군요');
    expect(explains.slice(-2).map((reply) => heading(reply.text))).toEqual(['기댓값', '기댓값']);
    expect(explains.at(-2)?.text).toContain('바탕으로');
    // The summary: one section per part and one for the concept, in the order taught.
    const summary = view.replies.find((reply) => reply.kind === 'summary')?.text ?? '';
    expect(summary.startsWith('# 기댓값 정리')).toBe(true);
    expect([...summary.matchAll(/^## \d+\. (.+)$/gmu)].map((match) => match[1])).toEqual(concepts);

    expectLectureHeld(client, acked);
    await expectLectureResumes(app, material, client);
  });

  it('H1 H2: a hand:ask sent right behind hand:raise, before the prompt arrived, is taken (not overwritten by the prompt)', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 30 });
    await client.ok('lecture:start');
    await client.waitForText(0, 40);
    const sent = client.events.length;
    const [raise, ask] = await Promise.all([client.command('hand:raise', {}), client.command('hand:ask', { text: SPECIFIC_QUESTION })]);
    expect(raise).toMatchObject({ ok: true, state: 'hand-raised' });
    expect(ask).toMatchObject({ ok: true, state: 'hand-raised' });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    expect(await client.waitForEvent('hand:closed', { from: sent })).toMatchObject({ kind: 'specific' });
    const view = dialogueOf(client.events, sent);
    // Whether the prompt went out before the question was taken is a race; the question is asked once either way.
    expect(view.shape.filter((item) => item !== 'lecture' && item !== 'prompt')).toEqual(['asked', 'answer', 'closed:specific']);
    expect(client.all('assistant:prompt').length).toBeLessThanOrEqual(1);
    await expectLectureResumes(app, material, client);
  });

  it('H1 H2 H4: a hand raised while a question waits leaves that question pending; the answer is then taken', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    const question = await client.waitForEvent('lecture:question');
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    await askHand(client, SPECIFIC_QUESTION);
    expect((await client.waitForEvent('hand:closed')).kind).toBe('specific');
    expect(client.text.get(0)).toBe(await lectureBefore(app, material.id, 0, 1));
    // Back to waiting for the answer: no lecture text, the question is the pending one and is judged.
    expect(await client.command('answer:submit', { questionId: 'c0q9', text: '평균' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_QUESTION' } });
    const answer = await offlineStudent(app, material.id, () => true)({ questionId: question.questionId, text: question.text }, client);
    await client.ok('answer:submit', { questionId: question.questionId, text: answer });
    expect(await client.waitForEvent('tutor:verdict')).toMatchObject({ questionId: question.questionId, verdict: 'good' });
    expect(lectureDeltasBetween(client.events, findEvent(client.events, 'lecture:question'), client.events.length)).toEqual([]);
    // After the tutoring the lecture goes on to the next question with exactly the generated text (L1).
    await client.waitForEvent('lecture:question', { where: (next) => next.questionId !== question.questionId });
    expect(client.text.get(0)).toBe(await lectureBefore(app, material.id, 0, 2));
    expect(client.seqErrors).toEqual([]);
  });
});

describe.concurrent('hand:lower', () => {
  /** H5 after a lower: closed as cancelled, then the lecture; then a new hand works to the end. */
  async function expectCancelledThenNewHand(app: TestApp, material: Material, client: LectureClient, acked: number): Promise<void> {
    expect(client.all('hand:closed').at(-1)).toMatchObject({ kind: 'cancelled' });
    expectLectureHeld(client, acked);
    await expectLectureResumes(app, material, client);
    // One hand at a time, but a new one after the last closed: raised while the question waits.
    const { sent: again } = await raiseHand(client);
    await client.waitForEvent('assistant:prompt', { from: again });
    await askHand(client, SPECIFIC_QUESTION);
    expect(await client.waitForEvent('hand:closed', { from: again })).toMatchObject({ kind: 'specific' });
    expect(dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', again)).shape).toEqual([
      'prompt',
      'ask',
      'asked',
      'answer',
      'closed:specific',
    ]);
    expect(client.seqErrors).toEqual([]);
  }

  it('H5: while the assistant waits for the question', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    const { sent: from, acked } = await raiseWhileStreaming(client);
    await client.waitForEvent('assistant:prompt');
    await lowerHand(client);
    await client.waitForEvent('lecture:delta', { from: findEvent(client.events, 'hand:closed', from) });
    expect(dialogueOf(client.events, findEvent(client.events, 'assistant:prompt')).shape.slice(0, 3)).toEqual(['prompt', 'lower', 'closed:cancelled']);
    await expectCancelledThenNewHand(app, material, client, acked);
  });

  it('H5: a hand raised while the student had paused returns to the pause when the dialogue closes', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 30 });
    await client.ok('lecture:start');
    await client.waitForText(0, 40);
    await client.ok('lecture:pause');
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    await lowerHand(client);
    const closed = findEvent(client.events, 'hand:closed');
    // Nothing streams once the dialogue went back to the pause; checked without sleeping, in two parts. (1) A
    // barrier: the session emits its events and answers its commands through one queue, and socket.io delivers one
    // socket's packets in order, so every event the session had queued when this command was read arrives before
    // its ack. (2) `lecture:resume` is accepted only from `paused` (the only way out of it), and a paused session
    // streams nothing (L18): so no lecture text could follow the barrier before the resume either.
    await client.ok('lecture:speed', { tokensPerSecond: 30 });
    expect(client.events.slice(closed).filter((event) => event.event === 'lecture:delta')).toEqual([]);
    expect(await client.command('lecture:resume')).toMatchObject({ ok: true, state: 'streaming' });
    await client.waitForEvent('lecture:delta', { from: closed });
  });

  it('H5: in the middle of an explanation: the open reply ends, nothing more of it streams', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    const { sent: from, acked } = await raiseWhileStreaming(client);
    await client.waitForEvent('assistant:prompt');
    // Slow enough that the explanation is still streaming when the hand goes down.
    await client.ok('lecture:speed', { tokensPerSecond: 5 });
    await askHand(client, VAGUE_QUESTION);
    const start = await client.waitForEvent('tutor:reply-start', { from });
    await client.waitForEvent('tutor:reply-delta', { from });
    await lowerHand(client);
    const lowered = client.events.length;
    await client.ok('lecture:speed', { tokensPerSecond: 200 });

    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt'));
    expect(view.shape.slice(0, 6)).toEqual(['prompt', 'ask', 'asked', 'explain', 'lower', 'closed:cancelled']);
    expect(view.replies).toHaveLength(1);
    expect(view.replies[0]).toMatchObject({ replyId: start.replyId, kind: 'explain', ended: true, abandoned: false });
    // Cut short: a little of the explanation, never all of it.
    expect(view.replies[0]?.text.length).toBeGreaterThan(0);
    expect(view.replies[0]?.text.length).toBeLessThan(40);
    // The end came before hand:closed, and nothing of the reply after the lower's ack.
    const end = findEvent(client.events, 'tutor:reply-end', from);
    expect(end).toBeLessThan(findEvent(client.events, 'hand:closed', from));
    await client.waitForEvent('lecture:delta', { from: lowered });
    expect(client.events.slice(lowered).filter((event) => event.event.startsWith('tutor:reply') || event.event === 'assistant:check')).toEqual([]);
    await expectCancelledThenNewHand(app, material, client, acked);
  });

  it('H5: while a check waits for the reply', async (context) => {
    const { app, material } = await boot(context);
    const { client } = await joinLecture(app, material.id);
    const { sent: from, acked } = await raiseWhileStreaming(client);
    await client.waitForEvent('assistant:prompt');
    await askHand(client, VAGUE_QUESTION);
    const turn = await nextTurn(client, from);
    expect(turn.check?.index).toBe(0);
    await replyHand(client, '네');
    await nextTurn(client, turn.index + 1);
    await lowerHand(client);
    await client.waitForEvent('lecture:delta', { from: findEvent(client.events, 'hand:closed', from) });
    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt'));
    expect(view.shape.slice(3)).toEqual([
      'explain',
      `check1/${turn.check?.total}`,
      'reply:네',
      'explain',
      `check2/${turn.check?.total}`,
      'lower',
      'closed:cancelled',
      'lecture',
    ]);
    // Both replies were finished before the lower: no extra reply-end.
    expect(view.replies.every((reply) => reply.ended && !reply.abandoned)).toBe(true);
    expect(client.all('tutor:reply-end')).toHaveLength(2);
    await expectCancelledThenNewHand(app, material, client, acked);
  });
});

describe.concurrent('hand commands out of turn', () => {
  const refused = (code: string) => ({ ok: false, error: { code } });

  /** A dialogue waiting for the question, with nothing else going on. */
  async function waitingForQuestion(context: TestContext) {
    const { app, material } = await boot(context);
    const { client, sessionId } = await joinLecture(app, material.id);
    const stateOf = async () => (await app.lectures.repository.load(sessionId))?.state;
    return { app, material, client, stateOf };
  }

  it('H6: HAND_NOT_NOW, HAND_NOT_RAISED, HAND_ALREADY_RAISED and NOT_ASKED change nothing', async (context) => {
    const { client, stateOf } = await waitingForQuestion(context);
    // Before the lecture started there is nothing to interrupt, and no hand to use.
    expect(await client.command('hand:raise', {})).toMatchObject(refused('HAND_NOT_NOW'));
    expect(await client.command('hand:ask', { text: '질문' })).toMatchObject(refused('HAND_NOT_RAISED'));
    expect(await client.command('hand:reply', { text: '네' })).toMatchObject(refused('HAND_NOT_RAISED'));
    expect(await client.command('hand:lower', {})).toMatchObject(refused('HAND_NOT_RAISED'));
    expect(client.events).toEqual([]);
    expect(await stateOf()).toEqual({ kind: 'idle' });

    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForText(0, 20);
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    const waiting = await stateOf();
    expect(waiting).toMatchObject({ kind: 'hand-raised', dialogue: { step: 'asking', asked: true } });
    const quiet = client.events.length;
    expect(await client.command('hand:raise', {})).toMatchObject(refused('HAND_ALREADY_RAISED'));
    expect(await client.command('hand:reply', { text: '네' })).toMatchObject(refused('NOT_ASKED'));
    // The lecture's own commands do not apply to a dialogue either.
    expect(await client.command('lecture:pause', {})).toMatchObject(refused('NOT_STREAMING'));
    expect(await client.command('lecture:resume', {})).toMatchObject(refused('NOT_PAUSED'));
    expect(await client.command('answer:submit', { questionId: 'c0q1', text: '평균' })).toMatchObject(refused('NO_PENDING_QUESTION'));
    expect(client.events.slice(quiet)).toEqual([]);
    expect(await stateOf()).toEqual(waiting);

    await askHand(client, VAGUE_QUESTION);
    expect(await client.command('hand:ask', { text: '다른 질문' })).toMatchObject(refused('NOT_ASKED'));
    const turn = await nextTurn(client, quiet);
    await replyHand(client, '네');
    // The reply is being judged and the next part explained: no check is pending.
    expect(await client.command('hand:reply', { text: '네' })).toMatchObject(refused('NOT_ASKED'));
    expect(await client.command('hand:raise', {})).toMatchObject(refused('HAND_ALREADY_RAISED'));
    await nextTurn(client, turn.index + 1);
    await lowerHand(client);
    expect(await client.command('hand:lower', {})).toMatchObject(refused('HAND_NOT_RAISED'));
    expect(await client.command('hand:reply', { text: '네' })).toMatchObject(refused('HAND_NOT_RAISED'));
    expect(client.all('hand:closed')).toEqual([expect.objectContaining({ kind: 'cancelled' })]);
    expect(client.all('hand:asked')).toEqual([expect.objectContaining({ text: VAGUE_QUESTION })]);
    expect(client.all('assistant:check').map((check) => check.index)).toEqual([0, 1]);
    expect(client.seqErrors).toEqual([]);
  });

  it('H6: invalid hand payloads answer INVALID_PAYLOAD and change nothing; 2000 characters are taken', async (context) => {
    const { client, stateOf } = await waitingForQuestion(context);
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForText(0, 20);
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    const waiting = await stateOf();
    const quiet = client.events.length;
    const invalid: [string, unknown][] = [
      ['hand:raise', { now: true }],
      ['hand:raise', 'please'],
      ['hand:lower', { force: 1 }],
      ['hand:ask', {}],
      ['hand:ask', { text: '' }],
      ['hand:ask', { text: '   ' }],
      ['hand:ask', { text: 'x'.repeat(2001) }],
      ['hand:ask', { text: 42 }],
      ['hand:ask', { text: '질문', extra: 1 }],
      ['hand:reply', { text: '' }],
      ['hand:reply', { reply: '네' }],
      ['hand:reply', { text: ['네'] }],
    ];
    for (const [event, payload] of invalid) {
      expect(await client.unchecked(event, payload), `${event} ${JSON.stringify(payload)}`).toMatchObject(refused('INVALID_PAYLOAD'));
    }
    expect(client.events.slice(quiet)).toEqual([]);
    expect(await stateOf()).toEqual(waiting);

    const longest = `${VAGUE_QUESTION} `.repeat(120).slice(0, 1999) + '?';
    expect(longest).toHaveLength(2000);
    await askHand(client, longest);
    expect(await client.waitForEvent('hand:asked')).toMatchObject({ text: longest });
    expect(await stateOf()).toMatchObject({ kind: 'hand-raised', dialogue: { question: longest } });
    expect(client.seqErrors).toEqual([]);
  });
});

describe.concurrent('the instructor watching', () => {
  it('H9: hand:raised (then with the question), the roster hand and state, hand:resolved for specific, vague and cancelled', async (context) => {
    // expect.poll needs the test's own expect in concurrent tests.
    const poll = context.expect.poll;
    const { app, material } = await boot(context);
    const created = await createClass(app, { name: '통계', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    const { client, sessionId } = await joinClass(app, created.code, '지안');
    const roster = async () => (await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` })).body.students?.[0];

    // 1. specific; the answer streams slowly, so the hand is still up while the roster is read.
    const { acked } = await raiseWhileStreaming(client);
    await client.ok('lecture:speed', { tokensPerSecond: 5 });
    await client.waitForEvent('assistant:prompt');
    const raised = await monitor.waitFor('hand:raised');
    expect(raised).toEqual({ sessionId, raisedAt: expect.any(Number) });
    await poll(async () => (await roster())?.hand).toEqual({ raisedAt: raised.raisedAt, question: null, acknowledged: false, answered: false });
    // Progress is throttled to one event a second: the latest state still shows (held back, never dropped).
    await poll(async () => (await roster())?.state).toBe('hand-raised');
    expect(await monitor.waitFor('student:progress', (progress) => progress.state === 'hand-raised')).toMatchObject({ sessionId, chapter: 0 });
    await askHand(client, SPECIFIC_QUESTION);
    expect(await monitor.waitFor('hand:raised', (payload) => payload.question !== undefined)).toEqual({
      sessionId,
      raisedAt: raised.raisedAt,
      question: SPECIFIC_QUESTION,
    });
    // The roster while the hand is up: over HTTP, and in the class:roster of an instructor who connects now.
    await poll(async () => (await roster())?.hand).toEqual({ raisedAt: raised.raisedAt, question: SPECIFIC_QUESTION, acknowledged: false, answered: false });
    const { roster: late } = await connectInstructor(app, created.instructorToken);
    expect(late.students[0]).toMatchObject({ sessionId, state: 'hand-raised', hand: { raisedAt: raised.raisedAt, question: SPECIFIC_QUESTION } });
    expect(findEvent(client.events, 'hand:closed')).toBe(-1);
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    expect(await monitor.waitFor('hand:resolved')).toEqual({ sessionId, kind: 'specific' });
    await poll(async () => (await roster())?.hand).toBeNull();
    await expectLectureResumes(app, material, client);

    // 2. vague, every part understood at once
    const { sent: second } = await raiseHand(client);
    await monitor.waitFor('hand:raised', (payload) => payload.raisedAt !== raised.raisedAt);
    await askHand(client, VAGUE_QUESTION);
    expect(await answerChecks(client, second, () => '네')).toMatchObject({ kind: 'vague' });
    await poll(() => monitor.all('hand:resolved').length).toBe(2);
    await poll(async () => (await roster())?.hand).toBeNull();

    // 3. lowered before asking
    await raiseHand(client);
    await poll(() => monitor.all('hand:raised').length).toBe(5);
    await lowerHand(client);
    await poll(() => monitor.all('hand:resolved').length).toBe(3);
    await poll(async () => (await roster())?.hand).toBeNull();
    await poll(async () => (await roster())?.state).toBe('awaiting-answer');

    expect(monitor.all('hand:resolved')).toEqual([
      { sessionId, kind: 'specific' },
      { sessionId, kind: 'vague' },
      { sessionId, kind: 'cancelled' },
    ]);
    const hands = monitor.all('hand:raised');
    expect(hands.map((hand) => hand.question ?? null)).toEqual([null, SPECIFIC_QUESTION, null, VAGUE_QUESTION, null]);
    // One raisedAt per hand, kept when the question arrives; hands are new each time.
    expect(hands[1]?.raisedAt).toBe(hands[0]?.raisedAt);
    expect(hands[3]?.raisedAt).toBe(hands[2]?.raisedAt);
    expect(new Set(hands.map((hand) => hand.raisedAt)).size).toBe(3);
    expectLectureHeld(client, acked);
    expect(client.seqErrors).toEqual([]);
  });
});
