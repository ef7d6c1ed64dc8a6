/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AN8 — The page. In chromium each chart (item analysis, choice counts, mastery heatmap, funnel) is drawn and
 *   screenshotted, its table alternative shows the same numbers, a cell's evidence is one click away, and PNG, SVG
 *   and CSV download; nothing is loaded from another origin.
 * - AN11 — The page passes axe. With the seeded class's figures drawn (and the mastery table shown, the evidence of a
 *   cell open), axe finds no WCAG 2.1 A/AA violation on the 분석 page.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_QUIZ_QUESTION, seedAnalyticsClass } from '../support/analytics-class.js';
import { launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { bootExamClass } from '../support/exam-class.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import type { QuizClient } from '../support/quiz-client.js';
import { axeViolations } from '../support/quiz-pages.js';
import { WAIT_TIMEOUT_MS } from '../support/waits.js';

/**
 * AN8 (test/SPEC.md): the 분석 page in Debian's chromium against the real app (memory store) over the class seeded
 * with known data (test/support/analytics-class.ts). Each chart is screenshotted (into a temp folder; the path is
 * printed) and its table alternative must carry the hand-computed figures of AN2/AN3/AN7; the canvas must hold the
 * colours those figures call for; the PNG, SVG and CSV exports download.
 */

let browser: Browser;
const clients: QuizClient[] = [];
const shots = mkdtempSync(path.join(tmpdir(), 'lectern-analytics-'));

beforeAll(async () => {
  await samplePdfBytes();
  browser = await launchBrowser();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await browser?.close();
});

/** The text of every body row of a figure's table, cell by cell. */
async function tableRows(page: Page, name: string): Promise<string[][]> {
  return page.locator(`[data-testid="${name}-table"] tbody tr`).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())));
}

/** The part of a canvas element read here (the test's tsconfig has no DOM types). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray } };
}

/** Where on the page the canvas first shows `hex` (scanning rows top down), in CSS pixels. */
async function firstPixelOf(page: Page, name: string, hex: string): Promise<{ x: number; y: number }> {
  const canvas = page.locator(`[data-testid="${name}-canvas"]`);
  const found = await canvas.evaluate((node, colour) => {
    const target = [1, 3, 5].map((offset) => parseInt(colour.slice(offset, offset + 2), 16));
    const element = node as unknown as CanvasLike & { clientWidth: number };
    const { data } = element.getContext('2d').getImageData(0, 0, element.width, element.height);
    for (let index = 0; index < data.length; index += 4) {
      if (Math.abs(data[index]! - target[0]!) + Math.abs(data[index + 1]! - target[1]!) + Math.abs(data[index + 2]! - target[2]!) < 6) {
        const pixel = index / 4;
        const scale = element.width / element.clientWidth;
        return { x: (pixel % element.width) / scale, y: Math.floor(pixel / element.width) / scale };
      }
    }
    return null;
  }, hex);
  if (!found) throw new Error(`${name} shows no ${hex}`);
  const box = (await canvas.boundingBox())!;
  return { x: box.x + found.x + 10, y: box.y + found.y + 10 };
}

/** Pixels of the canvas within a small distance of `hex` (the chart really drew that colour). */
async function pixelsOf(page: Page, name: string, hex: string): Promise<number> {
  return page.locator(`[data-testid="${name}-canvas"]`).evaluate((node, colour) => {
    const target = [1, 3, 5].map((offset) => parseInt(colour.slice(offset, offset + 2), 16));
    const canvas = node as unknown as CanvasLike;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let index = 0; index < data.length; index += 4) {
      if (Math.abs(data[index]! - target[0]!) + Math.abs(data[index + 1]! - target[1]!) + Math.abs(data[index + 2]! - target[2]!) < 12) count += 1;
    }
    return count;
  }, hex);
}

async function shoot(page: Page, name: string, fileName = name): Promise<string> {
  const file = path.join(shots, `${fileName}.png`);
  await page.locator(`[data-testid="${name}-figure"]`).screenshot({ path: file });
  expect(statSync(file).size).toBeGreaterThan(5_000);
  return file;
}

