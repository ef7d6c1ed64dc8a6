import type { Socket } from 'socket.io-client';
import { SeqCursor } from '../../client/net/seq-cursor.js';
import { sendCommand, type CommandAck } from '../../client/net/socket.js';
import { readTutorFrame, type SessionEvent, type TutorCommandName, type TutorCommands, type TutorEvents, type TutorSocket } from '../../client/net/tutor-protocol.js';
import { parseLecture } from '../../src/lecture/marker-parser.js';
import type { Material } from '../../src/materials/index.js';
import { sampleBytesOnce } from '../../src/materials/sample-bytes.js';
import { buildSamplePdf, SAMPLE_FILENAME } from '../../src/materials/sample-pdf.js';
import type { SessionObserver } from '../../src/lecture/session-actor.js';
import type { SessionSnapshot, TutorServerEvents } from '../../src/protocol/wire/index.js';
import { ownMaterial } from './accounts.js';
import { connected, type TestApp } from './test-app.js';
import { lectureKeys } from '../../src/lecture/lecture-keys.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * A scripted student on `/tutor`, built on the pages' own client (client/net: the typed commands, the frame reader
 * and the seq cursor). Unlike a page it keeps everything: it records every event it receives (and every answer it
 * sends, as a pseudo-event `client:answer`), concatenates `lecture:delta` text per chapter, reports every event whose
 * seq is not the previous one plus one (a page would drop or resume it silently), answers questions with a policy, and
 * survives socket swaps (reconnects, server restarts) by keeping its state.
 */

/** Server events plus the pseudo-events the client records for what it sends. */
export type RecordedPayloads = TutorEvents & {
  'client:answer': { questionId: string; text: string };
  /** A raise-hand command the student sent (recorded before sending; see test/support/hand-client.ts). */
  'client:hand': { command: 'ask' | 'reply' | 'lower'; text?: string };
};
export type RecordedName = keyof RecordedPayloads;
export type RecordedEvent = { [K in RecordedName]: { event: K; payload: RecordedPayloads[K] } }[RecordedName];

/** A question the student must answer now: a lecture question or a subquestion of the tutor. */
export interface Asked {
  questionId: string;
  text: string;
  /** Set for subquestions and for a re-asked parent question. */
  parentQuestionId?: string;
  /** The parent question asked again after its subconcepts (`tutor:reask`). */
  reask?: true;
  index?: number;
  total?: number;
  concept?: string;
}

/** The answer text, or undefined to leave the question for the test to answer by hand. */
export type AnswerPolicy = (asked: Asked, client: LectureClient) => string | undefined | Promise<string | undefined>;


/** A command's payload (optional where the command takes none) and the ack timeout. */
type PayloadArguments<K extends TutorCommandName> = Record<string, never> extends TutorCommands[K]['payload']
  ? [payload?: TutorCommands[K]['payload'], timeoutMs?: number]
  : [payload: TutorCommands[K]['payload'], timeoutMs?: number];

interface Waiter {
  predicate: (event: RecordedEvent) => boolean;
  resolve: (event: RecordedEvent) => void;
}

export class LectureClient {
  readonly events: RecordedEvent[] = [];
  /** Lecture text received per chapter (deltas appended; replaced by a snapshot's text). */
  readonly text = new Map<number, string>();
  /** Seq rule violations (each event's seq must be the previous one plus one). */
  readonly seqErrors: string[] = [];
  /** Answers the server refused or failed to acknowledge. */
  readonly answerErrors: string[] = [];
  /** Snapshots received (session:state). */
  readonly snapshots: SessionSnapshot[] = [];
  /** Set by joinLecture. */
  sessionId = '';
  socket: TutorSocket;
  policy: AnswerPolicy | undefined;
  private readonly cursor = new SeqCursor();
  private readonly waiters = new Set<Waiter>();
  private readonly answered = new Set<string>();
  private readonly listener = (event: string, payload: unknown) => this.record(event, payload);

  constructor(socket: Socket, policy?: AnswerPolicy) {
    this.socket = socket;
    this.policy = policy;
    socket.onAny(this.listener);
  }

