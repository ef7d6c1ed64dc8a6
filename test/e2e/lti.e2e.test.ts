/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT18 — In a real browser, framed. (`e2e/lti`).
 * - LT19 — The account page. The admin registers an LMS by hand (deployment ids as a list) and makes a dynamic
 *   registration URL.
 */
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { startFakeLms } from '../support/fake-lms.js';
import { linkLectureAndExam, startLtiWorld, EXAM_PROBLEM, type LtiWorld } from '../support/lti-world.js';

/**
 * LT18 (test/SPEC.md): lectern inside an LMS page in a real chromium. The local LMS (on `localhost`, another site
 * than lectern on 127.0.0.1) shows its course page with the activity in an iframe whose form auto-posts the login
 * initiation, as Moodle and Canvas do; the student lands in the linked exam under their LMS name, and the teacher's
 * Deep Linking picker posts its choice back to the LMS from inside the frame.
 */

let world: LtiWorld;
let browser: Browser;
let context: BrowserContext | undefined;
let links: Awaited<ReturnType<typeof linkLectureAndExam>>;

beforeAll(async () => {
  world = await startLtiWorld();
  links = await linkLectureAndExam(world);
  browser = await launchBrowser();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await world?.stop();
});

/** Opens the LMS course page and answers the iframe lectern ends up in (with the page's problems collected). */
async function openCourse(url: string): Promise<{ page: Page; frame: () => Frame; problems: string[] }> {
  context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    // The LMS's own favicon is not lectern's business.
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url);
  const frame = () => {
    const found = page.frame({ name: 'tool' });
    if (!found) throw new Error('the LMS page has no tool frame');
    return found;
  };
  return { page, frame, problems };
}

describe('lectern framed by an LMS', () => {
  it('LT18 a student opens the exam from the course page: the launch form posts inside the frame and the exam opens under the LMS name', async () => {
    const { app, lms } = world;
    const { page, frame, problems } = await openCourse(lms.coursePageFor(app.url, { user: world.students[0]!, link: links.exam }));
    await frame().waitForSelector('[data-testid=exam-sheet]');
    expect(new URL(frame().url()).origin).toBe(app.url);
    expect(frame().url()).toBe(`${app.url}/classroom.html`);
    expect(await frame().textContent('#session-info')).toContain('이서연');
    expect(await frame().textContent('[data-testid=exam-question]')).toContain(EXAM_PROBLEM.question_content);
    // The LMS page itself stays where it was: only the frame moved.
    expect(new URL(page.url()).origin).toBe(new URL(lms.url).origin);
    expect(problems).toEqual([]);
  });

  it('LT18 a teacher whose browser keeps no cookie in the frame opens the class monitor in a new window, signed in once', async () => {
    const { app, lms } = world;
    const { frame, problems } = await openCourse(lms.coursePageFor(app.url, { user: world.instructor, link: links.lecture }));
    await frame().waitForSelector('[data-testid=lti-new-window]');
    const [popup] = await Promise.all([context!.waitForEvent('page'), frame().click('[data-testid=lti-new-window]')]);
    await popup.waitForSelector('[data-testid=class-title]:not(:empty)');
    expect(popup.url()).toMatch(new RegExp(`^${app.url}/monitor\\.html\\?class=`));
    expect(await popup.textContent('[data-testid=class-title]')).toContain('확률과 통계');
    // The class is the course's: its roster comes from the LMS, read again on request.
    await popup.waitForSelector('[data-testid=lms-roster]:not([hidden])');
    expect(await popup.textContent('[data-testid=lms-roster]')).toContain('LMS 강좌: 확률과 통계');
    await popup.click('[data-testid=lms-roster-read]');
    await popup.waitForSelector('[data-testid=lms-roster-status]:not(:empty)');
    expect(await popup.textContent('[data-testid=lms-roster-status]')).toContain('강좌 학생 3명');
    // The landing page's question "is the session cookie here?" is answered 401 in the frame: that is how it knows.
    expect(problems.filter((problem) => !problem.endsWith('/api/auth/me'))).toEqual([]);
  });

  it('LT18 the teacher picks a lecture in the framed picker; its answer goes back to the LMS from the frame', async () => {
    const { app, lms } = world;
    const before = lms.links.length;
    const { frame, problems } = await openCourse(lms.coursePageFor(app.url, { user: world.instructor, message: 'deep-link' }));
    await frame().waitForSelector('[data-testid=picker-lectures] [data-testid=picker-row]');
    expect(await frame().textContent('#picker-course')).toContain('확률과 통계');
    await frame().check('[data-testid=picker-lectures] [data-testid=picker-row] input');
    await frame().click('[data-testid=picker-submit]');
    await frame().waitForFunction(() => (globalThis as unknown as { document: { body: { textContent: string | null } } }).document.body.textContent?.includes('링크를 추가했습니다') ?? false);
    expect(lms.links.length).toBe(before + 1);
    expect(lms.links.at(-1)).toMatchObject({ title: expect.stringContaining('[강의]'), custom: { lectern_link: expect.any(String) } });
    expect(problems).toEqual([]);
  });

  it('LT19 the admin registers an LMS on the account page by hand and makes a dynamic registration URL', async () => {
    const { app, admin } = world;
    const other = await startFakeLms();
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addCookies([{ name: 'lectern_session', value: admin.cookie.slice(admin.cookie.indexOf('=') + 1), url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/account.html`);
    await page.waitForSelector('[data-testid=lti-section]:not([hidden]) [data-testid=lti-platform]');
    expect(await page.textContent('[data-testid=lti-tool]')).toContain(`${app.url}/lti/jwks`);
    await page.click('summary:has-text("LMS 직접 등록")');
    await fillBox(page.locator('#lti-name'), '두 번째 Moodle');
    await fillBox(page.locator('#lti-issuer'), other.issuer);
    await fillBox(page.locator('#lti-client'), 'client-two');
    await fillBox(page.locator('#lti-deployments'), '7, 8');
    await fillBox(page.locator('#lti-jwks'), other.jwksUrl);
    await fillBox(page.locator('#lti-auth'), other.authUrl);
    await fillBox(page.locator('#lti-token'), other.tokenUrl);
    await page.click('[data-testid=lti-register]');
    await page.waitForSelector(`[data-testid=lti-platform][data-issuer="${other.issuer}"]`);
    expect(await page.textContent(`[data-testid=lti-platform][data-issuer="${other.issuer}"]`)).toContain('7, 8');
    await page.click('[data-testid=lti-code-button]');
    await page.waitForSelector('[data-testid=lti-code-url]:not(:empty)');
    expect(await page.textContent('[data-testid=lti-code-url]')).toMatch(new RegExp(`^${app.url}/lti/register\\?code=`));
    const registered = await app.lti.platforms.find(other.issuer, 'client-two');
    expect(registered?.deploymentIds).toEqual(['7', '8']);
    await other.close();
  });
});
