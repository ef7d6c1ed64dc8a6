/**
 * npm run bench:monitor -- --students N [--speed 25] [--seconds 20] [--ramp 10] [--think 5]
 *
 * N socket.io-client students of one class stream the sample lecture (offline model, memory store) from a server in
 * another process while one instructor watches the class on `/monitor`. Students start over `--ramp` seconds and
 * answer each question after `--think` seconds. Students and instructor live in this process, so one clock measures
 * the instructor's lag: from a student receiving an event to the instructor receiving the monitor event it causes —
 * `tutor:verdict` -> `student:answered` (sent at once), and `lecture:chapter-start` or `lecture:question` -> the
 * `student:progress` showing it (throttled to one per second per student by design, so up to ~1 s of that lag is the
 * throttle). Prints one JSON line.
 */
import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { io, type Socket } from 'socket.io-client';
import {
  connectInBatches,
  expectAck,
  expectJson,
  limitsFor,
  measureWindow,
  metricValue,
  benchInstructorToken,
  numberArg,
  percentile,
  readMetrics,
  round,
  startLecturesOverRamp,
  startServerProcess,
} from './bench-support.js';

const students = numberArg('students', 100);
const speed = numberArg('speed', 25);
const seconds = numberArg('seconds', 20);
const rampSeconds = numberArg('ramp', 10, true);
const thinkSeconds = numberArg('think', 5, true);

const connect = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });

async function post<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Pairs a student-side event with the instructor-side event it causes, whichever arrives first (the two travel on
 * different sockets), and records the instructor's lateness (0 when the instructor was first).
 */
class LagPairs {
  readonly lags: number[] = [];
  private readonly studentAt = new Map<string, number>();
  private readonly instructorAt = new Map<string, number>();

  student(key: string, now: number, measuring: boolean): void {
    const seen = this.instructorAt.get(key);
    if (seen === undefined) this.studentAt.set(key, now);
    else {
      this.instructorAt.delete(key);
      if (measuring) this.lags.push(Math.max(0, seen - now));
    }
  }

  instructor(key: string, now: number, measuring: boolean): void {
    const seen = this.studentAt.get(key);
    if (seen === undefined) this.instructorAt.set(key, now);
    else {
      this.studentAt.delete(key);
      if (measuring) this.lags.push(Math.max(0, now - seen));
    }
  }
}

/**
 * Progress lag: a student's `lecture:chapter-start` (or `lecture:question`) against the instructor's first
 * `student:progress` of that student showing the chapter (or the `awaiting-answer` state). An instructor event that
 * arrived just before the student's counts as 0; a question answered before any matching progress gives no sample.
 */
class ProgressLag {
  readonly lags: number[] = [];
  private readonly pending = new Map<string, { chapter?: { index: number; at: number }; question?: number }>();
  private readonly last = new Map<string, { chapter: number; state: string; at: number }>();

  studentChapter(sessionId: string, index: number, now: number, measuring: boolean): void {
    const seen = this.last.get(sessionId);
    if (seen && seen.chapter >= index && seen.at >= now - 50) {
      if (measuring) this.lags.push(0);
      return;
    }
    this.entry(sessionId).chapter = { index, at: now };
  }

  studentQuestion(sessionId: string, now: number, measuring: boolean): void {
    const seen = this.last.get(sessionId);
    if (seen && seen.state === 'awaiting-answer' && seen.at >= now - 50) {
      if (measuring) this.lags.push(0);
      return;
    }
    this.entry(sessionId).question = now;
  }

  studentAnswered(sessionId: string): void {
    delete this.entry(sessionId).question;
  }

  instructor(sessionId: string, progress: { chapter: number; state: string }, now: number, measuring: boolean): void {
    this.last.set(sessionId, { ...progress, at: now });
    const waiting = this.entry(sessionId);
    if (waiting.chapter && progress.chapter >= waiting.chapter.index) {
      if (measuring) this.lags.push(now - waiting.chapter.at);
      delete waiting.chapter;
    }
    if (waiting.question !== undefined && progress.state === 'awaiting-answer') {
      if (measuring) this.lags.push(now - waiting.question);
      delete waiting.question;
    }
  }

  private entry(sessionId: string): { chapter?: { index: number; at: number }; question?: number } {
    let entry = this.pending.get(sessionId);
    if (!entry) {
      entry = {};
      this.pending.set(sessionId, entry);
    }
    return entry;
  }
}