  /** The seq of the last event in order (a snapshot's seq after a snapshot). */
  get lastSeq(): number {
    return this.cursor.lastSeq;
  }

  /** Moves the student to a new socket (reconnect, another server); everything recorded so far is kept. */
  use(socket: Socket): void {
    this.socket.offAny(this.listener);
    this.socket = socket;
    socket.onAny(this.listener);
  }

  /**
   * Stops hearing the current socket, as if everything the server sends from now on were lost in the network
   * (the socket stays connected). `use()` on a new socket makes the student hear again.
   */
  deafen(): void {
    this.socket.offAny(this.listener);
  }

  /**
   * Sends a command and resolves with its acknowledgement (a local TIMEOUT error when none comes). A command sent
   * before the socket has connected waits for the connection.
   */
  command<K extends TutorCommandName>(event: K, ...[payload, timeoutMs = WAIT_TIMEOUT_MS]: PayloadArguments<K>): Promise<CommandAck<TutorCommands[K]['result']>> {
    return sendCommand<TutorCommands, K>(this.socket, event, payload ?? ({} as TutorCommands[K]['payload']), { timeoutMs, buffer: true });
  }

  /** Like command, but fails the test when the server refuses. */
  async ok<K extends TutorCommandName>(event: K, ...[payload]: PayloadArguments<K>): Promise<TutorCommands[K]['result']> {
    const ack = await this.command<K>(event, ...([payload] as PayloadArguments<K>));
    if (!ack.ok) throw new Error(`${event} refused: ${ack.error.code} ${ack.error.message}`);
    return ack;
  }

  /** Sends anything, past the types: what a broken or hostile client could send (validation tests). */
  unchecked(event: string, payload: unknown): Promise<CommandAck<object>> {
    return sendCommand(this.socket as unknown as TutorSocket, event as TutorCommandName, payload as never, { timeoutMs: WAIT_TIMEOUT_MS, buffer: true });
  }

