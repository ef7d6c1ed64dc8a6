/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LY1 — One header. After an upload the instructor header holds one menu and one account box (drawing it again
 *   replaces them).
 * - LY2 — Table headers on one line. A results table's header cell is one line ("문항", never "문/항"); a wide table
 *   scrolls sideways in its own box.
 * - LY3 — The countdown stays. While a class exam sheet is open its bar (title, countdown) sits in the sticky toolbar:
 *   scrolled anywhere, past the sheet and down the lecture, it is on screen and uncovered; on a phone the toolbar keeps
 *   its title row; a teacher's notice is one line until tapped; the toolbar covers at most 30 % of the screen.
 * - LY4 — 질문 보내기 in view. When the raise-hand panel opens and whenever the assistant asks again, its form is scrolled
 *   into view: the send button is whole and above the 손 내리기 bar, nothing over it.
 * - LY5 — Students are not sent to the instructor's upload. The classroom and quiz pages neither show nor link to 자료
 *   올리기.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSamplePdf, SAMPLE_FILENAME } from '../../src/materials/sample-pdf.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { bootExamClass, draft, end, gradedResults, join, makeExam, publish, type Booted } from '../support/exam-class.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * LY1–LY5 (test/SPEC.md, "Layout on a phone and a projector"): the pages at 390×844 (a phone) and 1366×900 (a
 * projector's desktop), measured in Debian chromium against the real app (memory store, offline model): the header
 * after an upload, the results table's headers, the classroom's sticky toolbar with an announcement over a running
 * exam, the raise-hand sheet's send button, and what a student's pages link to.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' };
const DESK = { viewport: { width: 1366, height: 900 }, locale: 'ko-KR' };
const SIZES = [
  ['390×844', PHONE],
  ['1366×900', DESK],
] as const;

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp({ SIGNUP: 'open' });
  await app.materials.preloadSample();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

async function open(options: Parameters<Browser['newContext']>[0], problems: string[], signedIn?: Pick<TestApp, 'url'>): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  if (signedIn) await signInContext(context, signedIn);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  return page;
}

/** Whether the centre and both ends of `selector`'s box are the element itself (or inside it), not something over it. */
/**
 * What lies over an element: '' when the element itself is found at its centre, its two ends and near its bottom;
 * else the first element found there instead (tag, test id, class), so a failure names what covers it.
 */
function coveringOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (node) => {
    type Found = { tagName: string; className: string; getAttribute(name: string): string | null };
    const target = node as unknown as { getBoundingClientRect(): { left: number; right: number; top: number; bottom: number }; contains(other: unknown): boolean; ownerDocument: { elementFromPoint(x: number, y: number): Found | null } };
    const box = target.getBoundingClientRect();
    const y = (box.top + box.bottom) / 2;
    const points = [
      [(box.left + box.right) / 2, y],
      [box.left + 3, y],
      [box.right - 3, y],
      [(box.left + box.right) / 2, box.bottom - 3],
    ];
    for (const [x, at] of points) {
      const found = target.ownerDocument.elementFromPoint(x!, at!);
      if (target.contains(found)) continue;
      if (found === null) return `nothing at (${Math.round(x!)}, ${Math.round(at!)}): off screen`;
      return `${found.tagName.toLowerCase()}[data-testid=${found.getAttribute('data-testid') ?? ''}].${found.className} at (${Math.round(x!)}, ${Math.round(at!)})`;
    }
    return '';
  });
}

