/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - CR5 — The page. On a phone-sized page, the student types only the code, picks their name from the list and enters
 *   the classroom (the instructor sees them) …
 * - CR6 — Making one. On "내 수업" the instructor pastes names (one per line; blank lines and surrounding spaces
 *   ignored) into "학생 명단 (선택)" …
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClass, getJson } from '../support/classroom-client.js';
import { fillBox, launchBrowser, signInBrowser } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { ClassInfo } from '../../src/protocol/classroom.js';

/**
 * CR5: a roster class on the classroom page, in chromium: a student picks their own name; a taken name cannot be
 * picked. CR6: the instructor makes such a class on "내 수업" by pasting names.
 */

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp();
  await app.materials.preloadSample();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('roster class on the classroom page', () => {
  it('CR5 after the code the student sees the names, picks theirs and enters; on another device that name shows as taken', async () => {
    const sample = (await app.materials.list({ limit: 1 })).items[0]!;
    const created = await createClass(app, { name: '명단 반', materialId: sample.id, roster: ['김민지', '이서준'] });
    const first = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const second = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await first.newPage();
      await page.goto(`${app.url}/classroom.html?code=${created.code}`);
      // No nickname typed: a roster class does not need one.
      await page.getByTestId('join-class').click();
      await expect.poll(() => page.getByTestId('roster-name').allTextContents()).toEqual(['김민지', '이서준']);
      await page.getByTestId('roster-name').filter({ hasText: '김민지' }).click();
      await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { hidden: boolean } | null } }).document.getElementById('setup')?.hidden === true);

      const info = await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` });
      expect(info.body.students?.map((student) => student.nickname)).toEqual(['김민지']);

      const other = await second.newPage();
      await other.goto(`${app.url}/classroom.html?code=${created.code}`);
      await other.getByTestId('join-class').click();
      await expect.poll(() => other.getByTestId('roster-name').allTextContents()).toEqual(['김민지 (참여함)', '이서준']);
      expect(await other.getByTestId('roster-name').filter({ hasText: '김민지' }).isDisabled()).toBe(true);
      const size = await other.getByTestId('roster-name').filter({ hasText: '이서준' }).boundingBox();
      expect(size?.height).toBeGreaterThanOrEqual(44);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('CR6 an instructor pastes a roster into "새 수업 만들기"; a duplicate is refused in Korean, the fixed list is what students pick from', async () => {
    const context = await browser.newContext();
    try {
      const teacher = await signInBrowser(context, app);
      const page = await context.newPage();
      await page.goto(`${app.url}/dashboard.html`);
      await fillBox(page.locator('#class-name'), '명단으로 만든 반');
      // Lines as pasted from a spreadsheet column: blanks and spaces around names do not matter.
      await fillBox(page.getByTestId('class-roster'), '  박지우\n\n최하윤\n박지우\n');
      await page.click('#create-button');
      await expect.poll(() => page.locator('#create-error').textContent()).toContain('명단에 같은 이름이 두 번 있습니다: 박지우');
      await fillBox(page.getByTestId('class-roster'), '박지우\n최하윤\n');
      await page.click('#create-button');
      await page.waitForURL(/\/monitor\.html\?class=/);
      const classId = new URL(page.url()).searchParams.get('class')!;

      const info = await getJson<ClassInfo>(`${app.url}/api/classes/${encodeURIComponent(classId)}`, teacher.bearer);
      expect(info.status).toBe(200);
      const roster = await getJson<{ names: Array<{ name: string; taken: boolean }> }>(`${app.url}/api/classes/${info.body.code}/roster`);
      expect(roster.status).toBe(200);
      expect(roster.body.names?.map((entry) => entry.name)).toEqual(['박지우', '최하윤']);
    } finally {
      await context.close();
    }
  });
});
