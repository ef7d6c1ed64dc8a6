/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - M2 — Presence. `student:joined` when a student joins (not connected) and whenever one of their sockets connects;
 *   `student:left` only when their last socket disconnects; the roster's `connected` follows.
 * - M3 — Progress. `student:progress` reports chapter, chapter-level percent and state; at most one per second per
 *   student, the first change at once and the last change never lost …
 * - M4 — Answers. Every verdict gives `student:answered {questionId, verdict, badStreak}`, where `badStreak` counts
 *   bad verdicts in a row and a good one resets it (continued by another node after a …
 * - M5 — Remediation. Every subquestion gives `student:remediation {concept, index, total}`.
 * - M6 — Hands. `assistant:prompt` gives `hand:raised {raisedAt}`, `hand:asked` `hand:raised {raisedAt, question}`,
 *   `hand:closed` `hand:resolved {kind}`; the roster's `hand` follows.
 * - M8 — Acknowledge. `hand:acknowledge` of a raised hand sends the student `hand:acknowledged {at}` (no seq) and
 *   every instructor of the class `hand:acknowledged {sessionId, at}`, and marks the roster …
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClassMonitor, type MonitorPort } from '../src/classroom/class-monitor.js';
import { ClassRepository } from '../src/classroom/class-repository.js';
import { rosterProgress } from '../src/classroom/roster-progress.js';
import { sessionActivity } from '../src/lecture/session-activity.js';
import type { SessionProfile } from '../src/lecture/session-repository.js';
import type { ActiveState, PendingQuestion, SessionState } from '../src/lecture/session-state.js';
import { createLogger } from '../src/kernel/logger.js';
import type { TutorEvent } from '../src/protocol/wire/tutor.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { classKeys } from '../src/classroom/class-keys.js';

/** ClassMonitor on the memory store with a recording port and fake timers: M3–M6 and M8 of test/SPEC.md, exactly. */

const CLASS = 'class-1';
const profile: SessionProfile = { id: 'session-1', materialId: 'material-1', nickname: '민지', classId: CLASS, createdAt: 0 };
const question: PendingQuestion = { id: 'c0q1', text: '평균이란?', start: 10, end: 20 };
const streaming = (chapter: number): ActiveState => ({ kind: 'streaming', chapter, offset: 0 });
const awaiting = (chapter: number): SessionState => ({ kind: 'awaiting-answer', chapter, question });
const judging = (chapter: number): SessionState => ({ kind: 'tutoring', chapter, question, answer: 'a', step: { kind: 'judging' } });
const subquestion = (chapter: number): SessionState => ({
  kind: 'tutoring',
  chapter,
  question,
  answer: 'a',
  step: { kind: 'subquestion', index: 0 },
});

interface Sent {
  to: 'instructors' | 'students' | 'session';
  id: string;
  event: string;
  payload: Record<string, unknown>;
}

let store: MemoryStore;
let repository: ClassRepository;
let sent: Sent[];
let writes: number;

function newMonitor(): ClassMonitor {
  const monitor = new ClassMonitor({
    repository,
    materials: { get: async () => ({ chapters: [0, 1, 2, 3].map((index) => ({ index })) }) },
    logger: createLogger('silent'),
  });
  const record = (to: Sent['to']) => (id: string, event: string, payload: object) =>
    sent.push({ to, id, event, payload: payload as Record<string, unknown> });
  const port: MonitorPort = { toInstructors: record('instructors'), toStudents: record('students'), toSession: record('session') };
  monitor.attach(port);
  return monitor;
}

const play = (monitor: ClassMonitor, event: string, payload: object, state: SessionState, who = profile) =>
  monitor.onActivity(sessionActivity(who, state), { event, payload } as unknown as TutorEvent);
const settle = () => vi.advanceTimersByTimeAsync(0);
const progress = () => sent.filter((entry) => entry.event === 'student:progress').map((entry) => entry.payload);

beforeEach(async () => {
  vi.useFakeTimers({ now: 1_000_000 });
  store = new MemoryStore();
  repository = new ClassRepository(store);
  sent = [];
  await repository.addStudent(CLASS, { sessionId: profile.id, nickname: profile.nickname, joinedAt: 1 });
  writes = 0;
  const hset = store.hset.bind(store);
  store.hset = async (key, fields) => {
    if (key === classKeys.classStudent(CLASS, profile.id)) writes += 1;
    return hset(key, fields);
  };
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
});

