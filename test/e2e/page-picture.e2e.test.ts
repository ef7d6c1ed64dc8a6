/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM24 — A page of the material on screen. In "문제 직접 쓰기" the host picks 「자료의 페이지」 (the sample, page 2):
 *   a small preview of that page is drawn in the form; the saved item plays in a room where, when its question opens,
 *   the phone and the projected host screen draw the page with the bundled PDF.js (its worker from /build, under the
 *   pages' CSP, no CDN) into a canvas that is not blank, announced as 「자료 2쪽」. The pages' CSP compiles no
 *   WebAssembly, and PDF.js's JavaScript JPEG 2000 decoder (for scanned pages' JPX images) loads under it from /build.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { loadSample } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];
const outside: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

async function open(kind: 'host' | 'phone'): Promise<Page> {
  const context = await browser.newContext(kind === 'phone' ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  if (kind === 'host') await signInContext(context, app);
  const page = await context.newPage();
  // Everything the page loads comes from the app (no CDN).
  page.on('request', (request) => {
    if (!request.url().startsWith(app.url) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) outside.push(request.url());
  });
  return page;
}

/** How many pixels of the canvas are drawn and not white (a blank or undrawn canvas has none). */
const inkOf = (page: Page, testId: string) =>
  page.evaluate(`(() => {
    const canvas = document.querySelector('[data-testid=${testId}]');
    if (!canvas || canvas.width === 0 || canvas.height === 0) return 0;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let index = 0; index < data.length; index += 4) if (data[index + 3] > 0 && (data[index] < 200 || data[index + 1] < 200 || data[index + 2] < 200)) ink += 1;
    return ink;
  })()`) as Promise<number>;

describe('a page of the material as a picture', () => {
  it('TM24 the host puts page 2 of the sample on an item; the phone draws it when the question opens', async () => {
    // The sample is ingested at start in production (npm start); the test app ingests it here.
    const sampleId = (await loadSample(app)).id;
    const host = await open('host');
    await host.goto(`${app.url}/monitor.html`);
    await fillBox(host.locator('[data-testid=class-name]'), '쪽 그림반');
    await host.click('[data-testid=create-class]');
    await host.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await host.click('[data-testid=quiz-room-new]');
    await host.waitForURL(/\/host\.html\?class=/);
    await host.click('[data-testid=editor-box] summary');
    await fillBox(host.locator('[data-testid=editor-title]'), '자료 쪽 퀴즈');

    await host.click('[data-testid=editor-add]');
    const card = host.locator('[data-testid=editor-item]').last();
    await card.locator('[data-testid=editor-type]').selectOption('truefalse');
    await fillBox(card.locator('[data-testid=editor-question]'), '그림의 표에서 평균은 중앙값보다 크다.');
    await fillBox(card.locator('[data-testid=editor-explanation]'), '표를 보면 알 수 있습니다.');
    await card.locator(`[data-testid=editor-page-material] option[value="${sampleId}"]`).waitFor({ state: 'attached' });
    await card.locator('[data-testid=editor-page-material]').selectOption(sampleId);
    await fillBox(card.locator('[data-testid=editor-page-number]'), '2');
    await card.locator('[data-testid=editor-page-number]').dispatchEvent('change');
    await card.locator('[data-testid=editor-page-preview][data-drawn=true]').waitFor();
    expect(await inkOf(host, 'editor-page-preview')).toBeGreaterThan(0);
    await host.click('[data-testid=editor-save]');
    await host.locator('[data-testid=quiz-status]', { hasText: '저장했습니다 (1문제)' }).waitFor();

    await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
    await host.click('[data-testid=create-room]');
    const codeNode = host.locator('[data-testid=lobby] [data-testid=room-code]');
    await expect.poll(() => codeNode.textContent()).toMatch(/^\d{6}$/);
    const phone = await open('phone');
    await phone.goto(`${app.url}/play.html?code=${(await codeNode.textContent()) ?? ''}`);
    await fillBox(phone.locator('[data-testid=join-nickname]'), '누리');
    await phone.click('[data-testid=join-submit]');
    await phone.locator('[data-testid=play-lobby]').waitFor();
    // Nothing of the page before the question opens.
    expect(await phone.locator('[data-testid=play-page]').isVisible()).toBe(false);
    await host.locator('[data-testid=player-item]').first().waitFor();
    await host.click('[data-testid=start]');

    const drawn = phone.locator('[data-testid=play-page][data-drawn=true]');
    await drawn.waitFor();
    expect(await drawn.getAttribute('aria-label')).toBe('자료 2쪽');
    expect(await drawn.getAttribute('role')).toBe('img');
    expect(await inkOf(phone, 'play-page')).toBeGreaterThan(0);
    expect(await phone.locator('[data-testid=play-picture]').isVisible()).toBe(false);
    // The projected screen draws it too, with the host's token.
    await host.locator('[data-testid=question-page][data-drawn=true]').waitFor();
    expect(await inkOf(host, 'question-page')).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    // JPEG 2000 images: WebAssembly is refused by the pages' CSP, and the decoder PDF.js falls back to loads under it.
    const jpx = (await phone.evaluate(`(async () => {
      const wasm = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => 'compiled', () => 'refused');
      const decoder = await (await import('/build/pdfjs/wasm/openjpeg_nowasm_fallback.js')).default();
      return { wasm, decode: typeof decoder._jp2_decode };
    })()`)) as { wasm: string; decode: string };
    expect(jpx).toEqual({ wasm: 'refused', decode: 'function' });
  });
});
