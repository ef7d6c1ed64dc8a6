import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { createClass, getJson, postJson } from '../support/classroom-client.js';
import { loadSample } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** DR6 (test/SPEC.md): the classroom page waits out a join limit's Retry-After and joins, keeping what was typed. */

let app: TestApp;
let browser: Browser;
let context: BrowserContext | undefined;
/** The join limits' clock: it moves only when the test says (the page's own one-second waits are real). */
const clock = { now: 1_800_000_000_000 };

beforeAll(async () => {
  // A burst of 2 joins, refilled at 2 a second: a page's refused join is told to come back in 1 s. The store runs on
  // the same clock, so the bucket's key does not expire (a full bucket) while the test's clock stands still.
  app = await startTestApp({ JOIN_ATTEMPT_POINTS: '2', JOIN_ATTEMPT_WINDOW_SECONDS: '1' }, { limitsClock: () => clock.now, store: new MemoryStore({ clock: () => clock.now }) });
  browser = await launchBrowser();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('joining a class while the school address is at its join limit', () => {
  it('DR6 the page shows the wait, keeps the code and name as typed, and joins by itself once the limit lets it', async () => {
    const material = await loadSample(app);
    const created = await createClass(app, { name: '대강당 수업', materialId: material.id });
    // Two classmates behind the same address (the browser's) take the whole burst.
    for (const nickname of ['앞사람1', '앞사람2']) expect((await postJson(`${app.url}/api/classes/${created.code}/join`, { nickname })).status).toBe(201);
    expect((await postJson(`${app.url}/api/classes/${created.code}/join`, { nickname: '앞사람3' })).status).toBe(429);

    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/classroom.html`);
    await fillBox(page.locator('[data-testid=class-code]'), created.code);
    await fillBox(page.locator('[data-testid=nickname]'), '기다린학생');
    await page.click('[data-testid=join-class]');

    const wait = page.locator('[data-testid=join-wait]');
    await wait.filter({ hasText: '자동으로 다시 시도합니다' }).waitFor();
    expect(await page.inputValue('[data-testid=class-code]')).toBe(created.code);
    expect(await page.inputValue('[data-testid=nickname]')).toBe('기다린학생');
    expect(await page.locator('[data-testid=join-error]').textContent()).toBe('');

    // The limit refills; the page's next try (after its real one-second wait) gets in.
    clock.now += 1_000;
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    expect(await wait.isHidden()).toBe(true);
    const roster = await getJson<{ students: { nickname: string }[] }>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` });
    expect(roster.body.students?.map((student) => student.nickname)).toContain('기다린학생');
  });
});
