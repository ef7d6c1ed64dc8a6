/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LB1 — No identifiers on a Korean page. Every instructor and student page, in the states the tests reach (a
 *   generated exam with complaints, published, taken, ended, graded; the monitor's progress; the result and profile;
 *   AI 품질 with samples), shows no enum name, snake_case identifier, model task name, "general", English word with a
 *   Korean particle, or an item count said twice.
 * - LB2 — AI 품질 says what it is. On the offline model the page says first that its grades are rule-based estimates;
 *   agents are named in Korean only; a JSON output (even cut at 300 characters) reads as fields and values.
 * - LB3 — Sign-up open is said. The admin's account page says when anyone may sign up and an invite is not needed.
 * - LB4 — Class codes. Lowercase joins; a code typed with a character no code uses is answered (page and API) with
 *   those characters and the 25 a code uses.
 * - LB5 — Transcripts render markdown. What a model wrote is rendered (sanitised) on the monitor; what people typed
 *   stays text.
 * - LB7 — Topics from the material. The host's 주제 list is the picked material's key terms grouped by chapter (`GET
 *   /api/materials/:id/key-terms`), never fixed names of another course; a term is sent as `focus` and the quiz is
 *   made; the raise-hand example names a term of the student's material.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { checkProblemSet } from '../../src/exams/exam-checks.js';
import { buildPdf } from '../../scripts/pdf-fixtures.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { uploadPdf } from '../support/data-flow.js';
import { call } from '../support/http-call.js';
import { MADE_UP_PAGES } from '../support/made-up-chapters.js';
import { signInContext } from '../support/browser-account.js';
import { bootExamClass, draft, end, gradedResults, join, PROBLEMS, publish, type Booted } from '../support/exam-class.js';
import { fixtureScope, sharedFixture } from '../fixtures/shared-app.js';

/**
 * LB1–LB7 (test/SPEC.md, "Words and labels"): the Korean pages in a real chromium against the real app (memory store,
 * offline model, every model call sampled for the AI 품질 console). LB1 walks every instructor and student page
 * through the states the other tests reach (an exam generated with its validator's complaints, published, taken,
 * ended and graded; the monitor's exam progress; the student's result and profile; the AI 품질 console with graded
 * samples) and scans what a person reads (text, options, placeholders, labels) for enum names, identifiers, task
 * names and English labels.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' };
const DESK = { viewport: { width: 1366, height: 900 }, locale: 'ko-KR' };

/** What must never reach a Korean page: each pattern with what it catches. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\b(?:Correct|Incorrect|Partial_Correct|Ungraded|Short_Keyword|Descriptive|Causal_Explanation|Definition|Intermediate|Advanced)\b/u, 'an enum name'],
  [/\b[a-z]+_[a-z_]+\b/u, 'a snake_case identifier'],
  [/\b(?:lecture|tutor|assistant|quiz|math|exam|materials|retrieval|critic)\.[a-z-]+\b/u, 'a model task name'],
  [/\bgeneral\b/iu, 'an English label ("general")'],
  [/\b(?!lectern)[a-z]{4,}(?:과|와|을|를|이|가|은|는|의|에|로)(?![a-z])/u, 'an English word wearing a Korean particle'],
  [/\((\d+)문항\)\s*\(\1문항/u, 'the item count twice'],
];

let booted: Booted;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
});

/** A fresh app (stopped when the test ends) with a class on the sample, every model call sampled for AI 품질. */
async function boot(context: TestContext): Promise<void> {
  booted = await bootExamClass(context, 'memory', () => '', { QUALITY_SAMPLE_RATE: '1' });
}

/**
 * The same, made once for the tests that only read the account page or join the class under a nickname of their own
 * (LB3, LB4, LB5, LB7): nothing one of them does shows on what another looks at. LB1 and LB2 read every page and the
 * AI 품질 console whole, so they keep an app of their own.
 */
const shared = sharedFixture(
  async () => {
    const scope = fixtureScope();
    return { booted: await bootExamClass(scope.context, 'memory', () => '', { QUALITY_SAMPLE_RATE: '1' }), scope };
  },
  ({ scope }) => scope.close(),
);
function useShared(): void {
  booted = shared().booted;
}

