/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT17 — Redis, two nodes. (`lti-redis`).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDurableKey } from '../src/store/retention.js';
import { call } from './support/http-call.js';
import { linkLectureAndExam, startLtiWorld, type LtiWorld } from './support/lti-world.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * LT17 (test/SPEC.md): on Redis, with two nodes, LTI keeps everything in the store — a login begun on one node is
 * finished on the other, both publish the same tool key, a score goes to the gradebook from whichever node graded —
 * and after the run every `lectern:lti:*` key is either durable (documented) or carries a TTL.
 */

const redis = suiteRedis();

async function ttlsOf(url: string, pattern: string): Promise<{ key: string; ttl: number }[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    const unique = [...new Set(found)].sort();
    return Promise.all(unique.map(async (key) => ({ key, ttl: await client.pttl(key) })));
  } finally {
    client.disconnect();
  }
}

describe('LTI on Redis with two nodes', () => {
  let world: LtiWorld;
  let second: TestApp;
  beforeAll(async () => {
    world = await startLtiWorld({ env: { REDIS_URL: redis.url, SIGNUP: 'open' } });
    second = await startTestApp({ REDIS_URL: redis.url, SIGNUP: 'open' }, { lti: { keySets: { cooldownMs: 0 } } });
  });
  afterAll(async () => {
    await second?.stop();
    await world?.stop();
  });

  it('LT17 registrations, keys, logins and grades cross nodes through the store; nothing is kept forever that is not listed', async () => {
    const { app, lms } = world;
    const links = await linkLectureAndExam(world);
    // Both nodes publish the same key pair.
    const [first, other] = await Promise.all([call(`${app.url}/lti/jwks`, 'GET'), call(`${second.url}/lti/jwks`, 'GET')]);
    expect(other.body).toEqual(first.body);
    // The second node knows the platform the first registered, and frames for it.
    expect((await fetch(`${second.url}/classroom.html`)).headers.get('content-security-policy')).toContain(`frame-ancestors ${new URL(lms.issuer).origin}`);

    // A login begun on the first node, its form posted to the second.
    const prepared = await lms.prepare(app.url, { user: world.students[0]!, link: links.exam });
    if ('refused' in prepared) throw new Error(`login refused: ${prepared.refused.errorCode}`);
    const landed = await lms.postLaunch(second.url, prepared.form, prepared.stateCookie);
    expect(landed.landing).toMatchObject({ kind: 'classroom', examId: world.examId, session: { nickname: '이서연' } });
    const { token } = landed.landing?.session as { token: string };

    // The student answers on the second node, which grades and sends the score.
    const auth = { authorization: `Bearer ${token}` };
    await call(`${second.url}/api/class-exams/${world.examId}/draft`, 'PUT', { headers: auth, body: { answers: { 1: '분산' } } });
    expect((await call(`${second.url}/api/class-exams/${world.examId}/submit`, 'POST', { headers: auth, body: {} })).status).toBe(200);
    await second.exams.settled();
    await second.lti.grades.settled();
    expect(lms.scores.map((score) => [score.userId, score.scoreGiven, score.lineItemId])).toEqual([['lms-student-1', 1, links.exam.lineItemId]]);

    const scanned = await ttlsOf(redis.url, 'lectern:lti:*');
    expect(scanned.length).toBeGreaterThan(5);
    expect(scanned.filter(({ key, ttl }) => ttl === -1 && !isDurableKey(key)).map(({ key }) => key)).toEqual([]);
    // Logins, nonces, deep links and access tokens expire.
    for (const { key, ttl } of scanned.filter(({ key }) => /^lectern:lti:(login|nonce|deep-link|access-token|quiz-ticket|registration-code|roster-sync):/.test(key))) expect(ttl, key).toBeGreaterThan(0);
    expect(scanned.some(({ key }) => key.startsWith('lectern:lti:nonce:'))).toBe(true);
    expect(scanned.some(({ key }) => key.startsWith('lectern:lti:access-token:'))).toBe(true);
  });
});