describe('ClassMonitor', () => {
  it('M3: 3 s of streaming at 200 tokens/s with state changes gives at most 4 progress events and writes; the last state is never lost', async () => {
    const monitor = newMonitor();
    play(monitor, 'lecture:chapter-start', { chapter: 0, title: '1장' }, streaming(0));
    await settle();
    // Leading edge: the first change goes at once.
    expect(progress()).toEqual([{ sessionId: profile.id, chapter: 0, percent: 0, state: 'streaming' }]);

    // 60 deltas of 10 tokens (one per 50 ms), a question and its tutoring, then chapters 1 and 2.
    for (let tick = 1; tick <= 60; tick += 1) {
      const at = tick * 50;
      if (at === 500) play(monitor, 'lecture:question', { questionId: 'c0q1', chapter: 0, text: '?' }, awaiting(0));
      else if (at === 600) play(monitor, 'tutor:verdict', { questionId: 'c0q1', verdict: 'good', feedback: '' }, judging(0));
      else if (at === 1500) play(monitor, 'lecture:chapter-start', { chapter: 1, title: '2장' }, streaming(1));
      else if (at === 2900) play(monitor, 'lecture:question', { questionId: 'c2q1', chapter: 2, text: '?' }, awaiting(2));
      else if (at < 2900) play(monitor, 'lecture:delta', { chapter: at < 1500 ? 0 : at < 2500 ? 1 : 2, text: '열 개의 토큰' }, streaming(at < 1500 ? 0 : at < 2500 ? 1 : 2));
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(2_000);
    const events = progress();
    expect(events.length).toBeLessThanOrEqual(4);
    expect(events.at(-1)).toEqual({ sessionId: profile.id, chapter: 2, percent: 50, state: 'awaiting-answer' });
    // Progress writes are coalesced like the events (plus one write for the verdict).
    expect(writes).toBeLessThanOrEqual(events.length + 1);
    expect(await repository.student(CLASS, profile.id)).toMatchObject({ chapter: 2, percent: 50, state: 'awaiting-answer', lastVerdict: 'good' });
  });

  it('M3: progress events of one student are at least a second apart', async () => {
    const monitor = newMonitor();
    const stamps: number[] = [];
    const states = [streaming(0), awaiting(0), judging(0), streaming(0), streaming(1), awaiting(1), streaming(2)];
    for (let round = 0; round < 40; round += 1) {
      play(monitor, 'lecture:chapter-start', { chapter: 0, title: '' }, states[round % states.length]!);
      await vi.advanceTimersByTimeAsync(97);
      for (const entry of sent.splice(0)) if (entry.event === 'student:progress') stamps.push(Date.now());
    }
    await vi.advanceTimersByTimeAsync(1_500);
    for (const entry of sent.splice(0)) if (entry.event === 'student:progress') stamps.push(Date.now());
    for (let index = 1; index < stamps.length; index += 1) expect(stamps[index]! - stamps[index - 1]!).toBeGreaterThanOrEqual(900);
    expect(stamps.length).toBeGreaterThanOrEqual(3);
  });

  it('M4 M5: verdicts report a bad streak reset by a good one; subquestions report remediation', async () => {
    const monitor = newMonitor();
    play(monitor, 'tutor:verdict', { questionId: 'c0q1', verdict: 'bad', feedback: '' }, judging(0));
    play(monitor, 'tutor:subquestion', { questionId: 'c0q1.s1', parentQuestionId: 'c0q1', index: 1, total: 2, concept: '합', text: '?' }, subquestion(0));
    play(monitor, 'tutor:verdict', { questionId: 'c0q1.s1', verdict: 'bad', feedback: '' }, subquestion(0));
    play(monitor, 'tutor:verdict', { questionId: 'c0q1.s2', verdict: 'good', feedback: '' }, subquestion(0));
    await settle();
    const answered = sent.filter((entry) => entry.event === 'student:answered').map((entry) => entry.payload);
    expect(answered).toEqual([
      { sessionId: profile.id, questionId: 'c0q1', verdict: 'bad', badStreak: 1 },
      { sessionId: profile.id, questionId: 'c0q1.s1', verdict: 'bad', badStreak: 2 },
      { sessionId: profile.id, questionId: 'c0q1.s2', verdict: 'good', badStreak: 0 },
    ]);
    expect(sent.filter((entry) => entry.event === 'student:remediation').map((entry) => entry.payload)).toEqual([
      { sessionId: profile.id, concept: '합', index: 1, total: 2 },
    ]);
    expect(sent.every((entry) => entry.to === 'instructors' && entry.id === CLASS)).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await repository.student(CLASS, profile.id)).toMatchObject({ lastVerdict: 'good', badStreak: 0, state: 'remediation' });
  });

  it('M4: another node taking the session over continues the bad streak from the roster', async () => {
    play(newMonitor(), 'tutor:verdict', { questionId: 'c0q1', verdict: 'bad', feedback: '' }, judging(0));
    await settle();
    play(newMonitor(), 'tutor:verdict', { questionId: 'c0q2', verdict: 'bad', feedback: '' }, judging(0));
    await settle();
    expect(sent.filter((entry) => entry.event === 'student:answered').map((entry) => entry.payload.badStreak)).toEqual([1, 2]);
  });

  it('M6 M8: a raised hand, its question, the acknowledgement and its resolution reach instructors, the student and the roster', async () => {
    const monitor = newMonitor();
    const raisedAt = Date.now();
    play(monitor, 'assistant:prompt', { text: '무엇이 궁금한가요?' }, streaming(0));
    await vi.advanceTimersByTimeAsync(500);
    play(monitor, 'hand:asked', { text: '분산은 왜 제곱하나요?' }, streaming(0));
    await settle();
    expect(sent.filter((entry) => entry.event === 'hand:raised').map((entry) => entry.payload)).toEqual([
      { sessionId: profile.id, raisedAt },
      { sessionId: profile.id, raisedAt, question: '분산은 왜 제곱하나요?' },
    ]);
    expect((await repository.student(CLASS, profile.id))?.hand).toEqual({ raisedAt, question: '분산은 왜 제곱하나요?', acknowledged: false, answered: false });

    const { at } = await monitor.acknowledge(CLASS, profile.id);
    expect(sent.filter((entry) => entry.event === 'hand:acknowledged')).toEqual([
      { to: 'session', id: profile.id, event: 'hand:acknowledged', payload: { at } },
      { to: 'instructors', id: CLASS, event: 'hand:acknowledged', payload: { sessionId: profile.id, at } },
    ]);
    expect((await repository.student(CLASS, profile.id))?.hand?.acknowledged).toBe(true);
    // A repeated prompt (the assistant asking again) keeps the hand as it is.
    play(monitor, 'assistant:prompt', { text: '다시 말해 주세요' }, streaming(0));
    await settle();
    expect((await repository.student(CLASS, profile.id))?.hand).toEqual({ raisedAt, question: '분산은 왜 제곱하나요?', acknowledged: true, answered: false });

    play(monitor, 'hand:closed', { kind: 'specific' }, streaming(0));
    await settle();
    expect(sent.filter((entry) => entry.event === 'hand:resolved').map((entry) => entry.payload)).toEqual([{ sessionId: profile.id, kind: 'specific' }]);
    expect((await repository.student(CLASS, profile.id))?.hand).toBeNull();
    await expect(monitor.acknowledge(CLASS, profile.id)).rejects.toMatchObject({ code: 'HAND_NOT_RAISED' });
    await expect(monitor.acknowledge('another-class', profile.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(monitor.acknowledge(CLASS, 'no-such-session')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('M3: sessions outside a class, or not on its roster, cost nothing and write nothing', async () => {
    const monitor = newMonitor();
    const { classId: _classId, ...solo } = profile;
    const stranger: SessionProfile = { ...profile, id: 'session-2' };
    for (const who of [solo, stranger]) {
      play(monitor, 'lecture:chapter-start', { chapter: 0, title: '' }, streaming(0), who);
      play(monitor, 'tutor:verdict', { questionId: 'c0q1', verdict: 'bad', feedback: '' }, judging(0), who);
    }
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toEqual([]);
    expect(await store.exists(classKeys.classStudent(CLASS, 'session-2'))).toBe(false);
  });

  it('M2: sockets are counted across connects; joined on every connect, left when the last socket goes', async () => {
    const monitor = newMonitor();
    const student = { id: profile.id, classId: CLASS };
    monitor.studentConnected(student);
    monitor.studentConnected(student);
    monitor.studentDisconnected(student);
    await settle();
    expect(sent.map((entry) => entry.event)).toEqual(['student:joined', 'student:joined']);
    expect((await repository.student(CLASS, profile.id))?.connected).toBe(true);
    monitor.studentDisconnected(student);
    await settle();
    expect(sent.map((entry) => entry.event)).toEqual(['student:joined', 'student:joined', 'student:left']);
    expect((await repository.student(CLASS, profile.id))?.connected).toBe(false);
  });

  it('M3: close() sends the progress still owed', async () => {
    const monitor = newMonitor();
    play(monitor, 'lecture:chapter-start', { chapter: 0, title: '' }, streaming(0));
    await settle();
    play(monitor, 'lecture:chapter-start', { chapter: 3, title: '' }, streaming(3));
    await settle();
    expect(progress()).toHaveLength(1);
    await monitor.close();
    expect(progress().at(-1)).toMatchObject({ chapter: 3, percent: 75 });
  });

  it('M3: percent is chapter-level over the material; states name the bad path remediation', () => {
    const start = { chapter: -1, percent: 0, state: 'idle' };
    const chapters = [0, 1, 2, 3];
    expect(rosterProgress(chapters, sessionActivity(profile, { kind: 'idle' }), start)).toEqual(start);
    expect(rosterProgress(chapters, sessionActivity(profile, streaming(0)), start)).toEqual({ chapter: 0, percent: 0, state: 'streaming' });
    expect(rosterProgress(chapters, sessionActivity(profile, awaiting(1)), start)).toEqual({ chapter: 1, percent: 25, state: 'awaiting-answer' });
    expect(rosterProgress(chapters, sessionActivity(profile, judging(2)), start)).toEqual({ chapter: 2, percent: 50, state: 'tutoring' });
    expect(rosterProgress(chapters, sessionActivity(profile, subquestion(3)), start)).toEqual({ chapter: 3, percent: 75, state: 'remediation' });
    expect(rosterProgress(chapters, sessionActivity(profile, { kind: 'paused', reason: 'student', previous: streaming(2) }), start)).toEqual({
      chapter: 2,
      percent: 50,
      state: 'paused',
    });
    const last = { chapter: 3, percent: 75, state: 'streaming' };
    expect(rosterProgress(chapters, sessionActivity(profile, { kind: 'finished' }), last)).toEqual({ chapter: 3, percent: 100, state: 'finished' });
  });
});