async function open(options: Parameters<Browser['newContext']>[0], problems: string[], instructor: boolean): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  if (instructor) await signInContext(context, booted.app, booted.teacher);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  page.on('dialog', (dialog) => void dialog.dismiss());
  return page;
}

/**
 * What a person reads on the page: its visible text, every option of every select, placeholders, aria-labels and
 * titles. Addresses and e-mail addresses are left out (a host name is not a label), so is the lecture's own text
 * (material words, checked by the lecture's tests).
 */
async function readable(page: Page): Promise<string> {
  const text = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { body: { cloneNode(deep: boolean): unknown; querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null; textContent: string | null }> } } }).document;
    const attributes: string[] = [];
    for (const node of Array.from(doc.body.querySelectorAll('[placeholder], [aria-label], [title]'))) {
      for (const name of ['placeholder', 'aria-label', 'title']) attributes.push(node.getAttribute(name) ?? '');
    }
    const options = Array.from(doc.body.querySelectorAll('option')).map((option) => option.textContent ?? '');
    const body = (doc.body as unknown as { innerText: string }).innerText;
    return [body, ...options, ...attributes].join('\n');
  });
  return text.replace(/https?:\/\/\S+/gu, '').replace(/\S+@\S+/gu, '');
}

async function scan(page: Page, where: string, found: string[]): Promise<void> {
  const text = await readable(page);
  for (const [pattern, what] of FORBIDDEN) {
    const match = pattern.exec(text);
    if (match) found.push(`${where}: ${what} «${text.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30).replace(/\s+/gu, ' ')}»`);
  }
}

/**
 * A generated exam as the job stores it: its title ends with its count ("기초 통계 시험 (3문항)"); `complained`: one
 * item has no key terms and carries the validator's complaint.
 */
async function generatedExam(complained: boolean) {
  const problems = PROBLEMS.map((problem) => (complained && problem.id === 3 ? { ...problem, key_keywords: [] } : problem));
  const plan = {
    planning_strategy: '분산과 추정을 묻는다.',
    planned_items: problems.map((problem) => ({ id: problem.id, target_topic: '분산', question_type: problem.type, intent_type: 'Definition' as const, complexity_level: 'Basic' as const, source_reference_hint: '1장' })),
  };
  const complaints = checkProblemSet(problems, plan);
  if (complained) expect(complaints.map((complaint) => complaint.message).join(' ')).toContain('핵심 키워드');
  return booted.app.exams.create({ accountId: booted.teacher.accountId, materialId: booted.material.id, title: `기초 통계 시험 (${problems.length}문항)`, request: { count: 3, descriptive: 1 }, plan, problems, complaints, valid: complaints.length === 0, rounds: 1 });
}

