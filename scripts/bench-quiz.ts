/**
 * npm run bench:quiz -- --players N [--nodes K] [--questions Q] [--question-seconds 10] [--answer-window 0.4]
 *                       [--batch 100] [--redis URL] [--store memory] [--types mix]
 *
 * Without `--redis`, the run starts its own throwaway redis-server on a free port (removed at the end), so it never
 * writes into a shared Redis; `--redis URL` points it at one you choose (use a database of its own, not 0).
 * `--types mix` cycles the questions through 4-choice, O/X, multiple correct, ordering, numeric and short-text items,
 * and every player answers each in its own shape (a random pick, pick set, order, number or one of 40 typed answers,
 * which the reveal judges once each); the default is all 4-choice.
 * `--store memory` runs one node on the memory store instead (no Redis at all): each question's deadline is then
 * the host's receipt of `room:question` (open) + its `remainingMs`, like `revealP99MsFromPayload`.
 *
 * One live quiz room with N players, played to the end. K server processes (src/main.ts, like production: Redis store
 * and the Redis streams adapter) share one Redis and one TOKEN_SECRET; the players are socket.io-clients in this
 * process, spread round-robin over the nodes (websocket transport), joining `--batch` at a time. A host socket on
 * node 0 drives the game: room:start, wait for the reveal, room:next to the leaderboard, room:next to the next
 * question, and after the last one to the podium and the end. Every player answers every question with a random
 * choice after a random delay within the first `--answer-window` of the question time. Prints one JSON line:
 *
 * - joinP99Ms: `room:join` emit -> ack (the socket is already connected).
 * - ackP50Ms / ackP99Ms: `answer:submit` emit -> ack.
 * - revealP99Ms: question deadline -> a player's `room:reveal`. A room closes early once every player has answered,
 *   so one extra player joins and never answers: each question then runs to its deadline and closes at deadline +
 *   answer grace (QUIZ_ANSWER_GRACE_MS, set to 250 here, the default), so the grace is part of this figure (the
 *   `revealAfterGraceP99Ms` field leaves it out). The deadline is read from the stored phase record (epoch ms on the
 *   same machine's clock, so no clock skew); `revealP99MsFromPayload` estimates it instead on each socket as
 *   receipt of `room:question` (open) + its `remainingMs`, which reads a little low by that frame's own delay.
 * - framesPerAnswer: events received (socket.onAny: acks are not events) by every socket — players, the idle
 *   player and the host — between its own `room:question` (open) and its `room:reveal`, both excluded, divided by
 *   the number of acknowledged answers. The host's `room:answer-count` is the expected part of it.
 * - lostAnswers: answers acknowledged `{ok: true, duplicate: false}` whose player/question is missing from
 *   `GET /api/rooms/:id/results` at the end or shows another choice. Refused answers are counted by code in
 *   `refused` (present only when non-zero); unanswered acks in `errors.ackTimeout`.
 * - rssMbPerNode: the largest `process_resident_memory_bytes` among the nodes at the end (`rssMbAllNodes` lists all).
 *
 * The clients share the machine's cores with the servers and Redis: on a small machine their CPU use (`clientCpuPct`,
 * of one core) inflates every latency, and their own event-loop delay is part of each figure.
 */
import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import type { AnswerResponse, QuestionPayload, RecordedResponse, RevealPayload, RoomItem } from '../src/protocol/quiz.js';
import type { PhaseRecord } from '../src/quiz/room-phase.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { benchInstructorToken, metricValue, numberArg, percentile, round, startRedisProcess, startServerProcess, stringArg, waitForReady, readMetrics, type ServerProcess } from './bench-support.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

const playerCount = numberArg('players', 200);
const nodeCount = numberArg('nodes', 1);
const questionCount = Math.min(numberArg('questions', 5), 50);
const questionSeconds = numberArg('question-seconds', 10);
const answerWindow = Math.min(numberArg('answer-window', 0.4), 1);
const batchSize = numberArg('batch', 100);
const redisArg = stringArg('redis', '');
const memoryStore = stringArg('store', 'redis') === 'memory';
const mixedTypes = stringArg('types', 'choice') === 'mix';
if (memoryStore && numberArg('nodes', 1) !== 1) throw new Error('--store memory runs a single node');
const GRACE_MS = 250;
const ACK_TIMEOUT_MS = 30_000;

