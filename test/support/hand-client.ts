import { parseLecture } from '../../src/lecture/marker-parser.js';
import type { SessionObserver } from '../../src/lecture/session-actor.js';
import type { TutorEventName, TutorServerEvents } from '../../src/protocol/wire/tutor.js';
import { chapterGenerated, generatedChapter, type LectureClient, type RecordedEvent } from './lecture-client.js';
import type { TestApp } from './test-app.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * The student's side of the raise-hand dialogue (rules H1–H10 of test/SPEC.md): commands that are recorded in the
 * client's event list (as `client:hand` pseudo-events, sent after recording so the server's reaction always comes
 * after them), a driver that answers every check with a plan, and a compact view of a recorded dialogue.
 */

/** The seed's two example questions (번외 2): the offline classify rule calls the first specific, the second vague. */
export const SPECIFIC_QUESTION = '기댓값 공식에서, 확률이 곱해지는데 이게 무슨 의미로 곱해지는지 모르겠다';
export const VAGUE_QUESTION = '기댓값이 무슨 내용인지 모르겠다';

export type Check = TutorServerEvents['assistant:check'];

/**
 * `hand:raise`; fails the test when refused. Resolves with `sent`, the number of events recorded when the command
 * went out (the prompt may arrive before the ack), and `acked`, the number recorded when its ack arrived (nothing of
 * the lecture may come after that until the dialogue closes).
 */
export async function raiseHand(client: LectureClient): Promise<{ sent: number; acked: number }> {
  const sent = client.events.length;
  const ack = await client.ok('hand:raise', {});
  if (ack.state !== 'hand-raised') throw new Error(`hand:raise answered state ${ack.state}`);
  return { sent, acked: client.events.length };
}

async function handCommand(client: LectureClient, command: 'ask' | 'reply' | 'lower', text?: string): Promise<void> {
  const recorded: RecordedEvent = { event: 'client:hand', payload: text === undefined ? { command } : { command, text } };
  client.events.push(recorded);
  await client.ok(`hand:${command}`, text === undefined ? {} : { text });
}

export const askHand = (client: LectureClient, text: string) => handCommand(client, 'ask', text);
export const replyHand = (client: LectureClient, text: string) => handCommand(client, 'reply', text);
export const lowerHand = (client: LectureClient) => handCommand(client, 'lower');

const indexOf = (client: LectureClient, event: RecordedEvent) => client.events.indexOf(event);

