/**
 * npm run bench:lecture -- --students N [--speed 25] [--seconds 20] [--window 50] [--ramp 10] [--think 5]
 *
 * N socket.io-client students in one process stream the sample lecture from a server in another process (offline
 * model, memory store) at a fixed speed. Like a real class, students start over `--ramp` seconds and answer each
 * question after `--think` seconds (0 for at once). Lecture text and tutor replies are both
 * paced, so both count. A delta's lag is how late it arrives against the pacer's schedule: within one uninterrupted
 * run of deltas, the k-th token is due `k / speed` s after the run's first delta arrived (tokens counted with the
 * server's own tokenizer). Prints one JSON line; `clientCpuPct` shows whether the client process itself was the
 * limit (it shares this machine's two cores with the server).
 */
import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { io, type Socket } from 'socket.io-client';
import { countTokens } from '../src/lecture/tokenizer.js';
import {
  connectInBatches,
  expectAck,
  expectJson,
  limitsFor,
  measureWindow,
  metricValue,
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
const windowMs = numberArg('window', 50);
const rampSeconds = numberArg('ramp', 10, true);
const thinkSeconds = numberArg('think', 5, true);

const server = await startServerProcess({ PRELOAD_SAMPLE: 'true', PACER_WINDOW_MS: String(windowMs), ...limitsFor(students) });
try {
  let materialId: string | undefined;
  for (let attempt = 0; attempt < 200 && !materialId; attempt += 1) {
    const list = await expectJson<{ materials: { id: string }[] }>(await fetch(`${server.url}/api/materials`), 200, 'GET /api/materials');
    materialId = list.materials[0]?.id;
    if (!materialId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!materialId) throw new Error('sample material not ready');

  const lags: number[] = [];
  let deltas = 0;
  let chars = 0;
  let tokens = 0;
  let measuring = false;
  const sockets: Socket[] = [];

  const connectStudent = async (index: number) => {
    const response = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId, nickname: `학생${index}` }),
    });
    const { token } = await expectJson<{ token: string }>(response, 201, 'POST /api/sessions');
    const socket = io(`${server.url}/tutor`, { auth: { protocolVersion: PROTOCOL_VERSION, token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    // One uninterrupted run of lecture deltas: its first arrival and the tokens delivered since.
    let run: { start: number; tokens: number } | undefined;
    socket.onAny((event: string, payload: { text?: string; questionId?: string }) => {
      if (event !== 'lecture:delta' && event !== 'tutor:reply-delta') {
        run = undefined;
        if (event === 'lecture:question' || event === 'tutor:subquestion') {
          const answer = { questionId: payload.questionId, text: '평균은 값을 모두 더해 개수로 나눈 값입니다' };
          setTimeout(() => socket.emit('answer:submit', answer, () => undefined), thinkSeconds * 1000);
        }
        return;
      }
      const now = performance.now();
      const text = payload.text ?? '';
      const count = countTokens(text);
      if (run === undefined) run = { start: now, tokens: 0 };
      else if (measuring) lags.push(Math.max(0, now - (run.start + (run.tokens * 1000) / speed)));
      run.tokens += count;
      if (measuring) {
        deltas += 1;
        chars += text.length;
        tokens += count;
      }
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expectAck(await socket.emitWithAck('lecture:speed', { tokensPerSecond: speed }), 'lecture:speed');
  };

  await connectInBatches(students, connectStudent);
  await startLecturesOverRamp(sockets, rampSeconds);
  const { clientCpuPct } = await measureWindow(server.url, seconds, (on) => {
    measuring = on;
  });
  const metrics = await readMetrics(server.url);
  for (const socket of sockets) socket.disconnect();

  lags.sort((left, right) => left - right);
  process.stdout.write(
    JSON.stringify({
      students,
      windowMs,
      rampSeconds,
      thinkSeconds,
      tokensPerSecondEach: round(tokens / students / seconds, 2),
      deliveredCharsPerS: Math.round(chars / seconds),
      lagP50Ms: round(percentile(lags, 50)),
      lagP99Ms: round(percentile(lags, 99)),
      maxEventLoopLagMs: round((metricValue(metrics, 'nodejs_eventloop_lag_max_seconds') ?? 0) * 1000),
      rssMb: Math.round((metricValue(metrics, 'process_resident_memory_bytes') ?? 0) / 1024 / 1024),
      emitsPerStudentPerS: round(deltas / students / seconds, 2),
      clientCpuPct,
    }) + '\n',
  );
} finally {
  await server.stop();
}
