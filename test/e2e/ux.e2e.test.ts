/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - UX7 — Korean line breaking and code fonts. Every page's body text computes `word-break: keep-all` and
 *   `overflow-wrap: anywhere` …
 * - UX8 — Phones. At 390×844 touch: 나가기, 접기, the concept choices and both quick replies are ≥ 44×44 px; the 연결됨
 *   badge, muted progress text, the monitor's 참여 코드 label …
 * - UX9 — Favicon. `/favicon.svg` is served as SVG, `/favicon.ico` redirects to it (301, then 200), every page links
 *   it; no page load has an HTTP error.
 * - UX10 — Join address. Opened on 127.0.0.1 without PUBLIC_URL the host page shows the localhost warning; with
 *   PUBLIC_URL, `/api/site` returns it (no trailing slash), the lobby's link …
 * - UX11 — Player's result screen. The reveal says 오답 and "내 답: ● <the third choice>" (≥ 4.5:1); with both players at
 *   0 the standing, leaderboard and podium say "순위 없음" …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { createQuiz, createRoom, joinRoom, openHost, sampleItems, type QuizClient } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Pages as people on phones and projectors meet them, measured in a real (headless Debian) chromium against the real
 * app: Korean line breaking, code fonts with Hangul, tap target sizes, text contrast computed from the computed
 * colours, the favicon, the host's join address (PUBLIC_URL, the localhost warning), and the player's result screen.
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];
const sockets: QuizClient[] = [];

beforeAll(async () => {
  app = await startTestApp();
  await app.materials.preloadSample();
  browser = await launchBrowser();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/**
 * A page in its own context that records every HTTP error answer and page error. The context holds an instructor's
 * session on `signedInTo` (the instructor pages send a visitor to sign-in; student pages ignore it).
 */
async function openPage(options: Parameters<Browser['newContext']>[0], problems: string[], signedInTo: TestApp = app): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  await signInContext(context, signedInTo);
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  return page;
}

/**
 * The WCAG contrast ratio of `selector`'s text against the first opaque background behind it, both from computed
 * styles (runs in the page; plain JS, as the project compiles without DOM types).
 */
function contrastOf(page: Page, selector: string): Promise<{ ratio: number; color: string; background: string }> {
  return page.$eval(selector, (node) => {
    const rgba = (text: string): number[] => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) =>
      [r!, g!, b!]
        .map((c) => c / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, index) => sum + c * [0.2126, 0.7152, 0.0722][index]!, 0);
    const view = (node as unknown as { ownerDocument: { defaultView: { getComputedStyle(e: unknown): Record<string, string> } } }).ownerDocument.defaultView;
    const color = view.getComputedStyle(node).color!;
    let current: unknown = node;
    let background = 'rgb(255, 255, 255)';
    while (current) {
      const value = view.getComputedStyle(current).backgroundColor!;
      const parts = rgba(value);
      if (parts.length === 3 || (parts[3] ?? 0) >= 1) {
        background = value;
        break;
      }
      current = (current as { parentElement: unknown }).parentElement;
    }
    const [a, b] = [luminance(rgba(color)), luminance(rgba(background))].sort((x, y) => y - x);
    return { ratio: (a! + 0.05) / (b! + 0.05), color, background };
  });
}

const style = (page: Page, selector: string, property: string, pseudo?: string) =>
  page.$eval(
    selector,
    (node, [name, element]) =>
      (node as unknown as { ownerDocument: { defaultView: { getComputedStyle(e: unknown, p?: string): { getPropertyValue(n: string): string } } } }).ownerDocument.defaultView
        .getComputedStyle(node, element ?? undefined)
        .getPropertyValue(name!),
    [property, pseudo] as const,
  );

async function expectTapTarget(page: Page, selector: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.height, `${selector} height`).toBeGreaterThanOrEqual(44);
  expect(box!.width, `${selector} width`).toBeGreaterThanOrEqual(44);
}

/** Where a Hangul-capable face comes in a font-family list: before the generic monospace. */
function expectHangulMono(fontFamily: string, where: string): void {
  const families = fontFamily.split(',').map((family) => family.trim().replace(/^"|"$/g, ''));
  expect(families[0], where).toBe('D2Coding');
  expect(families, where).toContain('Noto Sans Mono CJK KR');
  expect(families.indexOf('Pretendard'), where).toBeGreaterThan(-1);
  expect(families.indexOf('Pretendard'), where).toBeLessThan(families.indexOf('monospace'));
}