  /** Resolves with the first recorded event at or after index `from` that matches. */
  waitFor(predicate: (event: RecordedEvent) => boolean, options: { from?: number; timeoutMs?: number } = {}): Promise<RecordedEvent> {
    const found = this.events.slice(options.from ?? 0).find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out waiting for an event; last events: ${this.describeTail()}`));
      }, options.timeoutMs ?? WAIT_TIMEOUT_MS);
      this.waiters.add(waiter);
    });
  }

  /** Waits for the named event (from `from`, default: anything recorded so far counts). */
  waitForEvent<K extends RecordedName>(
    name: K,
    options: { from?: number; timeoutMs?: number; where?: (payload: RecordedPayloads[K]) => boolean } = {},
  ): Promise<RecordedPayloads[K]> {
    const where = options.where;
    return this.waitFor(
      (event) => event.event === name && (!where || where(event.payload as RecordedPayloads[K])),
      options,
    ).then((event) => event.payload as RecordedPayloads[K]);
  }

  /** Waits until at least `chars` characters of lecture text arrived in `chapter`. */
  async waitForText(chapter: number, chars: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    const enough = () => (this.text.get(chapter)?.length ?? 0) >= chars;
    if (enough()) return;
    await this.waitFor(enough, { from: this.events.length, timeoutMs });
  }

  /** Every event of one kind, in order. */
  all<K extends RecordedName>(name: K): RecordedPayloads[K][] {
    return this.events.filter((event) => event.event === name).map((event) => event.payload as RecordedPayloads[K]);
  }

  private record(event: string, raw: unknown): void {
    const recorded = { event, payload: raw } as RecordedEvent;
    const frame = readTutorFrame(event, raw);
    if (frame?.kind === 'snapshot') {
      // A snapshot replaces everything before it; its seq is the session's current seq.
      const { seq, state } = frame.payload;
      if (seq < this.cursor.lastSeq) this.seqErrors.push(`session:state seq ${seq} < lastSeq ${this.cursor.lastSeq}`);
      this.cursor.accept(seq, true);
      this.applySnapshot(state);
    } else if (frame?.kind === 'session') {
      const { seq } = frame.event.payload;
      const before = this.cursor.lastSeq;
      const verdict = this.cursor.accept(seq);
      if (verdict === 'stale' || verdict === 'gap') {
        this.seqErrors.push(`${event} seq ${seq} after ${before}`);
        // Recorded anyway: the tests look at what arrived, in the order it arrived.
        this.cursor.lastSeq = Math.max(before, seq);
      }
      this.collectText(frame.event);
    }
    this.events.push(recorded);
    if (frame?.kind === 'session' && frame.event.name === 'lecture:question') {
      const { questionId, text } = frame.event.payload;
      this.ask({ questionId, text });
    } else if (frame?.kind === 'session' && frame.event.name === 'tutor:subquestion') {
      const { questionId, text, parentQuestionId, index, total, concept } = frame.event.payload;
      this.ask({ questionId, text, parentQuestionId, index, total, concept });
    } else if (frame?.kind === 'session' && frame.event.name === 'tutor:reask') {
      const { questionId, text, parentQuestionId } = frame.event.payload;
      this.ask({ questionId, text, parentQuestionId, reask: true });
    }
    this.notify(recorded);
  }

  private collectText(event: SessionEvent): void {
    if (event.name === 'lecture:delta') {
      const { chapter, text } = event.payload;
      this.text.set(chapter, (this.text.get(chapter) ?? '') + text);
    } else if (event.name === 'lecture:chapter-start') {
      if (!this.text.has(event.payload.chapter)) this.text.set(event.payload.chapter, '');
    }
  }

  private applySnapshot(state: SessionSnapshot): void {
    this.snapshots.push(state);
    this.text.clear();
    for (const chapter of state.chapters) this.text.set(chapter.index, chapter.text);
    if (state.phase.kind === 'awaiting-answer') {
      const { questionId, text, parentQuestionId } = state.phase;
      const reask = questionId.endsWith('.r') ? { reask: true as const } : {};
      this.ask({ questionId, text, ...(parentQuestionId ? { parentQuestionId } : {}), ...reask });
    }
  }

  private ask(asked: Asked): void {
    const policy = this.policy;
    if (!policy || this.answered.has(asked.questionId)) return;
    void (async () => {
      const text = await policy(asked, this);
      if (text === undefined) return;
      this.answered.add(asked.questionId);
      const recorded: RecordedEvent = { event: 'client:answer', payload: { questionId: asked.questionId, text } };
      this.events.push(recorded);
      this.notify(recorded);
      const ack = await this.command('answer:submit', { questionId: asked.questionId, text });
      if (!ack.ok) this.answerErrors.push(`${asked.questionId}: ${ack.error.code} ${ack.error.message}`);
    })().catch((error: unknown) => this.answerErrors.push(`${asked.questionId}: policy failed: ${String(error)}`));
  }

  private notify(recorded: RecordedEvent): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(recorded)) {
        this.waiters.delete(waiter);
        waiter.resolve(recorded);
      }
    }
  }

  private describeTail(): string {
    return this.events
      .slice(-8)
      .map((event) => `${event.event} ${JSON.stringify(event.payload).slice(0, 120)}`)
      .join(' | ');
  }
}

/** Creates a session over HTTP and connects a LectureClient to it. */
export async function joinLecture(
  app: TestApp,
  materialId: string,
  options: { nickname?: string; policy?: AnswerPolicy } = {},
): Promise<{ client: LectureClient; sessionId: string; token: string }> {
  // Outside a class a session needs the built-in sample or, for an account, its own material (a preview).
  const instructor = await ownMaterial(app, materialId);
  const response = await fetch(`${app.url}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...instructor.bearer },
    body: JSON.stringify({ materialId, nickname: options.nickname ?? '학생' }),
  });
  if (response.status !== 201) throw new Error(`POST /api/sessions: ${response.status} ${await response.text()}`);
  const { sessionId, token } = (await response.json()) as { sessionId: string; token: string };
  const socket = app.socket('/tutor', { token });
  const client = new LectureClient(socket, options.policy);
  client.sessionId = sessionId;
  await connectedOrThrow(socket);
  return { client, sessionId, token };
}

/** Resolves once connected; rejects with the connect_error (the shared helper of test-app.ts). */
export const connectedOrThrow = connected;

