/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR10 — Over HTTP. (`test/doors-pdf-upload.integration.test.ts`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flateBombPdf } from '../scripts/pdf-bombs.js';
import { plainPdf } from '../scripts/pdf-fixtures.js';
import { signUp } from './support/accounts.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** DR10 (test/SPEC.md): hostile PDFs from one account and another instructor's upload, over HTTP. */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function upload(app: TestApp, bearer: Record<string, string>, bytes: Uint8Array, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), filename);
  const response = await fetch(`${app.url}/api/materials`, { method: 'POST', body: form, headers: bearer });
  return { status: response.status, body: (await response.json()) as { id?: string; error?: { code: string; message: string } } };
}

describe('hostile PDFs do not stall other instructors', () => {
  it('DR10 four flate bombs from one account are refused with 422 PDF_TOO_COMPLEX (Korean message) while another instructor\'s upload at the same time is ingested', async () => {
    const app = await startTestApp({ SIGNUP: 'open' });
    cleanups.push(() => app.stop());
    const attacker = await signUp(app);
    const teacher = await signUp(app);
    const bombs = await Promise.all([1, 2, 3, 4].map((index) => flateBombPdf({ inflatedMb: 300, label: `bomb ${index}` })));
    const lecture = await plainPdf(8, true);

    const [teacherAnswer, ...bombAnswers] = await Promise.all([
      upload(app, teacher.bearer, lecture, '강의.pdf'),
      ...bombs.map((bytes, index) => upload(app, attacker.bearer, bytes, `bomb-${index}.pdf`)),
    ]);
    expect(teacherAnswer.status).toBe(201);
    expect(teacherAnswer.body.id).toMatch(/^[0-9a-f]{32}$/);
    for (const answer of bombAnswers) {
      expect(answer.status).toBe(422);
      expect(answer.body.error?.code).toBe('PDF_TOO_COMPLEX');
      expect(answer.body.error?.message).toMatch(/[가-힣]/);
    }
    // Nothing of the bombs was kept, and the attacker's next real upload is served.
    expect((await upload(app, attacker.bearer, await plainPdf(3), 'real.pdf')).status).toBe(201);
  });
});