/** Waits for the next `assistant:check` or `hand:closed` at or after `from`; resolves with it and its index. */
export async function nextTurn(
  client: LectureClient,
  from: number,
  timeoutMs?: number,
): Promise<{ index: number } & ({ check: Check; closed?: undefined } | { check?: undefined; closed: TutorServerEvents['hand:closed'] })> {
  const event = await client.waitFor((candidate) => candidate.event === 'assistant:check' || candidate.event === 'hand:closed', {
    from,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const index = indexOf(client, event);
  if (event.event === 'hand:closed') return { index, closed: event.payload };
  if (event.event !== 'assistant:check') throw new Error(`unexpected ${event.event}`);
  return { index, check: event.payload };
}

/** The student's reply to one check; `n` counts the checks of this dialogue from 1. */
export type ReplyPlan = (check: Check, n: number) => string;

/** Answers every check from `from` on with `plan` until the dialogue closes; resolves with the closing event. */
export async function answerChecks(client: LectureClient, from: number, plan: ReplyPlan): Promise<TutorServerEvents['hand:closed']> {
  let cursor = from;
  for (let n = 1; ; n += 1) {
    const turn = await nextTurn(client, cursor);
    cursor = turn.index + 1;
    if (turn.closed) return turn.closed;
    await replyHand(client, plan(turn.check, n));
  }
}

export interface DialogueReply {
  replyId: string;
  kind: string;
  text: string;
  /** `tutor:reply-end` arrived (with `abandoned` when the reply was cut off and is written again). */
  ended: boolean;
  abandoned: boolean;
}

export interface DialogueView {
  /**
   * Compact shape, e.g. `prompt ask asked explain check1/4 reply:아니요 … summary closed:vague lecture`. A reply
   * counts once, where it starts, as its kind (`answer`, `explain`, `summary`), suffixed `(abandoned)` or `(open)`
   * when it did not end normally; consecutive lecture deltas count as one `lecture`.
   */
  shape: string[];
  replies: DialogueReply[];
  checks: Check[];
  closed: TutorServerEvents['hand:closed'] | undefined;
}

/**
 * Folds the events from `from` on into a DialogueView. It stops after the first event that follows `hand:closed`
 * (normally the lecture going on), or at the end of the recording.
 */
export function dialogueOf(events: readonly RecordedEvent[], from: number): DialogueView {
  const view: DialogueView = { shape: [], replies: [], checks: [], closed: undefined };
  const replies = new Map<string, { reply: DialogueReply; at: number }>();
  const push = (item: string) => {
    if (item === 'lecture' && view.shape.at(-1) === 'lecture') return;
    view.shape.push(item);
  };
  for (const { event, payload } of events.slice(from)) {
    if (view.closed && event !== 'hand:closed') {
      push(event === 'lecture:delta' ? 'lecture' : event === 'lecture:question' ? 'question' : event);
      break;
    }
    switch (event) {
      case 'assistant:prompt':
        push('prompt');
        break;
      case 'hand:asked':
        push('asked');
        break;
      case 'client:hand':
        push(payload.command === 'reply' ? `reply:${payload.text ?? ''}` : payload.command);
        break;
      case 'assistant:check':
        view.checks.push(payload);
        push(`check${payload.index + 1}/${payload.total}`);
        break;
      case 'hand:closed':
        view.closed = payload;
        push(`closed:${payload.kind}`);
        break;
      case 'tutor:reply-start': {
        const reply: DialogueReply = { replyId: payload.replyId, kind: payload.kind, text: '', ended: false, abandoned: false };
        view.replies.push(reply);
        replies.set(payload.replyId, { reply, at: view.shape.length });
        view.shape.push(`${payload.kind}(open)`);
        break;
      }
      case 'tutor:reply-delta': {
        const entry = replies.get(payload.replyId);
        if (entry) entry.reply.text += payload.text;
        else push('orphan-delta');
        break;
      }
      case 'tutor:reply-end': {
        const entry = replies.get(payload.replyId);
        if (!entry || entry.reply.ended) {
          push('orphan-end');
          break;
        }
        entry.reply.ended = true;
        entry.reply.abandoned = payload.abandoned === true;
        view.shape[entry.at] = `${entry.reply.kind}${entry.reply.abandoned ? '(abandoned)' : ''}`;
        break;
      }
      case 'lecture:delta':
        push('lecture');
        break;
      case 'lecture:question':
        push('question');
        break;
      case 'session:state':
        push('snapshot');
        break;
      default:
        push(event);
    }
  }
  return view;
}

/** Index of the first `event` at or after `from` (-1 when there is none). */
export function findEvent(events: readonly RecordedEvent[], name: string, from = 0): number {
  const found = events.slice(from).findIndex((event) => event.event === name);
  return found === -1 ? -1 : from + found;
}

/** The lecture events (text) recorded in [from, to). */
export function lectureDeltasBetween(events: readonly RecordedEvent[], from: number, to: number): string[] {
  return events.slice(from, to).flatMap((event) => (event.event === 'lecture:delta' ? [event.payload.text] : []));
}

/**
 * What the student must have seen of a chapter once its `question`-th question (1-based) is asked: the display text
 * before that question, from the generated lecture (rule L1).
 */
export async function lectureBefore(app: Pick<TestApp, 'store' | 'lectures'>, materialId: string, chapter: number, question: number): Promise<string> {
  await chapterGenerated(app, materialId, chapter);
  const { raw } = await generatedChapter(app, materialId, chapter);
  let text = '';
  let questions = 0;
  for (const segment of parseLecture(raw)) {
    if (segment.type === 'question') {
      questions += 1;
      if (questions === question) return text;
      continue;
    }
    text += segment.text;
  }
  throw new Error(`chapter ${chapter} has only ${questions} questions`);
}

/**
 * A server-side tap on session events (plug `observer` into the app's overrides): tells a test when the server has
 * emitted an event, even while the student hears nothing (deafened) or is disconnected.
 */
export class SessionTap {
  private readonly seen: { sessionId: string; event: TutorEventName }[] = [];
  private readonly listeners = new Set<() => void>();
  readonly observer: SessionObserver = {
    onEvent: (session, event) => {
      this.seen.push({ sessionId: session.id, event: event.event });
      for (const listener of [...this.listeners]) listener();
    },
  };

  count(sessionId: string, event: TutorEventName): number {
    return this.seen.filter((entry) => entry.sessionId === sessionId && entry.event === event).length;
  }

  /** Resolves once the server emitted at least `total` events named `event` for the session. */
  reach(sessionId: string, event: TutorEventName, total: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    if (this.count(sessionId, event) >= total) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (this.count(sessionId, event) < total) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`session ${sessionId} emitted ${this.count(sessionId, event)} ${event}, not ${total}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }
}