describe('layout on a phone and a projector', () => {
  it.each(SIZES)('LY1 after an upload the header holds one menu and one account box (%s)', async (_name, size) => {
    const problems: string[] = [];
    const page = await open(size, problems, app);
    await page.goto(`${app.url}/upload.html`);
    await page.getByTestId('account-email').waitFor();
    await page.setInputFiles('#file-input', { name: SAMPLE_FILENAME, mimeType: 'application/pdf', buffer: Buffer.from(await buildSamplePdf()) });
    await page.locator('#status.good').waitFor();
    await page.locator('#materials', { hasText: '기초 통계' }).waitFor();
    await expect.poll(() => page.locator('header.top .account-box').count()).toBe(1);
    expect(await page.locator('header.top nav').count()).toBe(1);
    expect(await page.getByTestId('sign-out').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('LY2 the results table keeps each header on one line (no "문/항") at 390×844 and 1366×900', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => '');
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    expect((await draft(booted, exam.examId, student.headers, { '1': '분산', '2': '기댓값이 같아서', '3': '평균' })).status).toBe(200);
    await end(booted, exam.examId);
    await gradedResults(booted, exam.examId, 1);
    for (const [name, size] of SIZES) {
      const problems: string[] = [];
      const page = await open(size, problems);
      await signInContext(page.context(), booted.app, booted.teacher);
      await page.goto(`${booted.app.url}/host.html?class=${booted.classId}&exam=${exam.examId}`);
      await page.getByTestId('exam-distribution-row').first().waitFor();
      const heads = await page.$$eval('[data-testid=exam-distribution] th', (nodes) =>
        nodes.map((node) => {
          const cell = node as unknown as { textContent: string; getBoundingClientRect(): { height: number }; ownerDocument: { defaultView: { getComputedStyle(e: unknown): { lineHeight: string } } } };
          return { text: cell.textContent, height: cell.getBoundingClientRect().height, line: Number.parseFloat(cell.ownerDocument.defaultView.getComputedStyle(cell).lineHeight) };
        }),
      );
      expect(heads.map((head) => head.text)).toContain('문항');
      for (const head of heads) expect(head.height, `${name} "${head.text}"`).toBeLessThan(head.line * 1.9 + 12);
      expect(problems).toEqual([]);
    }
  });

  it('LY3 on a 390×844 phone the running exam’s countdown stays in view while the sheet scrolls, and an announcement collapses to one line; on 1366×900 too', async (context) => {
    const booted: Booted = await bootExamClass(context, 'memory', () => '');
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    for (const [name, size] of SIZES) {
      const problems: string[] = [];
      const page = await open(size, problems);
      await page.goto(`${booted.app.url}/classroom.html`);
      await fillBox(page.locator('[data-testid=nickname]'), `학생${name.slice(0, 3)}`);
      await fillBox(page.locator('[data-testid=class-code]'), booted.classCode);
      await page.click('[data-testid=join-class]');
      await page.locator('[data-testid=connection][data-state=connected]').waitFor();
      await page.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
      await page.getByTestId('exam-sheet').waitFor();
      booted.app.monitor.announce(booted.classId, '시험 중에는 교재를 덮어 주세요. 다 푼 사람은 조용히 기다리고, 제출한 뒤에는 손을 들지 않아도 됩니다. 남은 시간을 확인하세요.');
      await page.getByTestId('announcement').waitFor();
      const viewport = size.viewport;
      const toolbar = await page.locator('.classroom .toolbar').boundingBox();
      expect(toolbar, name).not.toBeNull();
      // The sticky part (toolbar, announcement and the exam's bar) leaves most of the screen to the sheet.
      const countdownBar = await page.getByTestId('exam-countdown').boundingBox();
      const stickyBottom = Math.max(toolbar!.y + toolbar!.height, (countdownBar?.y ?? 0) + (countdownBar?.height ?? 0));
      // Scroll past the sheet's last answer to the bottom of the page, below the lecture streaming under the sheet (a long
      // one: whatever the stream has reached, the page ends two screens below the sheet): the countdown is still on
      // screen and nothing covers it.
      await page.evaluate((height) => {
        const doc = (globalThis as unknown as { document: { getElementById(id: string): { style: { minHeight: string } } } }).document;
        doc.getElementById('lecture').style.minHeight = `${height}px`;
      }, viewport.height * 2);
      await page.locator('[data-testid=exam-answer]').last().scrollIntoViewIfNeeded();
      await page.locator('[data-testid=exam-submit-all]').scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, viewport.height * 3);
      await expect.poll(() => page.evaluate(() => { const g = globalThis as unknown as { scrollY: number; innerHeight: number; document: { documentElement: { scrollHeight: number } } }; return Math.round(g.scrollY + g.innerHeight + 1 - g.document.documentElement.scrollHeight); })).toBeGreaterThanOrEqual(0);
      // The sticky bar settles once the scroll has been laid out (a loaded machine reads it mid-scroll otherwise).
      await expect.poll(async () => (await page.getByTestId('exam-countdown').boundingBox())?.y ?? -1, { message: `${name} countdown top` }).toBeGreaterThanOrEqual(0);
      const countdown = await page.getByTestId('exam-countdown').boundingBox();
      expect(countdown, name).not.toBeNull();
      expect(countdown!.y, `${name} countdown top`).toBeGreaterThanOrEqual(0);
      expect(countdown!.y + countdown!.height, `${name} countdown bottom`).toBeLessThanOrEqual(viewport.height);
      // Whatever is still settling from the scroll (the collapsing announcement above it) must end with it uncovered.
      await expect.poll(() => coveringOf(page, '[data-testid=exam-countdown]'), { message: `${name} what covers the countdown` }).toBe('');
      const sticky = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): { bottom: number } } | null } }).document;
        return Math.max(doc.querySelector('.classroom .toolbar')?.getBoundingClientRect().bottom ?? 0, doc.querySelector('[data-testid=exam-countdown]')?.getBoundingClientRect().bottom ?? 0);
      });
      expect(sticky / viewport.height, `${name} sticky share of the screen (was ${Math.round((stickyBottom / viewport.height) * 100)}% before scrolling)`).toBeLessThanOrEqual(0.3);
      // The collapsed announcement is one line; a tap opens it whole.
      const announcement = page.getByTestId('announcement');
      const text = announcement.locator('p');
      const lineHeight = await text.evaluate((node) => Number.parseFloat((node as unknown as { ownerDocument: { defaultView: { getComputedStyle(e: unknown): { lineHeight: string } } } }).ownerDocument.defaultView.getComputedStyle(node).lineHeight));
      expect((await text.boundingBox())!.height, `${name} collapsed announcement`).toBeLessThan(lineHeight * 1.5);
      await text.click();
      await expect.poll(async () => (await text.boundingBox())!.height).toBeGreaterThan(lineHeight * 1.5);
      expect(problems).toEqual([]);
    }
  });

  it.each(SIZES)('LY4 "질문 보내기" is whole above the "손 내리기" bar when the panel opens and when the assistant asks again (%s)', async (_name, size) => {
    const problems: string[] = [];
    const page = await open(size, problems);
    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '서연');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=lecture-text]').first().waitFor();
    await page.locator('[data-testid=raise-hand]:not([disabled])').waitFor();
    await page.click('[data-testid=raise-hand]');
    await page.locator('[data-testid=hand-input]').waitFor({ state: 'visible' });
    const check = async (when: string) => {
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id), { message: when }).toBe('hand-input');
      const send = (await page.getByTestId('hand-send').boundingBox())!;
      const foot = (await page.locator('.hand-foot').boundingBox())!;
      expect(send.y + send.height, `${when}: the send button ends above the foot bar`).toBeLessThanOrEqual(foot.y + 0.5);
      expect(await coveringOf(page, '[data-testid=hand-send]'), `${when}: nothing lies over the send button`).toBe('');
    };
    // As the panel opens, and when the assistant asks again below a longer dialogue (its choices), nobody scrolling.
    await check('opened');
    await fillBox(page.locator('[data-testid=hand-input]'), '잘 모르겠어요');
    await page.click('[data-testid=hand-send]');
    await page.locator('[data-testid=hand-choice]').first().waitFor();
    await check('asked again');
    expect(problems).toEqual([]);
  });

  it.each(SIZES)('LY5 a student’s pages (classroom, quiz) neither show nor link to "자료 올리기" (%s)', async (_name, size) => {
    const problems: string[] = [];
    const page = await open(size, problems);
    for (const path of ['/classroom.html', '/play.html']) {
      await page.goto(`${app.url}${path}`);
      await page.locator('header.top').waitFor();
      expect(await page.locator('body').innerText(), path).not.toContain('자료 올리기');
      expect(await page.locator('a[href*="upload.html"]').count(), path).toBe(0);
    }
    expect(problems).toEqual([]);
  });
});