/** A chapter's lecture as generated (from the store): what the student must see, and the questions cut out of it. */
export async function generatedChapter(
  app: Pick<TestApp, 'store' | 'lectures'>,
  materialId: string,
  chapter: number,
): Promise<{ raw: string; text: string; questions: string[] }> {
  const entries = await app.store.xread(lectureKeys.lectureText(app.lectures.generator.cacheKey(materialId, chapter)), '0');
  const raw = entries.map((entry) => entry.fields.t ?? '').join('');
  const segments = parseLecture(raw);
  return {
    raw,
    text: segments.flatMap((segment) => (segment.type === 'text' ? [segment.text] : [])).join(''),
    questions: segments.flatMap((segment) => (segment.type === 'question' ? [segment.text] : [])),
  };
}

/** One lecture question and everything that happened until the lecture went on. */
export interface Episode {
  questionId: string;
  chapter: number;
  text: string;
  /** Compact shape, e.g. `answer verdict:bad sub1/2 answer verdict:bad reply:remedial sub2/2 … reask answer verdict:good reply:supplement`. */
  shape: string;
  /** The event that resumed the lecture (undefined when the recording stops first). */
  next: string | undefined;
  subquestions: TutorServerEvents['tutor:subquestion'][];
  replies: { kind: string; text: string }[];
}

/**
 * Splits a recording into tutoring episodes: from each `lecture:question` until the lecture goes on (the next
 * lecture delta, chapter boundary, question or end). Reply deltas are folded into one `reply:<kind>` item.
 */
export function episodes(events: readonly RecordedEvent[]): Episode[] {
  const result: Episode[] = [];
  let current: (Episode & { parts: string[] }) | undefined;
  const replies = new Map<string, { kind: string; text: string }>();
  const close = (next: string | undefined) => {
    if (!current) return;
    current.shape = current.parts.join(' ');
    current.next = next;
    const { parts: _parts, ...episode } = current;
    result.push(episode);
    current = undefined;
  };
  for (const { event, payload } of events) {
    if (event === 'lecture:question') {
      close(event);
      current = { questionId: payload.questionId, chapter: payload.chapter, text: payload.text, shape: '', next: undefined, subquestions: [], replies: [], parts: [] };
      continue;
    }
    if (!current) continue;
    switch (event) {
      case 'lecture:delta':
      case 'lecture:chapter-end':
      case 'lecture:chapter-start':
      case 'lecture:end':
        close(event);
        break;
      case 'client:answer':
        current.parts.push('answer');
        break;
      case 'tutor:verdict':
        current.parts.push(`verdict:${payload.verdict}`);
        break;
      case 'tutor:reask':
        current.parts.push('reask');
        break;
      case 'tutor:subquestion':
        current.subquestions.push(payload);
        current.parts.push(`sub${payload.index}/${payload.total}`);
        break;
      case 'tutor:reply-start': {
        const reply = { kind: payload.kind, text: '' };
        replies.set(payload.replyId, reply);
        current.replies.push(reply);
        break;
      }
      case 'tutor:reply-delta': {
        const reply = replies.get(payload.replyId);
        if (reply) reply.text += payload.text;
        else current.parts.push('orphan-delta');
        break;
      }
      case 'tutor:reply-end':
        current.parts.push(`reply:${replies.get(payload.replyId)?.kind ?? 'unknown'}`);
        break;
      default:
        current.parts.push(event);
    }
  }
  close(undefined);
  return result;
}

