/**
 * npm run trial:exam-kill -- [--students 20] [--kills 6] [--deadline end|timer] [--wait-seconds 45] [--redis URL]
 *
 * The deadline-kill trial of live exams. Two server processes (src/main.ts, Redis store, one TOKEN_SECRET) share a
 * throwaway redis-server (or `--redis URL`: use a database of its own, not 0). One class with N students (joined
 * once, spread over both nodes). Each round: an exam is generated (offline model) and published to the class, every
 * student autosaves three answers, then the exam ends on node 0 — `--deadline end` (default): the instructor's 시험
 * 종료 there; `--deadline timer`: a one-minute time limit, node 0 being the first to see a request after it — and node
 * 0 is SIGKILLed a random 60–300 ms after the deadline. The survivor's results are then read every 250 ms; a student
 * counts as graded when their result is not pending and has its report. Node 0 is started again for the next round.
 *
 * Prints one JSON line: per kill `{killedAfterMs, gradedWithin30s, of, gradedLater, never, lastGradedAfterMs}` (graded
 * later = after 30 s but within `--wait-seconds`; never = not within it; the last one seen graded, to within the
 * 250 ms reads), and the totals.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { benchInstructorToken, numberArg, startRedisProcess, startServerProcess, stringArg, waitForReady, type ServerProcess } from './bench-support.js';

const studentCount = numberArg('students', 20);
const kills = numberArg('kills', 6);
const deadlineMode = stringArg('deadline', 'end');
const waitSeconds = numberArg('wait-seconds', 45);
const redisArg = stringArg('redis', '');
if (deadlineMode !== 'end' && deadlineMode !== 'timer') throw new Error('--deadline is end or timer');

const log = (message: string) => process.stderr.write(`trial:exam-kill ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function request<T>(url: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function ok<T>(url: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const reply = await request<T>(url, options);
  if (reply.status >= 300) throw new Error(`${options.method ?? 'GET'} ${url}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

const redis = redisArg ? { url: redisArg, stop: async () => {} } : await startRedisProcess();
const env = {
  REDIS_URL: redis.url,
  TOKEN_SECRET: randomBytes(24).toString('hex'),
  PRELOAD_SAMPLE: 'true',
  SIGNUP: 'open',
  // Every request of the trial comes from 127.0.0.1: the per-address budget is not what is measured.
  RATE_ADDRESS_MAX: '1000000',
};
const nodes: ServerProcess[] = [await startServerProcess(env), await startServerProcess(env)];
const results: { killedAfterMs: number; gradedWithin30s: number; of: number; gradedLater: number; never: number; lastGradedAfterMs: number | null }[] = [];
try {
  for (const node of nodes) await waitForReady(node.url);
  const first = () => nodes[0] as ServerProcess;
  const survivor = nodes[1] as ServerProcess;
  let materialId: string | undefined;
  for (let attempt = 0; attempt < 300 && !materialId; attempt += 1) {
    materialId = (await ok<{ materials: { id: string }[] }>(`${survivor.url}/api/materials`)).materials[0]?.id;
    if (!materialId) await sleep(100);
  }
  if (!materialId) throw new Error('sample material not ready');
  const token = await benchInstructorToken(survivor.url);
  const created = await ok<{ classId: string; code: string }>(`${survivor.url}/api/classes`, { body: { name: 'trial exam kill', materialId }, token });
  const students: { sessionId: string; token: string; node: number }[] = [];
  for (let index = 0; index < studentCount; index += 1) {
    const joined = await ok<{ sessionId: string; token: string }>(`${survivor.url}/api/classes/${created.code}/join`, { body: { nickname: `학생${index + 1}` } });
    students.push({ ...joined, node: index % 2 });
  }

  for (let round = 1; round <= kills; round += 1) {
    const started = await ok<{ jobId: string }>(`${survivor.url}/api/materials/${materialId}/exams`, { body: { count: 3, descriptive: 1 }, token });
    let examId = '';
    for (let attempt = 0; attempt < 600 && !examId; attempt += 1) {
      const { job } = await ok<{ job: { status: string; result: { examId: string } | null } }>(`${survivor.url}/api/jobs/${started.jobId}`, { token });
      if (job.status === 'failed') throw new Error('exam generation failed');
      examId = job.result?.examId ?? '';
      if (!examId) await sleep(100);
    }
    const minutes = 1;
    const { publication } = await ok<{ publication: { deadline: number } }>(`${survivor.url}/api/exams/${examId}/publish`, { body: { classId: created.classId, timeLimitMinutes: minutes }, token });
    await Promise.all(
      students.map((student, index) => {
        const url = nodes[student.node]?.url ?? survivor.url;
        return ok(`${url}/api/class-exams/${examId}/draft`, { method: 'PUT', body: { answers: { 1: `답 ${index}`, 2: '분산과 평균', 3: '모르겠어요' } }, token: student.token });
      }),
    );
    // The ending request is not waited for: node 0 dies while it still works on it (the close and the gradings).
    let deadline = publication.deadline;
    if (deadlineMode === 'end') {
      request(`${first().url}/api/exams/${examId}/end`, { method: 'POST', token }).catch(() => {});
      // The deadline moves when the end arrives on node 0 (read from the store through the other node).
      while (deadline === publication.deadline) {
        deadline = (await ok<{ publication: { deadline: number } }>(`${survivor.url}/api/exams/${examId}`, { token })).publication.deadline;
      }
    } else {
      await sleep(Math.max(0, deadline - Date.now()));
      // The first request after the deadline reaches node 0, which closes the exam.
      request(`${first().url}/api/class-exams/${examId}`, { token: students[0]?.token ?? '' }).catch(() => {});
    }
    await sleep(Math.max(0, deadline + 60 + Math.floor(Math.random() * 241) - Date.now()));
    first().child.kill('SIGKILL');
    const killedAfterMs = Date.now() - deadline;
    log(`round ${round}: node 0 killed ${killedAfterMs} ms after the deadline`);

    const gradedAt = new Map<string, number>();
    while (Date.now() < deadline + waitSeconds * 1000 && gradedAt.size < students.length) {
      const reply = await request<{ students?: { sessionId: string; pending: boolean; report: unknown }[] }>(`${survivor.url}/api/exams/${examId}/results`, { token });
      for (const row of reply.body?.students ?? []) {
        if (!row.pending && row.report !== null && !gradedAt.has(row.sessionId)) gradedAt.set(row.sessionId, Date.now());
      }
      await sleep(250);
    }
    const within = [...gradedAt.values()].filter((at) => at - deadline <= 30_000).length;
    const last = gradedAt.size === 0 ? null : Math.max(...gradedAt.values()) - deadline;
    results.push({ killedAfterMs, gradedWithin30s: within, of: students.length, gradedLater: gradedAt.size - within, never: students.length - gradedAt.size, lastGradedAfterMs: last });
    log(`round ${round}: ${within}/${students.length} graded within 30 s, ${students.length - gradedAt.size} not within ${waitSeconds} s`);

    const killed = first().child;
    if (killed.exitCode === null && killed.signalCode === null) await once(killed, 'exit');
    nodes[0] = await startServerProcess(env);
    await waitForReady(first().url);
  }
} finally {
  await Promise.all(nodes.map((node) => node.stop()));
  await redis.stop();
}
const total = results.reduce((sum, round) => sum + round.gradedWithin30s, 0);
process.stdout.write(`${JSON.stringify({ deadline: deadlineMode, students: studentCount, kills: results, gradedWithin30s: total, of: studentCount * results.length })}\n`);
