import type { Socket } from 'socket.io-client';
import { sessionActivity } from '../../src/lecture/session-activity.js';
import type { SessionProfile } from '../../src/lecture/session-repository.js';
import type { SessionState } from '../../src/lecture/session-state.js';
import type { MonitorCommands } from '../../client/net/monitor-protocol.js';
import { sendCommand, type CommandAck } from '../../client/net/socket.js';
import type { HandServerEvents, MonitorServerEvents } from '../../src/protocol/wire/index.js';
import type { TutorEvent } from '../../src/protocol/wire/index.js';
import { connectedOrThrow, LectureClient, type AnswerPolicy } from './lecture-client.js';
import { defaultInstructor, ownMaterial } from './accounts.js';
import type { TestApp } from './test-app.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/** Classes over HTTP, students in a class, and a recording instructor on `/monitor`. */

export interface CreatedClass {
  classId: string;
  code: string;
  instructorToken: string;
}

/** A JSON reply: the success body's fields, or `error` on failure. */
export interface HttpReply<T = Record<string, unknown>> {
  status: number;
  body: Partial<T> & { error?: { code: string; message: string } };
  headers: Headers;
}

export async function postJson<T = Record<string, unknown>>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpReply<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as HttpReply<T>['body'], headers: response.headers };
}

export async function getJson<T = Record<string, unknown>>(url: string, headers: Record<string, string> = {}): Promise<HttpReply<T>> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as HttpReply<T>['body'], headers: response.headers };
}

/** Creates a class as the server's default instructor account (who becomes an owner of the material, if any). */
export async function createClass(app: Pick<TestApp, 'url'> | Pick<TestApp, 'url' | 'ownership' | 'accounts' | 'config'>, body: { name: string; materialId?: string; roster?: string[] }): Promise<CreatedClass> {
  const instructor = body.materialId === undefined ? await defaultInstructor(app) : await ownMaterial(app, body.materialId);
  const response = await postJson<CreatedClass>(`${app.url}/api/classes`, body, instructor.bearer);
  if (response.status !== 201) throw new Error(`POST /api/classes: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreatedClass;
}

export interface JoinedStudent {
  client: LectureClient;
  sessionId: string;
  token: string;
  classId: string;
}

/**
 * Joins a class by code over HTTP and connects a LectureClient with the session token; like a real client it then
 * sends `session:resume`, which puts the socket in its session's room (where `hand:acknowledged` arrives).
 */
export async function joinClass(
  app: TestApp,
  code: string,
  nickname: string,
  options: { policy?: AnswerPolicy } = {},
): Promise<JoinedStudent> {
  const response = await postJson(`${app.url}/api/classes/${code}/join`, { nickname });
  if (response.status !== 201) throw new Error(`join: ${response.status} ${JSON.stringify(response.body)}`);
  const { sessionId, token, classId } = response.body as { sessionId: string; token: string; classId: string };
  const socket = app.socket('/tutor', { token });
  const client = new LectureClient(socket, options.policy);
  client.sessionId = sessionId;
  await connectedOrThrow(socket);
  await client.ok('session:resume', { lastSeq: 0 });
  return { client, sessionId, token, classId };
}

type MonitorName = keyof MonitorServerEvents;
export type MonitorEvent = { [K in MonitorName]: { event: K; payload: MonitorServerEvents[K]; at: number } }[MonitorName];

/** An instructor socket that records every `/monitor` event with its arrival time. */
export class MonitorClient {
  readonly events: MonitorEvent[] = [];
  private readonly waiters = new Set<{ test: (event: MonitorEvent) => boolean; resolve: (event: MonitorEvent) => void }>();

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      const recorded = { event, payload, at: Date.now() } as MonitorEvent;
      this.events.push(recorded);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(recorded)) {
          this.waiters.delete(waiter);
          waiter.resolve(recorded);
        }
      }
    });
  }

  waitFor<K extends MonitorName>(
    name: K,
    where: (payload: MonitorServerEvents[K]) => boolean = () => true,
    timeoutMs = WAIT_TIMEOUT_MS,
  ): Promise<MonitorServerEvents[K]> {
    const test = (event: MonitorEvent) => event.event === name && where(event.payload as MonitorServerEvents[K]);
    const found = this.events.find(test);
    if (found) return Promise.resolve(found.payload as MonitorServerEvents[K]);
    return new Promise((resolve, reject) => {
      const waiter = {
        test,
        resolve: (event: MonitorEvent) => {
          clearTimeout(timer);
          resolve(event.payload as MonitorServerEvents[K]);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const tail = this.events.slice(-6).map((event) => `${event.event} ${JSON.stringify(event.payload).slice(0, 100)}`);
        reject(new Error(`timed out waiting for ${name}; last: ${tail.join(' | ')}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  all<K extends MonitorName>(name: K): MonitorServerEvents[K][] {
    return this.events.filter((event) => event.event === name).map((event) => event.payload as MonitorServerEvents[K]);
  }

  /** An instructor command through the pages' own typed call (client/net); waits for the connection like emitWithAck. */
  command<K extends keyof MonitorCommands>(event: K, payload: MonitorCommands[K]['payload']): Promise<CommandAck<MonitorCommands[K]['result']>> {
    return sendCommand<MonitorCommands, K>(this.socket, event, payload, { timeoutMs: WAIT_TIMEOUT_MS, buffer: true });
  }

  /** Sends anything, past the types: what a broken or hostile client could send (validation tests). */
  async unchecked(event: string, payload: unknown): Promise<unknown> {
    return this.socket.timeout(WAIT_TIMEOUT_MS).emitWithAck(event, payload);
  }
}

/** Connects an instructor and waits for the roster. */
export async function connectInstructor(app: TestApp, token: string): Promise<{ monitor: MonitorClient; roster: MonitorServerEvents['class:roster'] }> {
  const socket = app.socket('/monitor', { token });
  const monitor = new MonitorClient(socket);
  await connectedOrThrow(socket);
  const roster = await monitor.waitFor('class:roster');
  return { monitor, roster };
}

/** The handshake error a socket gets (`connect_error` message and data), or 'connected'. */
export function handshakeOutcome(socket: Socket): Promise<{ message: string; data: { code?: string; reason?: string } | undefined } | 'connected'> {
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (error: Error & { data?: { code?: string; reason?: string } }) =>
      resolve({ message: error.message, data: error.data }),
    );
  });
}

