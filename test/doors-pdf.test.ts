/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR8 — The budget of a PDF. (`test/doors-pdf.test.ts`).
 * - DR9 — The PDF queue's fair order. One account has one job running at a time (with two workers, A's second job
 *   waits while B's runs); owners are served in turn (one worker: a1, b1, c1, a2, b2, a3) …
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPdfBudget, createPdfWorkerPool, DEFAULT_PDF_BUDGET, PdfJobError, type ObservablePdfWorkerPool } from '../src/materials/index.js';
import { buildSamplePdf } from '../src/materials/sample-pdf.js';
import { PdfReadFailure } from '../src/materials/pdf-reader.js';
import { flateBombPdf, manyObjectsPdf } from '../scripts/pdf-bombs.js';
import { plainPdf } from '../scripts/pdf-fixtures.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/** DR8–DR9 (test/SPEC.md): the decompression and object budget of a PDF, and the PDF queue's fair order. */

let bomb: Uint8Array;
let imageBomb: Uint8Array;
let hexBomb: Uint8Array;
beforeAll(async () => {
  [bomb, imageBomb, hexBomb] = await Promise.all([
    flateBombPdf({ inflatedMb: 300 }),
    flateBombPdf({ inflatedMb: 300, disguise: 'image' }),
    flateBombPdf({ inflatedMb: 200, disguise: 'hex' }),
  ]);
});

const pools: ObservablePdfWorkerPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
function pool(size: number): ObservablePdfWorkerPool {
  const made = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size });
  pools.push(made);
  return made;
}

function refusal(run: () => unknown): PdfReadFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof PdfReadFailure) return error;
    throw error;
  }
  throw new Error('the budget let the file through');
}

describe('the budget of a PDF', () => {
  it('DR8 a flate bomb of about 450 KB (300 MB inflated) is refused as too-complex, as content, disguised as an image, or under ASCIIHex', () => {
    expect(bomb.byteLength).toBeLessThan(600_000);
    for (const file of [bomb, imageBomb, hexBomb]) expect(refusal(() => checkPdfBudget(file, DEFAULT_PDF_BUDGET)).kind).toBe('too-complex');
  });

  it('DR8 more objects than the budget (packed in object streams too) are refused; ordinary lecture PDFs pass with room to spare', async () => {
    const crowded = await manyObjectsPdf(3_000);
    expect(refusal(() => checkPdfBudget(crowded, { ...DEFAULT_PDF_BUDGET, maxObjects: 2_000 })).kind).toBe('too-complex');
    for (const file of [await buildSamplePdf(), await plainPdf(40, true), crowded]) {
      const cost = checkPdfBudget(file, DEFAULT_PDF_BUDGET);
      expect(cost.inflatedBytes).toBeLessThan(DEFAULT_PDF_BUDGET.maxInflatedBytes / 10);
      expect(cost.objects).toBeLessThan(DEFAULT_PDF_BUDGET.maxObjects);
    }
    // Two streams each under the per-stream limit still meet the total.
    const twoBombs = await flateBombPdf({ inflatedMb: 6 });
    expect(refusal(() => checkPdfBudget(twoBombs, { maxInflatedBytes: 4 * 1024 * 1024, maxStreamBytes: 8 * 1024 * 1024, maxObjects: 1_000 })).kind).toBe('too-complex');
  });

  it('DR8 in the worker the bomb is refused with too-complex (not the time limit), and the worker that read it is stopped', async () => {
    const workers = pool(1);
    const failure = await workers.extract(bomb, { maxPages: 50 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PdfJobError);
    expect((failure as PdfJobError).kind).toBe('too-complex');
    expect(workers.activity()).toEqual({ running: [], waiting: {}, workers: 0 });
    // The next file gets a fresh worker and is read.
    expect((await workers.extract(await plainPdf(3), { maxPages: 50 })).pageCount).toBe(3);
    expect(workers.activity().workers).toBe(1);
  });
});

describe('the PDF queue', () => {
  it('DR9 one account has one job running at a time; another account takes the next worker', async () => {
    const workers = pool(2);
    const file = await plainPdf(5);
    const jobs = [
      workers.extract(file, { maxPages: 50, owner: 'account-a' }),
      workers.extract(file, { maxPages: 50, owner: 'account-a' }),
      workers.extract(file, { maxPages: 50, owner: 'account-a' }),
      workers.extract(file, { maxPages: 50, owner: 'account-b' }),
    ];
    // Dispatch is synchronous: what runs now is decided.
    expect(workers.activity().running.sort()).toEqual(['account-a', 'account-b']);
    expect(workers.activity().waiting).toEqual({ 'account-a': 2 });
    await Promise.all(jobs);
  });

  it('DR9 owners are served in turn: with one worker, B\'s upload goes right after A\'s running one, before A\'s queued ones', async () => {
    const workers = pool(1);
    const file = await plainPdf(5);
    const finished: string[] = [];
    const submit = (owner: string, label: string) => workers.extract(file, { maxPages: 50, owner }).then(() => finished.push(label));
    await Promise.all([submit('a', 'a1'), submit('a', 'a2'), submit('a', 'a3'), submit('b', 'b1'), submit('c', 'c1'), submit('b', 'b2')]);
    expect(finished).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('DR9 one account cannot fill the queue: its ninth waiting job is refused busy, another account still queues', async () => {
    const workers = pool(1);
    const file = await plainPdf(2);
    const jobs = Array.from({ length: 10 }, () => workers.extract(file, { maxPages: 50, owner: 'flooder' }).then(() => 'ok', (error: unknown) => (error as PdfJobError).kind));
    const other = workers.extract(file, { maxPages: 50, owner: 'teacher' });
    expect(await Promise.all(jobs)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'busy']);
    expect((await other).pageCount).toBe(2);
  });
});
