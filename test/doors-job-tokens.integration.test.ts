/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR17 — A job token ends with its starter's sessions. After a password change (or reset) that ends the owner's
 *   sessions, `/jobs` refuses the job tokens of jobs the owner started (`UNAUTHORIZED`, at the handshake), while the
 *   token of a self-study job a student of the owner's class started (billed to the owner) still opens it. Memory
 *   and Redis.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { signUp } from './support/accounts.js';
import { handshakeOutcome } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const redis = suiteRedis();

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<TestApp> {
  const app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
  context.onTestFinished(() => app.stop());
  return app;
}

/** `connected`, or the refusal's code, for a fresh `/jobs` handshake with this token. */
async function openJobs(app: TestApp, token: string): Promise<string | undefined> {
  const socket = app.socket('/jobs', { token });
  const outcome = await handshakeOutcome(socket);
  socket.disconnect();
  return outcome === 'connected' ? outcome : outcome.data?.code;
}

describe.each(['memory', 'redis'] as const)('job tokens and the end of sessions (%s)', (store) => {
  it("DR17 a password change ends the owner's job tokens but not the token of a student's self-study job", async (context) => {
    const app = await boot(store, context);
    await signUp(app);
    const teacher = await signUp(app);
    // Jobs of a kind no handler runs: the runner fails them, and `/jobs` still opens a finished job for its owner.
    const ownJob = await app.jobs.repository.create('door-test', teacher.accountId, {});
    const studentJob = await app.jobs.repository.create('door-test', teacher.accountId, {}, 'student');
    const tokenOf = (jobId: string) => app.signer.sign({ kind: 'job', sub: jobId, scope: teacher.accountId }, 60 * 60 * 1000);
    const ownToken = tokenOf(ownJob.jobId);
    const studentToken = tokenOf(studentJob.jobId);
    expect(await openJobs(app, ownToken)).toBe('connected');
    expect(await openJobs(app, studentToken)).toBe('connected');

    const changed = await call(`${app.url}/api/auth/password`, 'POST', { body: { current: teacher.password, next: '작업 토큰을 끊는 새 비밀번호' }, headers: teacher.browser });
    expect(changed.status).toBe(200);

    expect(await openJobs(app, ownToken)).toBe('UNAUTHORIZED');
    expect(await openJobs(app, studentToken)).toBe('connected');
    // A token signed after the change opens the owner's job again.
    expect(await openJobs(app, tokenOf(ownJob.jobId))).toBe('connected');
  });
});
