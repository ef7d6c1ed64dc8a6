/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - PG1 — An instructor's first day. Sign up (first account) → dashboard; upload a made PDF, the next steps point at
 *   it (퀴즈 만들기 → host, 강의 미리 보기 → classroom); 수업 만들기 opens the dashboard with it preselected …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { madePdf } from '../support/data-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * PG1 (test/SPEC.md): an instructor's first day in a real chromium, as the walkthrough: sign up → upload a
 * PDF → "수업 만들기" from the upload page → the class on the monitor → two students join from two browsers → the
 * monitor and "내 수업" show them → a raised hand answered directly from the monitor (the transcript open) and the
 * reply in the student's dialogue → the monitor reloaded with a fresh class token from the server → the material
 * deleted after a confirm. Everything the instructor sees comes from the server with the account's cookie.
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function newPage(problems: string[], name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`${name}: pageerror ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${name}: HTTP ${response.status()} ${response.url()}`);
  });
  return page;
}

async function joinAs(student: Page, code: string, nickname: string): Promise<void> {
  await student.goto(`${app.url}/classroom.html?code=${code}`);
  await fillBox(student.locator('[data-testid=nickname]'), nickname);
  await student.click('[data-testid=join-class]');
  await student.locator('[data-testid=connection][data-state=connected]').waitFor();
}

describe('PG1 an instructor from sign-up to a deleted material', () => {
  it('PG1 sign up, upload, create a class, two students, monitor, direct reply to a raised hand, delete the material', async () => {
    const problems: string[] = [];
    const teacher = await newPage(problems, 'teacher');
    const confirmations: string[] = [];
    teacher.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });

    // Sign up (the first account of this server) → the dashboard.
    await teacher.goto(`${app.url}/signup.html`);
    await fillBox(teacher.locator('#email'), 'teacher@school.example');
    await fillBox(teacher.locator('#password'), '안전한-비밀번호-123');
    await fillBox(teacher.locator('#password-again'), '안전한-비밀번호-123');
    await teacher.click('#signup-button');
    await teacher.waitForURL(`${app.url}/dashboard.html`);
    await teacher.locator('[data-testid=account-email]', { hasText: 'teacher@school.example' }).waitFor();

    // Upload a made PDF; the next steps point at this material.
    await teacher.goto(`${app.url}/upload.html`);
    await teacher.setInputFiles('#file-input', { name: '통계 2학기.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await madePdf('통계 2학기')) });
    await teacher.locator('#result:not([hidden])').waitFor();
    const materialId = (await teacher.locator('#result').getAttribute('data-material-id')) ?? '';
    expect(materialId).not.toBe('');
    const materialTitle = (await teacher.locator('#material-title').textContent()) ?? '';
    expect(await teacher.locator('[data-testid=next-quiz]').getAttribute('href')).toBe(`/host.html?material=${materialId}`);
    expect(await teacher.locator('[data-testid=next-preview]').getAttribute('href')).toBe(`/classroom.html?material=${materialId}`);
    await teacher.click('[data-testid=next-class]');
    await teacher.waitForURL(`${app.url}/dashboard.html?material=${materialId}`);
    await expect.poll(() => teacher.locator('#class-material').inputValue()).toBe(materialId);

    // Create the class: it opens in the monitor with its join code.
    await fillBox(teacher.locator('#class-name'), '통계 2반');
    await teacher.click('#create-button');
    await teacher.waitForURL(/\/monitor\.html\?class=/);
    const classId = new URL(teacher.url()).searchParams.get('class') ?? '';
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const code = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/);

    // Two students join from two browsers; the monitor shows both.
    const first = await newPage(problems, 'student 1');
    const second = await newPage(problems, 'student 2');
    await joinAs(first, code, '민지');
    await joinAs(second, code, '서준');
    await teacher.locator('[data-testid=roster-entry][data-connected=true]', { hasText: '민지' }).waitFor();
    await teacher.locator('[data-testid=roster-entry][data-connected=true]', { hasText: '서준' }).waitFor();

    // "내 수업" lists the class with its code, material and two students.
    const dashboard = await teacher.context().newPage();
    await dashboard.goto(`${app.url}/dashboard.html`);
    const card = dashboard.locator(`[data-testid=dashboard-class][data-class-id="${classId}"]`);
    await card.locator('[data-testid=class-code]', { hasText: code }).waitFor();
    await card.getByText('학생 2명', { exact: false }).waitFor();
    await card.getByText(`강의 자료: ${materialTitle}`).waitFor();
    expect(await card.locator('[data-testid=open-monitor]').getAttribute('href')).toBe(`/monitor.html?class=${classId}`);
    await dashboard.close();

    // A student raises a hand; the instructor opens the transcript and answers directly.
    await first.locator('[data-testid=raise-hand]:not([disabled])').waitFor();
    await first.click('[data-testid=raise-hand]');
    const panel = first.locator('[data-testid=hand-panel]');
    await panel.locator('[data-testid=hand-assistant]').first().waitFor();
    await teacher.locator('[data-testid=roster-entry]', { hasText: '민지' }).locator('[data-testid=student-open]').click();
    expect(await teacher.locator('[data-testid=transcript-title]').textContent()).toBe('민지 학생의 기록');
    const hand = teacher.locator('[data-testid=hand-item]', { hasText: '민지' });
    const reply = '평균은 모든 값을 더해 개수로 나눈 값이에요.';
    await fillBox(hand.locator('[data-testid=hand-answer-input]'), reply);
    await hand.locator('[data-testid=hand-answer-send]').click();
    await panel.locator('[data-testid=hand-instructor]', { hasText: reply }).waitFor();
    await teacher.locator('[data-testid=transcript-panel] [data-testid=transcript-item][data-type=instructor]', { hasText: reply }).waitFor();

    // A reload asks the server for a fresh class token: nothing but the last choice is kept in the browser.
    await teacher.reload();
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    expect(await teacher.locator('[data-testid=roster-entry]').count()).toBe(2);
    const stored = await teacher.evaluate(() => {
      const storage = (globalThis as unknown as { localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null } }).localStorage;
      return Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i) ?? '')}`);
    });
    expect(stored.filter((entry) => !entry.startsWith('lectern.monitor.current='))).toEqual([]);

    // Delete the material on the upload page after the confirm.
    await teacher.goto(`${app.url}/upload.html`);
    const row = teacher.locator('#materials li', { hasText: materialTitle });
    await row.locator('[data-testid=delete-material]').click();
    await teacher.locator('#status', { hasText: '자료를 삭제했습니다' }).waitFor();
    expect(confirmations.at(-1)).toContain(materialTitle);
    await expect.poll(() => teacher.locator('#materials li', { hasText: materialTitle }).count()).toBe(0);
    expect((await fetch(`${app.url}/api/materials/${materialId}`)).status).toBe(404);
    expect(problems).toEqual([]);
  });
});