/**
 * Plays a raise-hand session event into the app's monitor as the session actor would (the raise-hand dialogue is
 * wired into the actor separately; the monitor only sees its events).
 */
export async function playSessionEvent(
  app: TestApp,
  sessionId: string,
  event: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const record = await app.lectures.repository.load(sessionId);
  if (!record) throw new Error(`no session ${sessionId}`);
  const profile: SessionProfile = record.profile;
  const state: SessionState = record.state;
  app.monitor.onActivity(sessionActivity(profile, state), { event, payload } as unknown as TutorEvent);
}

/** Changes a signed token's payload but keeps its signature (a tampered token). */
export function tamper(token: string, change: (payload: Record<string, unknown>) => void): string {
  const [body, mac] = token.split('.');
  const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  change(payload);
  return `${Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url')}.${mac ?? ''}`;
}

/** Waits for a class notice on a student's socket (these events have no seq, so the lecture's event types omit them). */
export async function waitForNotice<K extends keyof HandServerEvents>(
  client: LectureClient,
  name: K,
  timeoutMs = WAIT_TIMEOUT_MS,
): Promise<HandServerEvents[K]> {
  const event = await client.waitFor((candidate) => (candidate.event as string) === name, { timeoutMs });
  return event.payload as unknown as HandServerEvents[K];
}

/** How many notices of a kind a student got. */
export const countNotices = (client: LectureClient, name: string) => client.events.filter((event) => (event.event as string) === name).length;

/**
 * Waits until the app's store answers. On a loaded machine a Redis store's first connection can time out; the store
 * reconnects by itself, but calls made meanwhile fail at once with STORE_UNAVAILABLE.
 */
export async function storeReady(app: Pick<TestApp, 'store'>, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await app.store.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
