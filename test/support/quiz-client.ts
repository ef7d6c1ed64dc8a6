import { PROTOCOL_VERSION } from '../../src/protocol/wire/ack.js';
import { io as connect, type Socket } from 'socket.io-client';
import type { Ack } from '../../src/protocol/wire/ack.js';
import type { QuizItem, RoomOptions, RoomStatePayload } from '../../src/protocol/quiz.js';
import { createClass, getJson, postJson } from './classroom-client.js';
import { connected } from './test-app.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/** Quizzes and live rooms for tests: HTTP setup, host and player sockets that record every frame they receive. */

export function sampleItems(count = 3): QuizItem[] {
  const bank: QuizItem[] = [
    { question: '평균을 구하는 방법은?', choices: ['모두 더해 개수로 나눈다', '가장 큰 값을 고른다', '가운데 값을 고른다', '가장 많이 나온 값을 고른다'], answer: 0, explanation: '산술평균은 합을 개수로 나눈 값입니다.', difficulty: 'easy' },
    { question: '자료를 크기순으로 늘어놓았을 때 가운데 값은?', choices: ['평균', '중앙값', '최빈값', '분산'], answer: 1, explanation: '가운데 위치한 값이 중앙값입니다.', difficulty: 'easy' },
    { question: '가장 자주 나타나는 값은?', choices: ['범위', '표준편차', '최빈값', '사분위수'], answer: 2, explanation: '빈도가 가장 큰 값이 최빈값입니다.', difficulty: 'medium' },
    { question: '분산의 제곱근은?', choices: ['평균', '범위', '중앙값', '표준편차'], answer: 3, explanation: '표준편차는 분산의 양의 제곱근입니다.', difficulty: 'medium' },
    { question: '주사위를 한 번 던져 짝수가 나올 확률은?', choices: ['1/2', '1/3', '1/6', '2/3'], answer: 0, explanation: '짝수는 2, 4, 6 세 가지이므로 3/6 = 1/2입니다.', difficulty: 'hard' },
  ];
  return Array.from({ length: count }, (_, index) => ({ ...bank[index % bank.length]!, question: `${index + 1}. ${bank[index % bank.length]!.question}` }));
}

export interface QuizSetup {
  classId: string;
  instructorToken: string;
  quizId: string;
  items: QuizItem[];
}

export async function createQuiz(app: Parameters<typeof createClass>[0], items = sampleItems(), title = '통계 퀴즈'): Promise<QuizSetup> {
  const created = await createClass(app, { name: '퀴즈 반' });
  const quiz = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title, items }, { authorization: `Bearer ${created.instructorToken}` });
  if (quiz.status !== 201) throw new Error(`POST /api/quizzes: ${quiz.status} ${JSON.stringify(quiz.body)}`);
  return { classId: created.classId, instructorToken: created.instructorToken, quizId: quiz.body.quizId!, items };
}

export interface CreatedRoom {
  roomId: string;
  code: string;
  hostToken: string;
}

export async function createRoom(app: { url: string }, setup: QuizSetup, options: Partial<RoomOptions> = {}): Promise<CreatedRoom> {
  const response = await postJson<CreatedRoom>(`${app.url}/api/rooms`, { quizId: setup.quizId, options }, { authorization: `Bearer ${setup.instructorToken}` });
  if (response.status !== 201) throw new Error(`POST /api/rooms: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreatedRoom;
}

export async function fetchResults(app: { url: string }, roomId: string, token: string) {
  return getJson(`${app.url}/api/rooms/${roomId}/results`, { authorization: `Bearer ${token}` });
}

/** A received event, in order; `raw` frames include acks (everything the engine delivered). */
export interface Received {
  event: string;
  payload: unknown;
}

/** A `/quiz` socket that keeps every event and every raw frame it receives. */
export class QuizClient {
  readonly events: Received[] = [];
  readonly frames: string[] = [];
  private waiters: Array<{ event: string; test: (payload: never) => boolean; resolve: (payload: unknown) => void }> = [];

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      this.events.push({ event, payload });
      this.waiters = this.waiters.filter((waiter) => {
        if (waiter.event !== event || !waiter.test(payload as never)) return true;
        waiter.resolve(payload);
        return false;
      });
    });
    const tap = () => {
      socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
        if (packet.type === 'message' && typeof packet.data === 'string') this.frames.push(packet.data);
      });
    };
    socket.io.on('open', tap);
    if (socket.io.engine) tap();
  }

  static open(url: string, auth: Record<string, unknown> = {}, options: { reconnection?: boolean; headers?: Record<string, string> } = {}): QuizClient {
    return new QuizClient(
      connect(`${url}/quiz`, {
        auth: { protocolVersion: PROTOCOL_VERSION, ...auth },
        transports: ['websocket'],
        reconnection: options.reconnection ?? false,
        forceNew: true,
        ...(options.headers ? { extraHeaders: options.headers } : {}),
      }),
    );
  }

  async ready(): Promise<this> {
    await connected(this.socket);
    return this;
  }

  /** The next `event` (after now, or already received and matching when `past`) that passes `test`. */
  next<T = unknown>(event: string, test: (payload: T) => boolean = () => true, timeoutMs = WAIT_TIMEOUT_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), timeoutMs);
      this.waiters.push({
        event,
        test: test as (payload: never) => boolean,
        resolve: (payload) => {
          clearTimeout(timer);
          resolve(payload as T);
        },
      });
    });
  }

  /** The latest `event` received so far, or the next one. */
  async latest<T = unknown>(event: string, test: (payload: T) => boolean = () => true, timeoutMs = WAIT_TIMEOUT_MS): Promise<T> {
    const found = [...this.events].reverse().find((received) => received.event === event && test(received.payload as T));
    return found ? (found.payload as T) : this.next<T>(event, test, timeoutMs);
  }

  state(test: (state: RoomStatePayload) => boolean = () => true): Promise<RoomStatePayload> {
    return this.latest<RoomStatePayload>('room:state', test);
  }

  emit<T extends object = Record<string, unknown>>(event: string, payload: unknown = {}, timeoutMs = WAIT_TIMEOUT_MS): Promise<Ack<T>> {
    return this.socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<Ack<T>>;
  }

  close(): void {
    this.socket.disconnect();
  }
}

export async function openHost(url: string, hostToken: string): Promise<QuizClient> {
  const host = await QuizClient.open(url, { token: hostToken }).ready();
  await host.state();
  return host;
}

export interface JoinedPlayer {
  client: QuizClient;
  playerId: string;
  playerToken: string;
  roomId: string;
}

export async function joinRoom(url: string, code: string, nickname: string): Promise<JoinedPlayer> {
  const client = await QuizClient.open(url).ready();
  const ack = await client.emit<{ playerId: string; playerToken: string; roomId: string }>('room:join', { code, nickname });
  if (!ack.ok) throw new Error(`room:join ${nickname}: ${ack.error.code} ${ack.error.message}`);
  await client.state();
  return { client, playerId: ack.playerId, playerToken: ack.playerToken, roomId: ack.roomId };
}

/** Reconnects a player with its token (a reload): a fresh socket that gets a full `room:state`. */
export async function rejoin(url: string, playerToken: string): Promise<QuizClient> {
  const client = await QuizClient.open(url, { token: playerToken }).ready();
  await client.state();
  return client;
}
