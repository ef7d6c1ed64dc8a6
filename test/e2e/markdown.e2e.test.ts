/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - V1 — Raw HTML is text. In lecture, tutor and assistant markdown, HTML-like text (`<form>`, `<br>`,
 *   `<script>alert(1)</script> 뒤의 문장`, `<div>`, `<img onerror=…>`) is shown literally, escaped …
 * - KX2 — Math problems on the page and in a room. The host page's math problem job view and its finished set typeset
 *   questions, choices (a fraction as a fraction), answers and explanations …
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf } from '../../scripts/pdf-fixtures.js';
import { fillBox, launchBrowser, setRange, signInBrowser } from '../support/browser.js';
import { ownMaterial } from '../support/accounts.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * V1 (test/SPEC.md): pages show what the material says. An HTML tutorial as a PDF goes through the real product
 * (ingest, the offline lecture, the stream) into the classroom page in a real chromium: its tags are shown as text
 * — nothing parsed, nothing stripped, no script run — while markdown (bold, lists) and math still render.
 */

const TAGS_LINE = 'HTML 문서에서 입력 양식은 <form> 태그로 시작하고 줄은 <br> 태그로 바꿉니다.';
const SCRIPT_LINE = '<script>alert(1)</script> 뒤의 문장도 학생에게 그대로 보여야 합니다.';

let app: TestApp;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  app = await startTestApp();
  const bytes = await buildPdf({
    title: 'HTML 입문',
    korean: true,
    pages: [
      {
        heading: 'HTML 입문',
        lines: [
          '- 첫째 항목은 문서의 머리입니다',
          '- 둘째 항목은 문서의 몸통입니다',
          '',
          TAGS_LINE,
          SCRIPT_LINE,
          '**굵은 글씨**로 강조한 말은 HTML 문서에서도 중요한 뜻을 가집니다.',
          '상자의 넓이는 한 변이 x일 때 $x^2 + 1$ 로 계산하는 예를 봅니다.',
        ],
      },
    ],
  });
  const { material } = await app.materials.ingest({ bytes, filename: 'html-tutorial.pdf' });
  // An upload is its owner's: the page previews it signed in as that instructor ("강의 미리 보기").
  await ownMaterial(app, material.id);
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

describe('lecture markdown on the classroom page', () => {
  it('V1 an HTML tutorial shows <form>, <br> and <script>…</script> as text and keeps the rest of the paragraph; bold, lists and math render', async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await signInBrowser(context, app);
    const page = await context.newPage();
    const dialogs: string[] = [];
    const problems: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));

    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: 'HTML 입문' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '태그');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(page, '[data-testid=speed]', 200);
    // The lecture's question comes after the whole paragraph: by then everything above it is on the page.
    await page.locator('[data-testid=question-card][data-kind=question]').first().waitFor();

    const lecture = page.locator('[data-testid=lecture-text]');
    const text = (await lecture.allTextContents()).join('\n');
    expect(text).toContain('<form>');
    expect(text).toContain('<br>');
    expect(text).toContain('<script>alert(1)</script> 뒤의 문장도 학생에게 그대로 보여야 합니다.');
    expect(text).toContain('HTML 문서에서 입력 양식은 <form> 태그로 시작하고 줄은 <br> 태그로 바꿉니다.');
    // Nothing of it became an element, and no script ran.
    expect(await lecture.locator('form, br, script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    // Markdown and math still render.
    expect(await lecture.locator('strong', { hasText: '굵은 글씨' }).count()).toBe(1);
    expect(await lecture.locator('li').allTextContents()).toEqual(expect.arrayContaining(['첫째 항목은 문서의 머리입니다', '둘째 항목은 문서의 몸통입니다']));
    expect(await lecture.locator('.katex').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('V1 tutor and assistant replies render through the same markdown: raw HTML as text, markdown and math as markup', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/classroom.html`);
    const html = await page.evaluate(async () => {
      const load = new Function('path', 'return import(path)') as (path: string) => Promise<{ markdownToSafeHtml(source: string): string }>;
      const markdown = await load('/build/markdown.js');
      return markdown.markdownToSafeHtml('<div><b>굵게</b></div> **진짜 굵게** <img src=x onerror=alert(1)>\n\n- 목록 <i>항목</i>\n\n$\\frac{1}{2}$ <style>p{}</style>');
    });
    expect(html).toContain('&lt;div&gt;&lt;b&gt;굵게&lt;/b&gt;&lt;/div&gt;');
    expect(html).toContain('<strong>진짜 굵게</strong>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<li>목록 &lt;i&gt;항목&lt;/i&gt;</li>');
    expect(html).toContain('$\\frac{1}{2}$ &lt;style&gt;p{}&lt;/style&gt;');
  });
});