const server = await startServerProcess({ PRELOAD_SAMPLE: 'true', ...limitsFor(students + 1) });
try {
  let materialId: string | undefined;
  for (let attempt = 0; attempt < 200 && !materialId; attempt += 1) {
    const list = await expectJson<{ materials: { id: string }[] }>(await fetch(`${server.url}/api/materials`), 200, 'GET /api/materials');
    materialId = list.materials[0]?.id;
    if (!materialId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!materialId) throw new Error('sample material not ready');
  const created = await post<{ classId: string; code: string; instructorToken: string }>(
    `${server.url}/api/classes`,
    { name: 'bench', materialId },
    { authorization: `Bearer ${await benchInstructorToken(server.url)}` },
  );

  let measuring = false;
  let instructorEvents = 0;
  let questionsInWindow = 0;
  const answered = new LagPairs();
  const progressed = new ProgressLag();

  const instructor = io(`${server.url}/monitor`, {
    auth: { protocolVersion: PROTOCOL_VERSION, token: created.instructorToken },
    transports: ['websocket'],
    reconnection: false,
  });
  instructor.onAny((event: string, payload: { sessionId?: string; questionId?: string; chapter?: number; state?: string }) => {
    const now = performance.now();
    if (measuring) instructorEvents += 1;
    const sessionId = payload.sessionId ?? '';
    if (event === 'student:answered') answered.instructor(`${sessionId}|${payload.questionId ?? ''}`, now, measuring);
    if (event === 'student:progress') progressed.instructor(sessionId, { chapter: payload.chapter ?? -1, state: payload.state ?? '' }, now, measuring);
  });
  await connect(instructor);

  const sockets: Socket[] = [];
  const connectStudent = async (index: number) => {
    const joined = await post<{ sessionId: string; token: string }>(`${server.url}/api/classes/${created.code}/join`, {
      nickname: `학생${index}`,
    });
    const socket = io(`${server.url}/tutor`, { auth: { protocolVersion: PROTOCOL_VERSION, token: joined.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.onAny((event: string, payload: { questionId?: string; chapter?: number }) => {
      if (event === 'lecture:delta' || event === 'tutor:reply-delta') return;
      const now = performance.now();
      if (event === 'tutor:verdict') answered.student(`${joined.sessionId}|${payload.questionId ?? ''}`, now, measuring);
      else if (event === 'lecture:chapter-start') progressed.studentChapter(joined.sessionId, payload.chapter ?? -1, now, measuring);
      if (event === 'lecture:question') {
        if (measuring) questionsInWindow += 1;
        progressed.studentQuestion(joined.sessionId, now, measuring);
      }
      if (event === 'lecture:question' || event === 'tutor:subquestion') {
        const answer = { questionId: payload.questionId, text: '평균은 값을 모두 더해 개수로 나눈 값입니다' };
        setTimeout(() => {
          progressed.studentAnswered(joined.sessionId);
          socket.emit('answer:submit', answer, () => undefined);
        }, thinkSeconds * 1000);
      }
    });
    await connect(socket);
    expectAck(await socket.emitWithAck('lecture:speed', { tokensPerSecond: speed }), 'lecture:speed');
  };

  await connectInBatches(students, connectStudent);
  await startLecturesOverRamp(sockets, rampSeconds);
  const { clientCpuPct } = await measureWindow(server.url, seconds, (on) => {
    measuring = on;
  });
  // Pairs whose instructor side arrives after the window still count (their student side was inside it).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const metrics = await readMetrics(server.url);
  for (const socket of sockets) socket.disconnect();
  instructor.disconnect();

  const sorted = (values: number[]) => [...values].sort((left, right) => left - right);
  const all = sorted([...answered.lags, ...progressed.lags]);
  process.stdout.write(
    JSON.stringify({
      students,
      instructorEventsPerS: round(instructorEvents / seconds),
      instructorLagP99Ms: round(percentile(all, 99)),
      rssMb: Math.round((metricValue(metrics, 'process_resident_memory_bytes') ?? 0) / 1024 / 1024),
      answeredLagP50Ms: round(percentile(sorted(answered.lags), 50)),
      answeredLagP99Ms: round(percentile(sorted(answered.lags), 99)),
      progressLagP50Ms: round(percentile(sorted(progressed.lags), 50)),
      progressLagP99Ms: round(percentile(sorted(progressed.lags), 99)),
      questionsInWindow,
      answeredSamples: answered.lags.length,
      progressSamples: progressed.lags.length,
      maxEventLoopLagMs: round((metricValue(metrics, 'nodejs_eventloop_lag_max_seconds') ?? 0) * 1000),
      clientCpuPct,
    }) + '\n',
  );
} finally {
  await server.stop();
}