type Ack<T> = ({ ok: true } & T) | { ok: false; error: { code: string; message: string } };

interface Player {
  index: number;
  socket: Socket;
  playerId: string;
  idle: boolean;
  /** The question this socket last saw open (until its reveal), or null. */
  open: number | null;
  /** Receipt of `room:question` (open) + remainingMs: the deadline as this socket can tell it. */
  deadlineEstimate: number;
  answered: Set<number>;
}

const log = (message: string) => process.stderr.write(`bench:quiz ${message}\n`);
const sorted = (values: number[]) => [...values].sort((left, right) => left - right);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Typed answers to the bench's short-text items: right, wrong, unsure and 30 distinct others. */
const SHORT_ANSWERS = ['중앙값', 'Median', '평균', '최빈값', '정렬했을 때 가운데 오는 값', '가운데 값', '모르겠어요', '분산', '범위', '표준편차', ...Array.from({ length: 30 }, (_, index) => `값 ${index}`)];

function items(count: number): RoomItem[] {
  return Array.from({ length: count }, (_, index): RoomItem => {
    const base = { question: `${index + 1}. 벤치 문제`, explanation: '해설입니다.', difficulty: 'easy' as const };
    if (mixedTypes) {
      switch (index % 6) {
        case 1:
          return { ...base, type: 'truefalse', answer: index % 2 === 0 };
        case 2:
          return { ...base, type: 'multi', choices: ['가', '나', '다', '라', '마'], answers: [0, 2] };
        case 3:
          return { ...base, type: 'ordering', steps: ['첫째', '둘째', '셋째', '넷째'] };
        case 4:
          return { ...base, type: 'numeric', answer: 100, tolerance: 5, unit: 'km' };
        case 5:
          return { ...base, question: `${index + 1}. 이상값에 덜 민감한 대푯값은?`, type: 'short', answer: '중앙값', accept: ['median'] };
      }
    }
    const left = 3 + index;
    const right = 7 + 2 * index;
    const sum = left + right;
    const answer = index % 4;
    const choices = [0, 1, 2, 3].map((slot) => String(sum + slot - answer));
    return {
      question: `${index + 1}. ${left} + ${right} = ?`,
      choices,
      answer,
      explanation: `${left}에 ${right}를 더하면 ${sum}입니다.`,
      difficulty: 'easy' as const,
    };
  });
}

async function request<T>(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function connectQuiz(url: string, auth: Record<string, unknown> = {}): Promise<Socket> {
  const socket = io(`${url}/quiz`, { auth: { protocolVersion: PROTOCOL_VERSION, ...auth }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 60_000 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.disconnect();
      reject(error);
    });
  });
}

/** The next `event` on `socket` passing `test` (listening starts now). */
function next<T>(socket: Socket, event: string, test: (payload: T) => boolean = () => true, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = (payload: T) => {
      if (!test(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`timed out waiting for ${event}`));
    }, timeoutMs);
    socket.on(event, listener);
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) return false;
    await sleep(20);
  }
  return true;
}

async function command(host: Socket, name: string): Promise<void> {
  const ack = (await host.timeout(ACK_TIMEOUT_MS).emitWithAck(name, {})) as Ack<object>;
  if (!ack.ok) throw new Error(`${name}: ${ack.error.code} ${ack.error.message}`);
}

const quizItems = items(questionCount);
const tokenSecret = randomBytes(24).toString('hex');
const servers: ServerProcess[] = [];
const ownRedis = redisArg === '' && !memoryStore ? await startRedisProcess() : undefined;
const redisUrl = ownRedis?.url ?? redisArg;
const redis = memoryStore ? null : new Redis(redisUrl, { maxRetriesPerRequest: 3 });
const sockets: Socket[] = [];
let host: Socket | undefined;
let ended = false;
let gameOver = false;
const startedAt = performance.now();