async function downloaded(page: Page, testId: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  const [download] = (await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()])) as [Download, void];
  const file = path.join(shots, download.suggestedFilename());
  await download.saveAs(file);
  const bytes = readFileSync(file);
  return { name: download.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

describe('분석 page', () => {
  it('AN8 draws item analysis, the mastery map and the funnel with known figures; tables, evidence and exports match', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => '');
    const seed = await seedAnalyticsClass(booted, clients);
    const browserContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    context.onTestFinished(() => browserContext.close());
    await signInContext(browserContext, booted.app, booted.teacher);
    const page = await browserContext.newPage();
    const problems: string[] = [];
    const origin = new URL(booted.app.url).origin;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin && !['data:', 'blob:'].includes(url.protocol)) problems.push(`foreign request ${request.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console ${message.text()}`);
    });

    // From the dashboard's class card, as an instructor gets there.
    await page.goto(`${booted.app.url}/dashboard.html`);
    await page.locator(`[data-class-id="${booted.classId}"] [data-testid="open-analytics"]`).click();
    await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_TIMEOUT_MS }).catch((error: unknown) => {
      throw new Error(`${String(error)}; ${problems.join('; ')}`);
    });
    expect(page.url()).toContain(`/analytics.html?class=${booted.classId}`);

    // Newest first: the exam, then the room.
    const options = await page.getByTestId('assessment-select').locator('option').allTextContents();
    expect(options.map((text) => text.replace(/ \(.*\)$/, ''))).toEqual(['[시험] 1장 평가', '[퀴즈] 통계 퀴즈']);
    expect(await tableRows(page, 'items')).toEqual([
      ['1번', PROBLEM_TEXTS[0], '3', '66.7%', '0.756', '0', ''],
      ['2번', PROBLEM_TEXTS[1], '3', '83.3%', '0.189', '0', '변별도 낮음'],
      ['3번', PROBLEM_TEXTS[2], '3', '16.7%', '0.945', '0', '너무 어려움'],
    ]);
    expect(await page.getByTestId('choices-figure').count()).toBe(0);
    await shoot(page, 'items');

    await page.getByTestId('assessment-select').selectOption({ index: 1 });
    await page.getByTestId('choices-figure').waitFor();
    const roomRows = await tableRows(page, 'items');
    expect(roomRows.map((row) => [row[0], row[2], row[3], row[4], row[5], row[6]])).toEqual([
      ['1번', '6', '66.7%', '0.773', '1', ''],
      ['2번', '6', '33.3%', '0.883', '0', '오답 보기가 정답보다 많이 선택됨'],
      ['3번', '6', '66.7%', '0.442', '0', ''],
      ['4번', '6', '50.0%', '0.156', '0', '변별도 낮음'],
    ]);
    expect(await tableRows(page, 'choices')).toEqual([
      ['1번', '4 (정답)', '1', '0', '0', '1'],
      ['2번', '0', '2 (정답)', '4', '0', '0'],
      ['3번', '2', '0', '4 (정답)', '0', '0'],
      ['4번', '3', '0', '0', '3 (정답)', '0'],
    ]);
    expect(await page.getByTestId('review-item').allTextContents()).toEqual([expect.stringMatching(/^2번 오답 보기가 정답보다/), expect.stringMatching(/^4번 변별도 낮음/)]);
    // The bars are drawn: difficulty blue, the key's segments green.
    expect(await pixelsOf(page, 'items', '#2e90fa')).toBeGreaterThan(200);
    expect(await pixelsOf(page, 'choices', '#12b76a')).toBeGreaterThan(200);
    await shoot(page, 'items', 'items-room');
    await shoot(page, 'choices');

    // The mastery map: 가영 87.5% / 0%, 나래 62.5% / 100% (a self-study answer), 다온 33.3% / 100% (a class quiz answer); the rest without evidence.
    const dash = seed.chapters.slice(2).map(() => '—');
    expect(await tableRows(page, 'mastery')).toEqual([
      ['가영', '87.5%', '0.0%', ...dash],
      ['나래', '62.5%', '100.0%', ...dash],
      ['다온', '33.3%', '100.0%', ...dash],
    ]);
    expect(await pixelsOf(page, 'mastery', '#32d583')).toBeGreaterThan(500);
    expect(await pixelsOf(page, 'mastery', '#f97066')).toBeGreaterThan(500);
    await shoot(page, 'mastery');
    // Evidence one click away: on the heatmap (나래's chapter-0 cell, the one amber cell)…
    const amber = await firstPixelOf(page, 'mastery', '#fdb022');
    await page.mouse.click(amber.x, amber.y);
    await expect.poll(() => page.getByTestId('evidence').locator('h3').textContent()).toBe(`나래 · 1장 ${seed.chapters[0]!.title} — 62.5%`);
    await expect.poll(() => page.getByTestId('evidence-item').allTextContents()).toEqual([
      `[강의 질문] 평균은 무엇인가요? — 100.0% (강의 1장 ${seed.chapters[0]!.title})`,
      '[시험] 데이터의 흩어진 정도를 나타내는 값은? — 100.0% (1장 평가)',
      '[시험] 표본 평균이 모평균의 불편추정량인 이유를 설명하시오. — 50.0% (1장 평가)',
      '[시험] 정규분포의 모양을 결정하는 두 모수는? — 0.0% (1장 평가)',
    ]);
    // …and on the table's cell buttons, which the keyboard and screen readers reach.
    await page.getByTestId('mastery-show-table').click();
    await page.getByTestId('mastery-cell').nth(1 + 0).click();
    await expect.poll(() => page.getByTestId('evidence-item').allTextContents()).toEqual([
      '[강의 질문] 분산은 무엇을 재나요? — 0.0% (강의 2장 ' + seed.chapters[1]!.title + ')',
      '[손 들기] 제곱을 왜 하나요? — 점수 없음 (강의 2장 ' + seed.chapters[1]!.title + ')',
    ]);
    await page.getByTestId('mastery-cell').nth(2 * seed.chapters.length + 1).click();
    await expect.poll(() => page.getByTestId('evidence-item').allTextContents()).toEqual([`[퀴즈] ${CLASS_QUIZ_QUESTION} — 100.0% (수업 퀴즈)`]);

    expect(await tableRows(page, 'funnel')).toEqual(
      seed.chapters.map((chapter, index) => {
        const figures = index === 0 ? ['2', '2', '0', '0', '0'] : index === 1 ? ['2', '1', '1', '1', '1'] : ['1', '1', '0', '0', '0'];
        return [`${chapter.index + 1}장`, chapter.title, ...figures];
      }),
    );
    expect(await pixelsOf(page, 'funnel', '#f04438')).toBeGreaterThan(50);
    await shoot(page, 'funnel');

    // Exports: the canvas as PNG, the figures as SVG, the server's CSV.
    const png = await downloaded(page, 'funnel-png');
    expect(png.name).toBe('funnel.png');
    expect(png.bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    const svg = await downloaded(page, 'mastery-svg');
    expect(svg.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.text).toContain('>87.5%</text>');
    expect(svg.text).toContain('>가영</text>');
    const csv = await downloaded(page, 'funnel-csv');
    expect(csv.text.split('\r\n')[2]).toBe(`2,${seed.chapters[1]!.title},2,1,1,1,1`);

    await page.screenshot({ path: path.join(shots, 'page.png'), fullPage: true });
    console.info(`AN8 screenshots in ${shots}`);
    expect(problems).toEqual([]);
  }, 120_000);
  it('AN8 a class with nothing yet: the page says so, draws empty charts and shows no error', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => '');
    const browserContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.onTestFinished(() => browserContext.close());
    await signInContext(browserContext, booted.app, booted.teacher);
    const page = await browserContext.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
    await page.goto(`${booted.app.url}/analytics.html?class=${booted.classId}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#items-empty').isVisible()).toBe(true);
    expect(await page.getByTestId('items-figure').count()).toBe(0);
    expect(await tableRows(page, 'mastery')).toEqual([]);
    expect((await tableRows(page, 'funnel')).map((row) => row.slice(2))).toEqual(booted.material.chapters.map(() => ['0', '0', '0', '0', '0']));
    expect(await page.getByTestId('analytics-error').textContent()).toBe('');
    // Another instructor's class: the server's 404 in Korean, nothing drawn.
    await page.goto(`${booted.app.url}/analytics.html?class=00000000-0000-0000-0000-000000000000`);
    await expect.poll(() => page.getByTestId('analytics-error').textContent()).toMatch(/[가-힣]/);
    expect(await page.getByTestId('mastery-figure').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('AN11 with seeded figures, the table shown and evidence open, axe finds no violations', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => '');
    await seedAnalyticsClass(booted, clients);
    // bypassCSP only lets the test inject axe-core (an inline script the page's CSP rightly refuses).
    const browserContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    context.onTestFinished(() => browserContext.close());
    await signInContext(browserContext, booted.app, booted.teacher);
    const page = await browserContext.newPage();
    await page.goto(`${booted.app.url}/analytics.html?class=${booted.classId}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: WAIT_TIMEOUT_MS });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('assessment-select').selectOption({ index: 1 });
    await page.getByTestId('choices-figure').waitFor();
    await page.getByTestId('mastery-show-table').click();
    await page.getByTestId('mastery-cell').first().click();
    await page.getByTestId('evidence-item').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

const PROBLEM_TEXTS = ['데이터의 흩어진 정도를 나타내는 값은?', '표본 평균이 모평균의 불편추정량인 이유를 설명하시오.', '정규분포의 모양을 결정하는 두 모수는?'];
