import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { FakeGemini } from './support/fake-gemini.js';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp | undefined;
let redis: RedisServer | undefined;
let fake: FakeGemini | undefined;

afterEach(async () => {
  await app?.stop();
  await redis?.stop();
  await fake?.close();
  app = undefined;
  redis = undefined;
  fake = undefined;
});

describe('operations endpoints', () => {
  it('GET /healthz says which store and model run (memory + offline by default)', async () => {
    app = await startTestApp();
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      store: 'memory',
      model: 'offline',
      models: { generation: 'offline-v1', judge: 'offline-v1', embedding: 'offline-v1' },
      version: expect.any(String),
    });
  });

  it('says redis and gemini when configured', async () => {
    fake = await FakeGemini.start();
    redis = await startRedisServer();
    app = await startTestApp({ REDIS_URL: redis.url, GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl });
    const health = (await (await fetch(`${app.url}/healthz`)).json()) as { store: string; model: string };
    expect(health).toMatchObject({ store: 'redis', model: 'gemini' });
  });

  it('GET /readyz turns 503 while Redis is away and 200 again when it is back', async () => {
    redis = await startRedisServer();
    app = await startTestApp({ REDIS_URL: redis.url });
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);

    await redis.kill();
    const down = await fetch(`${app.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', store: 'redis', reason: expect.any(String) });
    // The process keeps serving everything that does not need the store.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    // A call that needs the store fails with the typed error, not a crash or a hang.
    const created = await fetch(`${app.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId: 'a'.repeat(32), nickname: '철수' }),
    });
    expect(created.status).toBe(503);
    expect(((await created.json()) as { error: { code: string } }).error.code).toBe('STORE_UNAVAILABLE');

    await redis.restart();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await fetch(`${app.url}/readyz`)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });

  it('GET /metrics is Prometheus text with event-loop lag, sockets per namespace and model metrics', async () => {
    app = await startTestApp({ METRICS_TOKEN: 'server-test-metrics-token' });
    const response = await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer server-test-metrics-token' } });
    expect(response.headers.get('content-type')).toContain('text/plain');
    const body = await response.text();
    expect(body).toContain('nodejs_eventloop_lag_seconds');
    expect(body).toContain('process_resident_memory_bytes');
    expect(body).toMatch(/lectern_sockets_connected\{namespace="\/tutor"\} 0/);
    expect(body).toContain('lectern_model_calls_total');
    expect(body).toContain('lectern_model_latency_seconds');
  });

  it('unknown API routes and malformed JSON answer the JSON error shape', async () => {
    app = await startTestApp();
    const missing = await fetch(`${app.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');

    const malformed = await fetch(`${app.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"materialId": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('INVALID_PAYLOAD');
  });

  it('serves the landing page and the vendored client libraries locally', async () => {
    app = await startTestApp();
    const page = await fetch(`${app.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('lectern');
    expect((await fetch(`${app.url}/vendor/katex/katex.min.js`)).status).toBe(200);
    expect((await fetch(`${app.url}/vendor/dompurify/purify.min.js`)).status).toBe(200);
    expect((await fetch(`${app.url}/socket.io/socket.io.min.js`)).status).toBe(200);
  });
});