describe('words and labels', () => {
  it('LB1 no page, in any state the tests reach, shows an enum name, an identifier, a task name or an English label', async (context) => {
    await boot(context);
    const problems: string[] = [];
    const found: string[] = [];
    const { app } = booted;
    const live = await generatedExam(false);
    const draftExam = await generatedExam(true);
    await publish(booted, live.examId);

    // A student on a phone joins, writes, the exam ends; the sheet shows the graded result and the profile.
    const phone = await open(PHONE, problems, false);
    await phone.goto(`${app.url}/classroom.html`);
    await scan(phone, 'classroom (setup)', found);
    await fillBox(phone.locator('[data-testid=nickname]'), '서연');
    await fillBox(phone.locator('[data-testid=class-code]'), booted.classCode.toLowerCase());
    await phone.click('[data-testid=join-class]');
    await phone.locator('[data-testid=connection][data-state=connected]').waitFor();
    await phone.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
    await fillBox(phone.locator('[data-testid=exam-answer]').first(), '분산');
    await scan(phone, 'classroom (exam sheet)', found);
    const other = await join(booted, '민지');
    expect((await draft(booted, live.examId, other.headers, { '1': '평균', '2': '모르겠다', '3': '평균과 표준편차' })).status).toBe(200);
    await expect.poll(() => phone.getByTestId('exam-saved').textContent()).toMatch(/저장됨/u);
    await end(booted, live.examId);
    await gradedResults(booted, live.examId, 2);
    await phone.locator('[data-testid=exam-result][data-status=graded]').waitFor();
    await phone.getByTestId('exam-report').waitFor();
    await phone.locator('[data-testid=exam-profile] summary').click();
    await phone.getByTestId('learner-profile').waitFor();
    await scan(phone, 'classroom (result and profile)', found);

    // Samples for the AI 품질 console: an exam plan (JSON) and an answer the offline critic refuses.
    app.quality.sampler.offer({ task: 'exam.plan', system: '시험 출제 계획을 세웁니다.', prompt: '계획을 JSON으로 쓰세요.', input: { material: '기초 통계' }, output: JSON.stringify({ planning_strategy: '분산과 추정을 묻는다.', planned_items: [{ id: 1, target_topic: '분산', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' }] }), accountId: booted.teacher.accountId });
    app.quality.sampler.offer({ task: 'assistant.answer', system: '학생의 질문에 자료로 답합니다.', prompt: '질문에 답하세요.', input: { question: '노트북 추천해줘' }, output: '음식 추천을 도와드리겠습니다. 오늘은 파스타를 추천합니다.', accountId: booted.teacher.accountId });
    await app.quality.sampler.settled();
    while ((await app.quality.grader.runOnce()).graded > 0);

    const desk = await open(DESK, problems, true);
    for (const path of ['/dashboard.html', '/upload.html', '/account.html', '/quality.html', `/host.html?class=${booted.classId}`]) {
      await desk.goto(`${app.url}${path}`);
      await desk.getByTestId('account-email').waitFor();
      if (path === '/quality.html') await desk.locator('[data-testid=quality-agent]').first().waitFor();
      if (path === '/account.html') await expect.poll(() => desk.getByTestId('signup-mode').textContent()).not.toBe('');
      await scan(desk, path, found);
    }
    // The host: the generated exam in the editor (its complaints), then the ended exam's results.
    await desk.goto(`${app.url}/host.html?class=${booted.classId}&exam=${draftExam.examId}`);
    await desk.getByTestId('exam-view-title').waitFor();
    await desk.locator('[data-testid=exam-box] [data-testid=exam-complaint], .exam-complaints li').first().waitFor();
    await scan(desk, 'host (exam editor)', found);
    await desk.goto(`${app.url}/host.html?class=${booted.classId}&exam=${live.examId}`);
    await desk.getByTestId('exam-distribution-row').first().waitFor();
    await desk.locator('[data-testid=exam-student] summary, details[data-session-id] summary').first().click();
    await scan(desk, 'host (exam results)', found);
    // The monitor: the class's exams (list labels) and the progress of one.
    await desk.goto(`${app.url}/monitor.html?class=${booted.classId}`);
    await desk.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await desk.getByTestId('exam-progress-row').first().waitFor();
    await scan(desk, 'monitor (exam progress)', found);
    for (const path of ['/', '/play.html', '/signin.html', '/signup.html']) {
      await desk.goto(`${app.url}${path}`);
      await desk.locator('main').waitFor();
      await scan(desk, path, found);
    }
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it('LB2 the AI 품질 page says, on the offline model, that its grades are heuristic, names agents in Korean and shows a JSON output as a readable report', async (context) => {
    await boot(context);
    const problems: string[] = [];
    const { app } = booted;
    const plan = { planning_strategy: '분산과 추정을 묻는다.', planned_items: Array.from({ length: 6 }, (_, index) => ({ id: index + 1, target_topic: `분산 ${index + 1}`, question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' })) };
    app.quality.sampler.offer({ task: 'exam.plan', system: '시험 출제 계획을 세웁니다.', prompt: '계획을 JSON으로 쓰세요.', input: { material: '기초 통계' }, output: JSON.stringify(plan), accountId: booted.teacher.accountId });
    await app.quality.sampler.settled();
    while ((await app.quality.grader.runOnce()).graded > 0);
    const page = await open(PHONE, problems, true);
    await page.goto(`${app.url}/quality.html`);
    const card = page.locator('[data-testid=quality-agent][data-agent="exam.plan"]');
    await card.waitFor();
    expect(await card.locator('h2').textContent()).toBe('시험 출제 계획');
    await page.getByTestId('quality-heuristic').waitFor();
    expect(await page.getByTestId('quality-heuristic').textContent()).toMatch(/오프라인 모드.*규칙.*추정치/u);
    // The excerpt (cut at 300 characters, so no longer valid JSON) reads as fields and values, no braces or keys.
    const report = card.getByTestId('json-report');
    await report.waitFor();
    const text = (await report.innerText()).replace(/\s+/gu, ' ');
    expect(text).toContain('출제 전략');
    expect(text).toContain('분산과 추정을 묻는다.');
    expect(text).toContain('단답형');
    expect(await card.getByTestId('worst-case').innerText()).not.toMatch(/[{}"]|planning_strategy|Short_Keyword/u);
    expect(problems).toEqual([]);
  });

  it('LB3 the account page says when sign-up is open and an invite is not needed', async () => {
    useShared();
    const problems: string[] = [];
    const page = await open(DESK, problems, true);
    await page.goto(`${booted.app.url}/account.html`);
    const line = page.getByTestId('signup-mode');
    await expect.poll(() => line.textContent()).toMatch(/누구나 가입할 수 있습니다.*초대는 필요하지 않습니다/u);
    expect(await line.getAttribute('data-mode')).toBe('open');
    expect(problems).toEqual([]);
  });

  it('LB4 a class code in lowercase joins; one typed with a letter no code uses (O, 1, S…) is answered with the characters a code uses, on the page and by the API', async () => {
    useShared();
    const problems: string[] = [];
    const page = await open(PHONE, problems, false);
    await page.goto(`${booted.app.url}/classroom.html`);
    await fillBox(page.locator('[data-testid=nickname]'), '도윤');
    const wrong = `O${booted.classCode.slice(1, 5)}1`;
    await fillBox(page.locator('[data-testid=class-code]'), wrong.toLowerCase());
    await page.click('[data-testid=join-class]');
    const error = page.getByTestId('join-error');
    await expect.poll(() => error.textContent()).toMatch(/「O」, 「1」 글자는 수업 코드에 쓰이지 않습니다/u);
    expect(await error.textContent()).toContain('A C D E F G H J K M N P Q R T U V W X Y 3 4 6 7 9');
    // The API says the same (a client of its own, or a typo the page let through).
    const refused = await fetch(`${booted.app.url}/api/classes/${wrong}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nickname: '도윤' }) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('A C D E F G H J K M N P Q R T U V W X Y 3 4 6 7 9');
    // Lowercase is the same code.
    await fillBox(page.locator('[data-testid=class-code]'), booted.classCode.toLowerCase());
    await page.click('[data-testid=join-class]');
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    expect(problems).toEqual([]);
  });

  it('LB5 the monitor shows a transcript’s markdown rendered (bold as bold, never "**"), sanitised', async () => {
    useShared();
    const problems: string[] = [];
    const student = await open(PHONE, problems, false);
    await student.goto(`${booted.app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '하준');
    await fillBox(student.locator('[data-testid=class-code]'), booted.classCode);
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=raise-hand]:not([disabled])').waitFor();
    await student.click('[data-testid=raise-hand]');
    await student.locator('[data-testid=hand-input]').waitFor({ state: 'visible' });
    await fillBox(student.locator('[data-testid=hand-input]'), '평균이 무엇인가요? <img src=x onerror=alert(1)>');
    await student.click('[data-testid=hand-send]');
    // The assistant's answer has finished (its bold heading rendered for the student too) before the record is read.
    await student.locator('#hand-log [data-testid=reply][data-state=complete] strong').first().waitFor();

    const teacher = await open(DESK, problems, true);
    await teacher.goto(`${booted.app.url}/monitor.html?class=${booted.classId}`);
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await teacher.locator('[data-testid=roster-entry]', { hasText: '하준' }).getByTestId('student-open').click();
    const transcript = teacher.getByTestId('transcript-panel');
    await transcript.locator('[data-testid=transcript-text] strong').first().waitFor();
    expect(await transcript.innerText()).not.toContain('**');
    // The student's own words stay text: the tag they typed is shown, not made into an element.
    expect(await transcript.innerText()).toContain('<img src=x onerror=alert(1)>');
    expect(await transcript.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('LB7 the host’s quiz topics are the material’s own key terms by chapter (no trade-domain names), a term makes a quiz about it, and the raise-hand example names a term of the material', async () => {
    useShared();
    const problems: string[] = [];
    const { app } = booted;
    const bytes = await buildPdf({ title: '자료구조 입문', korean: true, pages: MADE_UP_PAGES.slice(2).map((page) => {
      const [heading, ...lines] = page.split('\n');
      return { heading: heading ?? '', lines };
    }) });
    const materialId = (await uploadPdf(app, bytes, 'ds.pdf', booted.teacher)).id;
    const terms = await call(`${app.url}/api/materials/${materialId}/key-terms`, 'GET', { headers: booted.teacher.bearer });
    expect(terms.status, JSON.stringify(terms.body)).toBe(200);
    const all = (terms.body.chapters as { terms: string[] }[]).flatMap((chapter) => chapter.terms);
    expect(all.length, JSON.stringify(terms.body)).toBeGreaterThan(0);
    expect(all.some((term) => /배열|연결 리스트|스택|노드/u.test(term)), all.join(', ')).toBe(true);

    // A class on this material (a class's quiz is written from its own material).
    const created = await call(`${app.url}/api/classes`, 'POST', { headers: booted.teacher.bearer, body: { name: '자료구조 반', materialId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const host = await open(DESK, problems, true);
    await host.goto(`${app.url}/host.html?class=${String(created.body.classId)}`);
    await host.click('[data-testid=generate-box] summary');
    await host.getByTestId('material-select').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=material-select]', materialId);
    const topics = host.getByTestId('topic-select');
    await expect.poll(() => topics.locator('option').count()).toBeGreaterThan(1);
    const offered = await topics.locator('option').allTextContents();
    expect(offered[0]).toBe('전체');
    for (const term of offered.slice(1)) expect(all, term).toContain(term);
    expect(offered.join(' ')).not.toMatch(/협상 전략|국가별 지침|서류 점검|general/u);
    expect(await topics.locator('optgroup').first().getAttribute('label')).toMatch(/^1장 /u);

    // A quiz on one term: the server is asked for the passages about it.
    const term = offered[1]!;
    const requests: string[] = [];
    host.on('request', (request) => {
      if (request.method() === 'POST' && /\/quiz$/u.test(new URL(request.url()).pathname)) requests.push(request.postData() ?? '');
    });
    await topics.selectOption({ label: term });
    await host.getByTestId('generate-quiz').click();
    await expect.poll(() => requests.length).toBe(1);
    expect(JSON.parse(requests[0]!)).toMatchObject({ focus: term });
    await expect.poll(() => host.locator('#quiz-status').textContent()).toMatch(/퀴즈를 만들었습니다/u);

    // A student of the class: the question example is one of the material's terms, not a statistics question.
    const phone = await open(PHONE, problems, false);
    await phone.goto(`${app.url}/classroom.html`);
    await fillBox(phone.locator('[data-testid=nickname]'), '지호');
    await fillBox(phone.locator('[data-testid=class-code]'), String(created.body.code));
    await phone.click('[data-testid=join-class]');
    await phone.locator('[data-testid=connection][data-state=connected]').waitFor();
    await expect.poll(() => phone.getByTestId('hand-input').getAttribute('placeholder')).toMatch(/^예: .+, 조금 더 쉽게 설명해 주세요\.$/u);
    const example = (await phone.getByTestId('hand-input').getAttribute('placeholder')) ?? '';
    expect(all.some((entry) => example.includes(entry)), example).toBe(true);
    expect(example).not.toMatch(/기댓값|확률/u);
    expect(problems).toEqual([]);
  }, 120_000);
});