/** Resolves when the chapter's generation is complete (as this node's feed sees it). */
export function chapterGenerated(app: Pick<TestApp, 'lectures'>, materialId: string, chapter: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const feed = app.lectures.feeds.get(app.lectures.generator.cacheKey(materialId, chapter));
  if (feed.state === 'done') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`chapter ${chapter} not generated in time (${feed.state})`));
    }, timeoutMs);
    const unsubscribe = feed.subscribe(() => {
      if (feed.state !== 'done') return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

export const WRONG_ANSWER = '모르겠어요';

/**
 * A student of the offline model who knows the right answers: for a good answer it asks the server's own (offline,
 * deterministic) Q&A tutor for the model answer of the question, and for a subquestion it reads the subconcept's
 * explanation from the session record (of `server`, or of the server a getter returns). `good(asked, ordinal)` decides which questions are answered well; `ordinal`
 * counts lecture questions (1, 2, …) and, for a subquestion, is its index (1..total); a re-asked parent question
 * (`asked.reask`) gets its parent's ordinal and, when good, the parent question's model answer.
 */
export function offlineStudent(
  server: Pick<TestApp, 'lectures' | 'store'> | (() => Pick<TestApp, 'lectures' | 'store'>),
  materialId: string,
  good: (asked: Asked, ordinal: number) => boolean,
): (asked: Asked, client: LectureClient) => Promise<string> {
  let questions = 0;
  return async (asked, client) => {
    // A getter lets the student follow the session to another server (restart tests).
    const app = typeof server === 'function' ? server() : server;
    const subIndex = asked.index ?? Number(/\.s(\d+)$/.exec(asked.questionId)?.[1] ?? 0);
    if (asked.reask) {
      if (!good(asked, questions)) return WRONG_ANSWER;
      const record = await app.lectures.repository.load(client.sessionId);
      const state = record?.state;
      if (state?.kind !== 'tutoring') throw new Error(`no tutoring state for ${asked.questionId}`);
      const chapter = state.chapter;
      await chapterGenerated(app, materialId, chapter);
      const lecture = (await generatedChapter(app, materialId, chapter)).text;
      return (await app.lectures.tutor.modelAnswer({ question: state.question.text, lecture })).modelAnswer.slice(0, 2000);
    }
    const isSub = asked.parentQuestionId !== undefined;
    if (!isSub) questions += 1;
    if (!good(asked, isSub ? subIndex : questions)) return WRONG_ANSWER;
    if (isSub) {
      const record = await app.lectures.repository.load(client.sessionId);
      const state = record?.state;
      const explanation = state?.kind === 'tutoring' ? state.subconcepts?.[subIndex - 1]?.explanation : undefined;
      if (!explanation) throw new Error(`no subconcept explanation for ${asked.questionId}`);
      return explanation.slice(0, 2000);
    }
    const chapter = Number(/^c(\d+)q/.exec(asked.questionId)?.[1]);
    await chapterGenerated(app, materialId, chapter);
    const lecture = (await generatedChapter(app, materialId, chapter)).text;
    const { modelAnswer } = await app.lectures.tutor.modelAnswer({ question: asked.text, lecture });
    return modelAnswer.slice(0, 2000);
  };
}

/** Counts the events a server emitted per session (plug `observer` into the app's overrides). */
export class EmittedEvents {
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  readonly observer: SessionObserver = {
    onEvent: (session) => {
      this.counts.set(session.id, this.count(session.id) + 1);
      for (const listener of [...this.listeners]) listener();
    },
  };

  count(sessionId: string): number {
    return this.counts.get(sessionId) ?? 0;
  }

  /** Resolves once the server has emitted at least `total` events of the session. */
  reach(sessionId: string, total: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    if (this.count(sessionId) >= total) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (this.count(sessionId) < total) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`session ${sessionId} emitted ${this.count(sessionId)} events, not ${total}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }
}

/**
 * The sample PDF that `preloadSample()` ingests, built once per test file: the same process-wide copy the apps of
 * the file use for their sample id (src/materials/sample-bytes.ts), so none of them builds it again in a worker.
 */
export function samplePdfBytes(): Promise<Uint8Array> {
  return sampleBytesOnce(buildSamplePdf);
}

/**
 * The sample material on `app`, the same one `app.materials.preloadSample()` gives. Building the sample PDF blocks
 * the event loop for about a second; done once per file (call samplePdfBytes in beforeAll), it cannot stall the
 * Redis connections of servers that concurrent tests are starting at that moment (ioredis would time them out).
 */
export async function loadSample(app: Pick<TestApp, 'materials'>): Promise<Material> {
  const { material } = await app.materials.ingest({ bytes: await samplePdfBytes(), filename: SAMPLE_FILENAME });
  return material;
}