describe('pages for people', () => {
  it('UX7 Korean text breaks between words (keep-all, long tokens anywhere) and codes use a monospace stack with Hangul', async () => {
    const problems: string[] = [];
    const page = await openPage({ viewport: { width: 390, height: 844 } }, problems);
    for (const path of ['/', '/classroom.html', '/monitor.html', '/host.html', '/play.html', '/upload.html']) {
      await page.goto(`${app.url}${path}`);
      expect(await style(page, 'main p.muted', 'word-break'), path).toBe('keep-all');
      expect(await style(page, 'main p.muted', 'overflow-wrap'), path).toBe('anywhere');
    }
    // The line that broke as "흘/러나오고": no line of it ends inside a word.
    await page.goto(`${app.url}/`);
    const lines = await page.$eval('main p.muted', (node) => {
      const text = (node as unknown as { firstChild: unknown }).firstChild as { length: number };
      const doc = (node as unknown as { ownerDocument: { createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getBoundingClientRect(): { top: number } } } }).ownerDocument;
      const tops: number[] = [];
      for (let index = 0; index < text.length; index += 1) {
        const range = doc.createRange();
        range.setStart(text, index);
        range.setEnd(text, index + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
      return tops;
    });
    const text = (await page.locator('main p.muted').first().textContent()) ?? '';
    let breaks = 0;
    for (let index = 1; index < text.length; index += 1) {
      if (lines[index]! > lines[index - 1]! && text[index - 1] !== ' ' && text[index] !== ' ') {
        throw new Error(`a line breaks inside a word: "${text.slice(Math.max(0, index - 4), index)}/${text.slice(index, index + 4)}"`);
      }
      if (lines[index]! > lines[index - 1]!) breaks += 1;
    }
    expect(breaks).toBeGreaterThan(2); // the paragraph does wrap at 390 px

    // Codes: the class code input (its Korean placeholder "예: K7MPQA" in the text face), the play page's code input.
    await page.goto(`${app.url}/classroom.html`);
    expectHangulMono(await style(page, '[data-testid=class-code]', 'font-family'), 'class-code');
    expect((await style(page, '[data-testid=class-code]', 'font-family', '::placeholder')).split(',')[0]!.replace(/"/g, '')).toBe('Pretendard');
    await page.goto(`${app.url}/play.html`);
    expectHangulMono(await style(page, '[data-testid=join-code]', 'font-family'), 'play join-code');
    expect(problems).toEqual([]);
  });

  it('UX8 on a phone 나가기, 접기, the quick replies and the concept choices are ≥ 44 px; muted text, the 연결됨 badge and the concept choices are ≥ 4.5:1', async () => {
    const problems: string[] = [];
    const page = await openPage(PHONE, problems);
    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '서연');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=lecture-text]').first().waitFor();
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    await expectTapTarget(page, '#leave-button');

    const badge = await contrastOf(page, '[data-testid=connection]');
    expect(badge.ratio, `연결됨 ${badge.color} on ${badge.background}`).toBeGreaterThanOrEqual(4.5);
    const muted = await contrastOf(page, '.progress-text');
    expect(muted.ratio, `muted ${muted.color} on ${muted.background}`).toBeGreaterThanOrEqual(4.5);

    await page.click('[data-testid=raise-hand]');
    await page.locator('[data-testid=hand-input]').waitFor({ state: 'visible' });
    await expectTapTarget(page, '#hand-toggle');
    await fillBox(page.locator('[data-testid=hand-input]'), '잘 모르겠어요');
    await page.click('[data-testid=hand-send]');
    const choice = page.locator('[data-testid=hand-choice]', { hasText: '표본평균' });
    await choice.waitFor();
    await expectTapTarget(page, '[data-testid=hand-choice]');
    // The choices are readable: they were white on white (the global button colour on their white pill).
    const chip = await contrastOf(page, '[data-testid=hand-choice]');
    expect(chip.ratio, `hand-choice ${chip.color} on ${chip.background}`).toBeGreaterThanOrEqual(4.5);
    await choice.click();
    await page.locator('[data-testid=hand-check][data-state=pending]').waitFor();
    await expectTapTarget(page, '[data-testid=hand-quick-yes]');
    await expectTapTarget(page, '[data-testid=hand-quick-no]');

    // Muted text on the tinted cards of the monitor (the 참여 코드 label) and on the page background.
    await page.goto(`${app.url}/monitor.html`);
    await fillBox(page.locator('[data-testid=class-name]'), '대비 확인 반');
    await page.click('[data-testid=create-class]');
    await page.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    for (const selector of ['.join-label', '[data-testid=monitor-connection]', 'main .muted']) {
      const measured = await contrastOf(page, selector);
      expect(measured.ratio, `${selector} ${measured.color} on ${measured.background}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(problems).toEqual([]);
  });

  it('UX9 every page links the SVG favicon, and /favicon.ico leads to it (no 404)', async () => {
    const icon = await fetch(`${app.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg /);
    const legacy = await fetch(`${app.url}/favicon.ico`, { redirect: 'manual' });
    expect(legacy.status).toBe(301);
    expect(legacy.headers.get('location')).toBe('/favicon.svg');
    expect((await fetch(`${app.url}/favicon.ico`)).status).toBe(200);

    const problems: string[] = [];
    const page = await openPage({}, problems);
    for (const path of ['/', '/classroom.html', '/monitor.html', '/host.html', '/play.html', '/upload.html']) {
      await page.goto(`${app.url}${path}`);
      expect(await page.getAttribute('link[rel=icon]', 'href'), path).toBe('/favicon.svg');
    }
    expect(problems).toEqual([]);
  });

  it('UX10 the host page warns on localhost without PUBLIC_URL; with it, the join link and QR code use PUBLIC_URL', async () => {
    const problems: string[] = [];
    const local = await openPage({}, problems);
    await local.goto(`${app.url}/host.html`);
    await local.locator('[data-testid=localhost-warning]', { hasText: 'PUBLIC_URL' }).waitFor();

    const publicUrl = 'http://192.168.0.10:3000';
    const exposed = await startTestApp({ PUBLIC_URL: `${publicUrl}/` });
    try {
      expect(await (await fetch(`${exposed.url}/api/site`)).json()).toEqual({ publicUrl });
      const setup = await createQuiz(exposed, sampleItems(1));
      const room = await createRoom(exposed, setup, { previewSeconds: 0 });
      const page = await openPage({}, problems, exposed);
      await page.goto(`${exposed.url}/host.html`);
      await page.evaluate(
        (entry) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('lectern.host.rooms', JSON.stringify([entry])),
        { roomId: room.roomId, code: room.code, hostToken: room.hostToken, title: '통계 퀴즈', classId: setup.classId, createdAt: Date.now() },
      );
      await page.goto(`${exposed.url}/host.html#room=${room.roomId}`);
      await page.locator('[data-testid=lobby] [data-testid=room-code]', { hasText: room.code }).waitFor();
      expect(await page.locator('[data-testid=localhost-warning]').isHidden()).toBe(true);
      expect(await page.textContent('[data-testid=join-url]')).toBe(`${publicUrl}/play.html?code=${room.code}`);
      expect(await page.getAttribute('[data-testid=join-url]', 'href')).toBe(`${publicUrl}/play.html?code=${room.code}`);
      expect(await page.textContent('[data-testid=join-host]')).toBe('192.168.0.10:3000/play.html');
      // The QR code encodes PUBLIC_URL's link, not the address the page was opened at.
      const qr = await (await fetch(`${exposed.url}/api/rooms/join-qr.svg?code=${room.code}`)).text();
      expect(qr).toBe(await QRCode.toString(`${publicUrl}/play.html?code=${room.code}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }));
      expect(qr).not.toBe(await QRCode.toString(`${exposed.url}/play.html?code=${room.code}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }));
    } finally {
      await exposed.stop();
    }
    expect(problems).toEqual([]);
  });

  it('UX11 the player sees the choice they made at the reveal; when everyone ties at 0 nobody is 1위 and nobody stands on the podium', async () => {
    const problems: string[] = [];
    const setup = await createQuiz(app, sampleItems(1)); // the answer is choice 0
    const room = await createRoom(app, setup, { previewSeconds: 0, questionSeconds: 30 });
    const host = await openHost(app.url, room.hostToken);
    sockets.push(host);
    const phone = await openPage(PHONE, problems);
    await phone.goto(`${app.url}/play.html?code=${room.code}`);
    await fillBox(phone.locator('[data-testid=join-nickname]'), '하늘');
    await phone.click('[data-testid=join-submit]');
    const other = await joinRoom(app.url, room.code, '바다');
    sockets.push(other.client);
    await host.latest<{ playerCount: number }>('room:players', (update) => update.playerCount === 2);

    expect((await host.emit('room:start')).ok).toBe(true);
    await phone.locator('[data-testid=answers] button[data-choice="2"]:enabled').click();
    expect((await other.client.emit('answer:submit', { questionIndex: 0, choice: 3 })).ok).toBe(true);

    // The reveal: 오답, and which choice it was (the third, ● yellow), beside the right answer.
    const mine = phone.locator('[data-testid=reveal-mine]');
    await mine.waitFor();
    expect(await phone.textContent('[data-testid=verdict]')).toBe('오답');
    expect(await mine.getAttribute('data-choice')).toBe('2');
    expect(await mine.textContent()).toBe(`내 답: ● ${setup.items[0]!.choices[2]}`);
    expect(await phone.textContent('[data-testid=reveal-standing]')).toBe('총 0점 · 아직 순위 없음');
    const readable = await contrastOf(phone, '[data-testid=reveal-mine]');
    expect(readable.ratio).toBeGreaterThanOrEqual(4.5);

    // Leaderboard and podium: both at 0 — no "1위" anywhere on the phone, nobody on the podium.
    expect((await host.emit('room:next')).ok).toBe(true);
    await phone.locator('[data-testid=board-rank]', { hasText: '순위 없음' }).waitFor();
    expect((await host.emit('room:next')).ok).toBe(true);
    await phone.locator('[data-testid=podium-rank]', { hasText: '순위 없음 · 0점' }).waitFor();
    expect(await phone.locator('[data-testid=play-podium-list] [data-testid=podium-place]').count()).toBe(0);
    expect(await phone.locator('main').textContent()).not.toMatch(/1위/);
    expect(problems).toEqual([]);
  });
});
