/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM14 — The quiz editor. "문제 직접 쓰기" on the host page shows per type only the fields it needs, builds the
 *   items (4-choice, multiple correct, numeric with unit, short text with accepted answers, word cloud) with an
 *   uploaded picture and its alt text, and saves them as a quiz the room plays; a refused item keeps the form and
 *   shows the server's Korean message; axe finds no violation in the form. In the room the phone shows the picture (loaded, with its alt) and the question's
 *   LaTeX rendered by the bundled KaTeX.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { axeViolations } from '../support/quiz-pages.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

async function open(kind: 'host' | 'phone'): Promise<Page> {
  const context = await browser.newContext(
    // bypassCSP only lets the test inject axe-core (an inline script the pages' CSP rightly refuses).
    kind === 'phone' ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 }, bypassCSP: true },
  );
  contexts.push(context);
  if (kind === 'host') await signInContext(context, app);
  return context.newPage();
}


/** Adds a question card of `type` and returns it. */
async function addItem(host: Page, type: string) {
  await host.click('[data-testid=editor-add]');
  const card = host.locator('[data-testid=editor-item]').last();
  await card.locator('[data-testid=editor-type]').selectOption(type);
  return card;
}

describe('the quiz editor', () => {
  it('TM14 writes each type in a form, with a picture and LaTeX, and the room plays it', async () => {
    const host = await open('host');
    await host.goto(`${app.url}/monitor.html`);
    await fillBox(host.locator('[data-testid=class-name]'), '편집기반');
    await host.click('[data-testid=create-class]');
    await host.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await host.click('[data-testid=quiz-room-new]');
    await host.waitForURL(/\/host\.html\?class=/);
    await host.click('[data-testid=editor-box] summary');
    await fillBox(host.locator('[data-testid=editor-title]'), '직접 쓴 퀴즈');

    const short = await addItem(host, 'short');
    expect(await short.locator('[data-testid=editor-choices]').isVisible()).toBe(false);
    expect(await short.locator('[data-testid=editor-reference]').isVisible()).toBe(true);
    await fillBox(short.locator('[data-testid=editor-question]'), '그래프의 꼭짓점에서 $y = x^2$의 값은?');
    await fillBox(short.locator('[data-testid=editor-reference]'), '0');
    await fillBox(short.locator('[data-testid=editor-accept]'), '영\nzero');
    await fillBox(short.locator('[data-testid=editor-explanation]'), '꼭짓점은 원점입니다.');
    await short.locator('input[type=file]').setInputFiles({ name: 'graph.png', mimeType: 'image/png', buffer: PNG });
    await short.locator('[data-testid=editor-picture-status]', { hasText: '그림을 올렸습니다' }).waitFor();
    await fillBox(short.locator('[data-testid=editor-image-alt]'), '포물선 그래프');

    const multi = await addItem(host, 'multi');
    expect(await multi.locator('[data-testid=editor-reference]').isVisible()).toBe(false);
    await fillBox(multi.locator('[data-testid=editor-question]'), '대푯값을 모두 고르세요.');
    await fillBox(multi.locator('[data-testid=editor-choices]'), '평균\n중앙값\n분산');
    await fillBox(multi.locator('[data-testid=editor-answers]'), '1, 2');
    await fillBox(multi.locator('[data-testid=editor-explanation]'), '분산은 퍼짐입니다.');

    const numeric = await addItem(host, 'numeric');
    await fillBox(numeric.locator('[data-testid=editor-question]'), '서울–부산 거리는?');
    await fillBox(numeric.locator('[data-testid=editor-number]'), '325');
    await fillBox(numeric.locator('[data-field=unit]'), 'km');
    await fillBox(numeric.locator('[data-testid=editor-explanation]'), '약 325 km.');

    const cloud = await addItem(host, 'cloud');
    await fillBox(cloud.locator('[data-testid=editor-question]'), '오늘 배운 것을 한 단어로?');

    expect(await axeViolations(host, '[data-testid=editor-box]')).toEqual([]);

    // A 4-choice item with three choices is refused by the server: the form stays, its message is shown.
    const choice = await addItem(host, 'choice');
    await fillBox(choice.locator('[data-testid=editor-question]'), '평균은?');
    await fillBox(choice.locator('[data-testid=editor-choices]'), '합/개수\n가운데\n최빈');
    await fillBox(choice.locator('[data-testid=editor-answers]'), '1');
    await fillBox(choice.locator('[data-testid=editor-explanation]'), '합을 개수로 나눕니다.');
    await host.click('[data-testid=editor-save]');
    await host.locator('[data-testid=quiz-status].error').waitFor();
    expect(await host.locator('[data-testid=editor-item]').count()).toBe(5);
    await choice.locator('button', { hasText: '이 문제 빼기' }).click();
    await host.click('[data-testid=editor-save]');
    await host.locator('[data-testid=quiz-status]', { hasText: '저장했습니다 (4문제)' }).waitFor();

    await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
    await host.click('[data-testid=create-room]');
    const codeNode = host.locator('[data-testid=lobby] [data-testid=room-code]');
    await expect.poll(() => codeNode.textContent()).toMatch(/^\d{6}$/);
    const phone = await open('phone');
    await phone.goto(`${app.url}/play.html?code=${(await codeNode.textContent()) ?? ''}`);
    await fillBox(phone.locator('[data-testid=join-nickname]'), '가람');
    await phone.click('[data-testid=join-submit]');
    await phone.locator('[data-testid=play-lobby]').waitFor();
    await host.locator('[data-testid=player-item]').first().waitFor();
    await host.click('[data-testid=start]');

    const picture = phone.locator('[data-testid=play-picture]');
    await picture.waitFor();
    expect(await picture.getAttribute('alt')).toBe('포물선 그래프');
    // The 1×1 PNG decoded (fetched from the room with the player's token, shown from its bytes under the pages' CSP).
    await expect.poll(() => phone.evaluate(`(() => { const node = document.querySelector('[data-testid=play-picture]'); return node.complete ? node.naturalWidth : -1; })()`)).toBe(1);
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    await phone.locator('[data-testid=play-question-text] .katex').first().waitFor();
    await host.locator('[data-testid=question-picture]').waitFor();
    await fillBox(phone.locator('[data-testid=text-answer]'), 'Zero');
    await phone.click('[data-testid=answer-send]');
    await phone.locator('[data-testid=verdict][data-result=correct]').waitFor();
  });
});
