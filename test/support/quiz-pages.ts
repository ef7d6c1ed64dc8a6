import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { fillBox } from './browser.js';

/** axe-core (a dev dependency, loaded from node_modules into the page, never from a CDN). */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** WCAG 2 A/AA violations on the page as it is now (within `selector` when given), as `id: targets` lines. */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.addScriptTag({ path: AXE_PATH });
  const root = selector === undefined ? 'document' : `document.querySelector(${JSON.stringify(selector)})`;
  return page.evaluate(`axe.run(${root}, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((result) => result.violations.map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target.join(' ')).join(', ')))`);
}

export interface PastedRoom {
  className: string;
  title: string;
  items: unknown[];
  /** Room settings to set on the host page before the room is made (the preview time is already 0). */
  configure?: (host: Page) => Promise<void>;
}

/**
 * As a teacher would: a new class on the monitor, 퀴즈 방 새로 만들기, the items pasted as a quiz, then a room with no
 * preview time. Resolves with the room's 6-digit code once the lobby shows it.
 */
export async function hostPastedRoom(host: Page, appUrl: string, room: PastedRoom): Promise<string> {
  await host.goto(`${appUrl}/monitor.html`);
  await fillBox(host.locator('[data-testid=class-name]'), room.className);
  await host.click('[data-testid=create-class]');
  await host.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
  await host.click('[data-testid=quiz-room-new]');
  await host.waitForURL(/\/host\.html\?class=/);
  await host.click('[data-testid=paste-box] summary');
  await fillBox(host.locator('[data-testid=paste-title]'), room.title);
  await fillBox(host.locator('[data-testid=paste-items]'), JSON.stringify(room.items));
  await host.click('[data-testid=paste-save]');
  await host.locator('[data-testid=quiz-status]', { hasText: '저장했습니다' }).waitFor();
  await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
  await room.configure?.(host);
  await host.click('[data-testid=create-room]');
  const codeNode = host.locator('[data-testid=lobby] [data-testid=room-code]');
  await expect.poll(() => codeNode.textContent()).toMatch(/^\d{6}$/);
  return (await codeNode.textContent()) ?? '';
}
