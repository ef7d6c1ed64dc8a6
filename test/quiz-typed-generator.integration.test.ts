/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM19 — Typed generation over HTTP, and an honest refusal. `POST /api/materials/:id/quiz` with `format`
 *   `truefalse` | `multi` | `ordering` | `numeric` (offline model, real PDFs uploaded over HTTP) stores items of that
 *   type only, each citing its passages, readable back with the quiz; the sample material (no numbered steps) answers
 *   `ordering` with 422 TOO_LITTLE_MATERIAL saying it has no numbered steps, and an English handout with one
 *   procedure gives one ordering item with a `shortfall` (made 1 of 5, its reason in Korean).
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { buildPdf } from '../scripts/pdf-fixtures.js';
import type { RoomItem } from '../src/protocol/quiz.js';
import { signUp } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { uploadPdf } from './support/data-flow.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp } from './support/test-app.js';
import { ENGLISH_PAGES } from './support/quiz-material.js';

beforeAll(samplePdfBytes);

describe('TM19 typed generation over HTTP', () => {
  it('TM19 each format stores items of its type; a material that cannot bear one says why', async (context: TestContext) => {
    const app = await startTestApp({ SIGNUP: 'open' });
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const sample = await loadSample(app);
    const account = await signUp(app);
    const made = await call(`${app.url}/api/classes`, 'POST', { headers: account.bearer, body: { name: '형식 생성반' } });
    const classId = made.body.classId as string;
    const generate = (materialId: string, format: string) => call(`${app.url}/api/materials/${materialId}/quiz`, 'POST', { headers: account.bearer, body: { classId, format } });

    for (const format of ['truefalse', 'multi', 'numeric']) {
      const reply = await generate(sample.id, format);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const items = reply.body.items as RoomItem[];
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.type === format && (item.sources ?? []).length > 0 && /^[0-9a-f]{8}$/u.test(item.quizId ?? ''))).toBe(true);
      expect(reply.body).not.toHaveProperty('reviews');
      if (items.length < 5) expect(reply.body.shortfall).toMatchObject({ requested: 5, made: items.length, reason: 'too-little-material' });
      const stored = await call(`${app.url}/api/quizzes/${reply.body.quizId}`, 'GET', { headers: account.bearer });
      expect(stored.body.items).toEqual(items);
    }
    const refused = await generate(sample.id, 'ordering');
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('TOO_LITTLE_MATERIAL');
    expect(refused.body.error.message).toContain('번호가 매겨진 단계');

    const english = await uploadPdf(app, await buildPdf({ title: 'Microscopy basics', pages: ENGLISH_PAGES.map(([heading, ...lines]) => ({ ...(heading === undefined ? {} : { heading }), lines })) }), 'microscopy.pdf', account);
    const ordering = await generate(english.id, 'ordering');
    expect(ordering.status, JSON.stringify(ordering.body)).toBe(201);
    expect(ordering.body.items).toHaveLength(1);
    expect(ordering.body.items[0]).toMatchObject({ type: 'ordering', steps: ['Place a clean glass slide on a flat surface', 'Add one drop of water to the centre of the slide', 'Lay the specimen in the drop of water', 'Lower a cover slip at an angle to avoid air bubbles', 'Remove extra water with the edge of a paper towel'] });
    expect(ordering.body.shortfall).toMatchObject({ requested: 5, made: 1, reason: 'too-little-material' });
    expect(ordering.body.shortfall.message).toContain('번호가 매겨진 단계');
    const truefalse = await generate(english.id, 'truefalse');
    expect(truefalse.status, JSON.stringify(truefalse.body)).toBe(201);
    expect((truefalse.body.items as RoomItem[]).every((item) => item.type === 'truefalse')).toBe(true);
  });
});