try {
  // Each node is kept as soon as it runs, so `finally` stops it even if another one fails to start.
  const started = await Promise.all(
    Array.from({ length: nodeCount }, async (_, index) => {
      const server = await startServerProcess({
        ...(memoryStore ? {} : { REDIS_URL: redisUrl }),
        TOKEN_SECRET: tokenSecret,
        NODE_ID: `bench-quiz-${index}`,
        // Every player connects from 127.0.0.1: the per-address join limit must let a whole room in at once.
        QUIZ_JOIN_BURST: String(Math.min(playerCount + 100, 100_000)),
        QUIZ_JOIN_PER_SECOND: '100000',
        // ... and so must the per-address join points (shared in Redis) and the per-address socket cap.
        JOIN_ATTEMPT_POINTS: String(Math.min(playerCount * 2 + 100, 1_000_000)),
        MAX_SOCKETS_PER_ADDRESS: String(Math.min(playerCount + 100, 1_000_000)),
        QUIZ_ANSWER_GRACE_MS: String(GRACE_MS),
      });
      servers.push(server);
      await waitForReady(server.url);
      return server;
    }),
  );
  const urls = started.map((server) => server.url);
  const first = urls[0]!;

  const created = await request<{ instructorToken: string }>(`${first}/api/classes`, { body: { name: 'bench quiz' }, token: await benchInstructorToken(first) });
  const quiz = await request<{ quizId: string }>(`${first}/api/quizzes`, {
    body: { title: '벤치 퀴즈', items: quizItems },
    token: created.instructorToken,
  });
  const room = await request<{ roomId: string; code: string; hostToken: string }>(`${first}/api/rooms`, {
    body: { quizId: quiz.quizId, options: { questionSeconds, previewSeconds: 0, maxPlayers: Math.min(playerCount + 1, 10_000), lateJoin: true } },
    token: created.instructorToken,
  });

  // ---- measurements
  const joinMs: number[] = [];
  const joinStateMs: number[] = [];
  const ackMs: number[] = [];
  const reveals: Array<{ q: number; at: number; estimate: number }> = [];
  const revealsPerQuestion = new Array<number>(questionCount).fill(0);
  const deadlines = new Map<number, number>();
  const framesByEvent: Record<string, number> = {};
  let framesDuringOpen = 0;
  const acked: Array<{ playerId: string; q: number; response: string }> = [];
  const refused: Record<string, number> = {};
  const errors: Record<string, number> = {};
  const fail = (kind: string) => {
    errors[kind] = (errors[kind] ?? 0) + 1;
  };

  const countFrame = (open: number | null, event: string) => {
    if (open === null) return;
    framesDuringOpen += 1;
    framesByEvent[event] = (framesByEvent[event] ?? 0) + 1;
  };

  /** A random answer in the question's shape (see --types). */
  const randomAnswer = (q: number): AnswerResponse => {
    const item = quizItems[q]!;
    const pick = (n: number) => Math.floor(Math.random() * n);
    switch (item.type) {
      case 'truefalse':
        return { choice: pick(2) };
      case 'multi':
        return { choices: [...new Set([pick(5), pick(5)])] };
      case 'ordering':
        return { order: [0, 1, 2, 3].sort(() => Math.random() - 0.5) };
      case 'numeric':
        return { text: `${80 + pick(40)} km` };
      case 'short':
        return { text: SHORT_ANSWERS[pick(SHORT_ANSWERS.length)]! };
      default:
        return { choice: pick(4) };
    }
  };
  const submit = async (player: Player, q: number) => {
    const answer = randomAnswer(q);
    const sentAt = performance.now();
    let ack: Ack<{ choice: number; response: RecordedResponse; duplicate: boolean }>;
    try {
      ack = (await player.socket.timeout(ACK_TIMEOUT_MS).emitWithAck('answer:submit', { questionIndex: q, ...answer })) as typeof ack;
    } catch {
      fail('ackTimeout');
      return;
    }
    ackMs.push(performance.now() - sentAt);
    if (!ack.ok) {
      refused[ack.error.code] = (refused[ack.error.code] ?? 0) + 1;
      return;
    }
    const recorded = JSON.stringify(ack.response);
    if (ack.duplicate) fail('unexpectedDuplicate');
    else if ('text' in answer ? !('value' in ack.response || 'text' in ack.response) : recorded !== JSON.stringify('choices' in answer ? { choices: [...answer.choices].sort() } : answer)) fail('ackChoiceMismatch');
    else acked.push({ playerId: player.playerId, q, response: recorded });
  };

  const watchPlayer = (player: Player) => {
    player.socket.on('disconnect', (reason) => {
      if (!ended) fail(`disconnect:${reason}`);
    });
    player.socket.onAny((event: string, payload: unknown) => {
      const now = Date.now();
      if (event === 'room:question') {
        const question = payload as QuestionPayload;
        if (question.phase !== 'open' || question.paused) return;
        const q = question.question.index;
        player.open = q;
        player.deadlineEstimate = now + question.remainingMs;
        if (!player.idle && !player.answered.has(q)) {
          player.answered.add(q);
          setTimeout(() => void submit(player, q), Math.random() * answerWindow * question.remainingMs);
        }
        return;
      }
      if (event === 'room:reveal') {
        const q = (payload as RevealPayload).question.index;
        reveals.push({ q, at: now, estimate: now - player.deadlineEstimate });
        revealsPerQuestion[q] = (revealsPerQuestion[q] ?? 0) + 1;
        player.open = null;
        return;
      }
      countFrame(player.open, event);
    });
  };

  // ---- host, then the players (the idle one first), in batches
  host = await connectQuiz(first, { token: room.hostToken });
  let hostOpen: number | null = null;
  host.onAny((event: string, payload: unknown) => {
    if (event === 'room:question') {
      const question = payload as QuestionPayload;
      if (question.phase === 'open') hostOpen = question.question.index;
      return;
    }
    if (event === 'room:reveal') {
      hostOpen = null;
      return;
    }
    countFrame(hostOpen, event);
  });

  const players: Player[] = [];
  const joinOne = async (index: number) => {
    const url = urls[index % urls.length]!;
    let socket: Socket;
    try {
      socket = await connectQuiz(url);
    } catch {
      fail('connect');
      return;
    }
    sockets.push(socket);
    const state = next(socket, 'room:state', () => true, 60_000);
    state.catch(() => undefined);
    const sentAt = performance.now();
    const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('room:join', { code: room.code, nickname: `p${index}` })) as Ack<{ playerId: string }>;
    joinMs.push(performance.now() - sentAt);
    if (!ack.ok) {
      fail(`join:${ack.error.code}`);
      return;
    }
    const player: Player = { index, socket, playerId: ack.playerId, idle: index === playerCount, open: null, deadlineEstimate: 0, answered: new Set() };
    watchPlayer(player);
    players.push(player);
    await state.then(
      () => joinStateMs.push(performance.now() - sentAt),
      () => fail('noStateAfterJoin'),
    );
  };
  const order = [playerCount, ...Array.from({ length: playerCount }, (_, index) => index)];
  for (let start = 0; start < order.length; start += batchSize) {
    await Promise.all(order.slice(start, start + batchSize).map((index) => joinOne(index)));
  }
  const joinedS = (performance.now() - startedAt) / 1000;
  log(`${players.length} players joined over ${nodeCount} node(s) in ${round(joinedS)} s`);

  // ---- the game
  const readAllMetrics = () => Promise.all(urls.map((url) => readMetrics(url)));
  const before = await readAllMetrics(); // also resets each node's event-loop lag maximum
  const cpuBefore = process.cpuUsage();
  const gameStartedAt = performance.now();
  for (let q = 0; q < questionCount; q += 1) {
    const opened = next<QuestionPayload>(host, 'room:question', (payload) => payload.phase === 'open' && payload.question.index === q);
    const revealed = next<RevealPayload>(host, 'room:reveal', (payload) => payload.question.index === q, questionSeconds * 1000 + 60_000);
    revealed.catch(() => undefined);
    await command(host, q === 0 ? 'room:start' : 'room:next');
    const openPayload = await opened;
    if (redis) {
      const record = JSON.parse((await redis.hget(quizKeys.room(room.roomId), 'phase')) ?? 'null') as PhaseRecord | null;
      if (record?.phase === 'open' && record.q === q) deadlines.set(q, record.deadline);
      else fail('deadlineUnread');
    } else deadlines.set(q, Date.now() + openPayload.remainingMs);
    await revealed;
    if (!(await until(() => (revealsPerQuestion[q] ?? 0) >= players.length, 30_000))) fail('missingReveal');
    log(`question ${q + 1}/${questionCount} revealed to ${revealsPerQuestion[q]} players`);
    const leaderboard = next(host, 'room:leaderboard');
    await command(host, 'room:next');
    await leaderboard;
  }
  const podium = next(host, 'room:podium');
  await command(host, 'room:next');
  await podium;
  const endedEvent = next(host, 'room:ended');
  await command(host, 'room:next');
  await endedEvent;
  ended = gameOver = true;
  const gameS = (performance.now() - gameStartedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);

  // ---- results and metrics
  const results = await request<RoomResults>(`${first}/api/rooms/${room.roomId}/results`, { token: room.hostToken });
  const recorded = new Map<string, Map<number, string | null>>();
  for (const row of results.players) recorded.set(row.playerId, new Map(row.answers.map((answer) => [answer.questionIndex, answer.response ? JSON.stringify(answer.response) : null])));
  const lostAnswers = acked.filter((answer) => recorded.get(answer.playerId)?.get(answer.q) !== answer.response).length;
  const after = await readAllMetrics();
  const rss = after.map((body) => Math.round((metricValue(body, 'process_resident_memory_bytes') ?? 0) / 1024 / 1024));
  const cpuSeconds = (body: string) => metricValue(body, 'process_cpu_seconds_total') ?? 0;

  const revealMs: number[] = [];
  for (const reveal of reveals) {
    const deadline = deadlines.get(reveal.q);
    if (deadline !== undefined) revealMs.push(reveal.at - deadline);
  }
  const revealSorted = sorted(revealMs);
  // Per question: the first player's reveal after the close (the server's closing and scoring work) and the spread
  // to the last one (the rendering of one view per socket).
  const revealFirstAfterGraceMs: number[] = [];
  const revealSpreadMs: number[] = [];
  for (let q = 0; q < questionCount; q += 1) {
    const times = reveals.filter((reveal) => reveal.q === q).map((reveal) => reveal.at);
    const deadline = deadlines.get(q);
    if (times.length === 0 || deadline === undefined) continue;
    revealFirstAfterGraceMs.push(Math.min(...times) - deadline - GRACE_MS);
    revealSpreadMs.push(Math.max(...times) - Math.min(...times));
  }
  const answers = acked.length;
  process.stdout.write(
    JSON.stringify({
      players: playerCount,
      nodes: nodeCount,
      joinP99Ms: round(percentile(sorted(joinMs), 99)),
      ackP50Ms: round(percentile(sorted(ackMs), 50)),
      ackP99Ms: round(percentile(sorted(ackMs), 99)),
      revealP99Ms: round(percentile(revealSorted, 99)),
      framesPerAnswer: answers === 0 ? null : round(framesDuringOpen / answers, 4),
      lostAnswers,
      rssMbPerNode: Math.max(...rss),
      ...(Object.keys(refused).length > 0 ? { refused } : {}),
      errors,
      answers,
      expectedAnswers: playerCount * questionCount,
      questions: questionCount,
      questionSeconds,
      answerWindowMs: Math.round(answerWindow * questionSeconds * 1000),
      graceMs: GRACE_MS,
      joinP50Ms: round(percentile(sorted(joinMs), 50)),
      joinToStateP99Ms: round(percentile(sorted(joinStateMs), 99)),
      joinedS: round(joinedS),
      ackMaxMs: round(sorted(ackMs).at(-1) ?? 0),
      revealP50Ms: round(percentile(revealSorted, 50)),
      revealMaxMs: round(revealSorted.at(-1) ?? 0),
      revealAfterGraceP99Ms: round(percentile(revealSorted, 99) - GRACE_MS),
      revealFirstAfterGraceMs,
      revealSpreadMs,
      revealP99MsFromPayload: round(percentile(sorted(reveals.map((reveal) => reveal.estimate)), 99)),
      framesDuringOpen,
      framesByEvent,
      rssMbPerNodeStat: 'max',
      rssMbAllNodes: rss,
      serverCpuPctPerNode: after.map((body, index) => Math.round(((cpuSeconds(body) - cpuSeconds(before[index] ?? '')) / gameS) * 100)),
      maxEventLoopLagMsPerNode: after.map((body) => round((metricValue(body, 'nodejs_eventloop_lag_max_seconds') ?? 0) * 1000)),
      clientCpuPct: Math.round(((cpu.user + cpu.system) / 1000 / (gameS * 1000)) * 100),
      gameS: round(gameS),
      durationS: round((performance.now() - startedAt) / 1000),
    }) + '\n',
  );
} finally {
  ended = true;
  // A room left behind in a shared Redis would be driven by every node that scans it: end it if the run broke.
  if (!gameOver && host?.connected) await host.timeout(5_000).emitWithAck('room:end', {}).catch(() => undefined);
  for (const socket of sockets) socket.disconnect();
  host?.disconnect();
  await Promise.all(servers.map((server) => server.stop()));
  await redis?.quit().catch(() => undefined);
  await ownRedis?.stop();
}
