import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/kernel/config.js';
import { createLogger } from '../../src/kernel/logger.js';
import { buildSamplePdf, SAMPLE_CHAPTERS, SAMPLE_FILENAME } from '../../src/materials/sample-pdf.js';
import { encryptedPdf } from '../../scripts/pdf-fixtures.js';
import { launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';

/** The upload page in a real (headless Debian) chromium against the real app on port 0, signed in as an instructor. */

let app: App;
let baseUrl: string;
let dataDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-e2e-upload-'));
  app = createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PRELOAD_SAMPLE: 'false' }), createLogger('silent'));
  await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(app.server.httpServer.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  // The upload page is an instructor's: the browser holds an account's session.
  const context = await browser.newContext();
  await signInContext(context, { url: baseUrl });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('upload page', () => {
  it('uploads the sample with a progress bar and lists its chapters with links to each slice', async () => {
    await page.goto(`${baseUrl}/upload.html`);
    await page.locator('#materials', { hasText: '아직 올린 자료가 없습니다' }).waitFor();
    await expect(page.locator('#limits-hint').textContent()).resolves.toContain('50MB');

    const sample = Buffer.from(await buildSamplePdf());
    await page.setInputFiles('#file-input', { name: SAMPLE_FILENAME, mimeType: 'application/pdf', buffer: sample });
    await page.locator('#status.good').waitFor();
    expect(await page.locator('#status').textContent()).toContain('챕터로 나누었습니다');
    expect(await page.locator('#progress').evaluate((element) => (element as unknown as { value: number }).value)).toBe(100);
    expect(await page.locator('#material-title').textContent()).toBe('기초 통계');
    expect(await page.locator('#material-summary').textContent()).toContain('PDF 목차(책갈피)');

    const chapters = page.locator('#chapters li.chapter');
    expect(await chapters.locator('.chapter-title').allTextContents()).toEqual([...SAMPLE_CHAPTERS]);
    expect(await chapters.locator('.pages').allTextContents()).toEqual(['1–4쪽', '5–7쪽', '8–10쪽']);

    const href = await chapters.nth(1).locator('a.slice-link').getAttribute('href');
    expect(href).toMatch(/^\/api\/materials\/[0-9a-f]{32}\/chapters\/1\.pdf$/);
    const slice = await page.request.get(`${baseUrl}${href}`);
    expect(slice.headers()['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(await slice.body())).getPageCount()).toBe(3);

    // The list of uploaded materials refreshes after an upload.
    await page.locator('#materials', { hasText: '기초 통계 (10쪽, 챕터 3개)' }).waitFor();

    // The same file again: the stored chapters, said in plain words.
    await page.setInputFiles('#file-input', { name: SAMPLE_FILENAME, mimeType: 'application/pdf', buffer: sample });
    await page.locator('#status', { hasText: '이미 올린 적이 있는 자료' }).waitFor();
  });

  it('explains errors in plain Korean, for a picked file and a dropped one', async () => {
    await page.goto(`${baseUrl}/upload.html`);
    await page.setInputFiles('#file-input', { name: '메모.pdf', mimeType: 'application/pdf', buffer: Buffer.from('그냥 글자입니다') });
    await page.locator('#status.error', { hasText: 'PDF가 아닙니다' }).waitFor();

    const encrypted = Buffer.from(await encryptedPdf()).toString('base64');
    // Runs in the browser; the project compiles without DOM types, so DataTransfer is looked up by name.
    const dataTransfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const { DataTransfer } = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], '잠긴 자료.pdf', { type: 'application/pdf' }));
      return transfer;
    }, encrypted);
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer });
    await page.locator('#status.error', { hasText: '암호가 걸린 PDF' }).waitFor();

    await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.locator('#status.error', { hasText: 'PDF 파일만 올릴 수 있습니다' }).waitFor();
  });
});
