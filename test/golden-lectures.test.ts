/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GL1 — Golden files. The sample 기초 통계, the English slide deck and the Korean physics handout produce exactly
 *   `test/golden/<name>.md` (title, chapters, lectures with `[질문]`, model answers, sub-concepts …
 * - GL2 — Question placement. Each chapter has at most one question per announced block (a connective between any two
 *   questions) and at least one …
 * - GL3 — Concepts and answers. Every sub-concept and choice is a concept phrase (SC1: no digits, years, variables,
 *   function words such as `이때`, verb stems such as `움직이`) written in the chapter …
 * - GL4 — Titles. The material titles are 기초 통계, Describing Data and 일반물리학 I (PDF title or first heading, never the
 *   file name); no chapter is named "Slide n" …
 * - GL5 — English deck. Slide titles are announced in Korean connectives without their article and with the particle
 *   their sound takes (`Variables and Data Types를`, `Mean을`, `Standard Deviation을`) …
 * - GL6 — No chapter of front matter. (`test/chapter-plan.test.ts`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN_DIR, renderAllGolden, type GoldenMaterial } from '../scripts/golden-lectures.js';
import { SAMPLE_DECKS } from '../scripts/sample-decks.js';
import { DEFECTS, countDefects, findDefects } from '../scripts/golden-defects.js';
import { NO_QUESTION_LINE } from '../src/lecture/offline/offline-lecture.js';
import { isConceptPhrase, isVerbStem } from '../src/lecture/material-concepts.js';
import { parseLecture } from '../src/lecture/marker-parser.js';
import { isGenericTitle } from '../src/materials/generic-titles.js';

/**
 * GL1–GL5 (test/SPEC.md "Offline lecture"): the golden lectures of the three sample PDFs (scripts/sample-decks.ts),
 * produced through the real product offline, are what test/golden/*.md says — a change to what students read shows
 * here as a diff, and `npm run golden` accepts it after a reading — and they keep the rules a reader checks first.
 */

let files: Map<string, string>;
let materials: GoldenMaterial[];

beforeAll(async () => {
  ({ files, materials } = await renderAllGolden());
});

const CONNECTIVE = /^(?:먼저|이어서) (.+)(?:을|를) 살펴보겠습니다\.$/gmu;
const NOTHING_TAUGHT = '이 부분은 자료의 표지, 목차나 수업 안내라서';
/** Course administration and front matter that must never be lectured or asked about. */
const FRONT_MATTER = /목차|평가 방법|중간고사|출석|전자출결|연구실|Agenda|Prof\.|Fall Semester|2024년|\.{4,}/u;

const chapters = () => materials.flatMap((material) => material.chapters.map((chapter) => ({ material, chapter })));

describe('GL1 golden lectures', () => {
  it.each(SAMPLE_DECKS.map((deck) => deck.name))('%s reads as its file in test/golden (update with `npm run golden`)', (name) => {
    const expected = readFileSync(path.join(GOLDEN_DIR, `${name}.md`), 'utf8');
    expect(files.get(`${name}.md`), `the offline lecture of ${name} changed: read the diff, then run \`npm run golden\``).toBe(expected);
  });
});

describe('GL2 questions come after what they ask about, never on front matter', () => {
  it('asks at most one question per taught block, each after its block, and none where nothing was taught', () => {
    for (const { material, chapter } of chapters()) {
      const where = `${material.deck.name} ${chapter.title}`;
      const segments = parseLecture(chapter.raw);
      const questions = segments.filter((segment) => segment.type === 'question');
      const blocks = Array.from(chapter.raw.matchAll(CONNECTIVE)).length;
      // A chapter of front matter, or one with no askable concept, asks nothing and says so in one line.
      if (chapter.raw.includes(NOTHING_TAUGHT) || chapter.raw.includes(NO_QUESTION_LINE)) expect(questions, where).toHaveLength(0);
      else expect(questions.length, where).toBeGreaterThanOrEqual(1);
      expect(questions.length, where).toBeLessThanOrEqual(Math.max(blocks, 1));
      // Between two questions the lecture announces a new block: never two questions on one block.
      const parts = chapter.raw.split(/\[질문\][\s\S]*?\[\\질문\]/u).slice(1, -1);
      for (const part of parts) expect(part, where).toMatch(CONNECTIVE);
      const said = chapter.raw.replace(/^# .*$/mu, '').replace(new RegExp(`^${NOTHING_TAUGHT}.*$`, 'mu'), '');
      expect(said, where).not.toMatch(FRONT_MATTER);
    }
  });

  it('keeps the cover and contents of the physics handout out of every lecture and of the chapter titles, and its admin page unlectured', () => {
    const physics = materials.find((material) => material.deck.name === 'physics-handout');
    const lectured = physics?.chapters.map((chapter) => chapter.raw).join('\n') ?? '';
    expect(lectured).toContain('변위는 물체의 처음 위치에서 나중 위치까지의 위치 변화입니다.');
    expect(lectured).not.toMatch(/평가 방법|결석|F 학점|김민수/u);
    // The cover and contents pages join the first chapter (no chapter is called 목차), whose lecture skips them.
    expect(physics?.chapters.map((chapter) => chapter.title)).not.toContain('목차');
    expect(physics?.chapters[0]?.pages).toBe('1–4');
    expect(physics?.chapters.filter((chapter) => chapter.raw.includes(NOTHING_TAUGHT))).toEqual([]);
  });
});

describe('GL3 sub-concepts and "which part?" choices are concepts of the material', () => {
  it('never offers a number, a year, a variable, a function word or a verb form, and only what the chapter says', () => {
    for (const { material, chapter } of chapters()) {
      const lecture = chapter.raw.toLowerCase().replace(/\s+/gu, '');
      const offered = [
        ...chapter.choices,
        // `X의 정의`, `X의 핵심 성질`: the dialogue a passage with too little to split gets, built on the asked concept.
        ...chapter.questions.flatMap((question) => question.subconcepts.map((part) => part.concept)).filter((concept) => !/의 (?:정의|예시|핵심 성질|뜻)$/u.test(concept)),
      ];
      for (const concept of offered) {
        const where = `${material.deck.name} ${chapter.title}: ${concept}`;
        expect(concept, where).not.toMatch(/\d|^[A-Za-z]{1,2}[₀-₉ₙᵢ]*$/u);
        expect(isConceptPhrase(concept), where).toBe(true);
        expect(isVerbStem(concept.split(' ').at(-1) ?? '', chapter.raw), where).toBe(false);
        expect(lecture, where).toContain(concept.toLowerCase().replace(/\s+/gu, ''));
      }
    }
  });

  it('answers each question with sentences of the lecture, never with the question itself or a worked example', () => {
    for (const { material, chapter } of chapters()) {
      for (const question of chapter.questions) {
        const where = `${material.deck.name} ${question.text}`;
        expect(question.modelAnswer, where).not.toBe(question.text);
        expect(question.modelAnswer, where).not.toMatch(/^(?:예|예제|예를 들어)|=|\d+\s*[×/+]\s*\d+/u);
        for (const sentence of question.modelAnswer.split(/(?<=[.!?])\s+/u)) expect(chapter.raw, where).toContain(sentence);
      }
    }
  });
});

describe('GL4 titles say what the material and its chapters are', () => {
  it('takes the material title from the PDF title or its first heading, never the file name', () => {
    expect(materials.map((material) => material.title)).toEqual(['기초 통계', 'Describing Data', '일반물리학 I', 'CS 3600: Introduction to Artificial Intelligence']);
    for (const material of materials) expect(material.deck.filename).not.toContain(material.title);
  });

  it('never names a chapter "Slide n", after the cover, or after an agenda or an administrative page', () => {
    for (const { material, chapter } of chapters()) {
      expect(isGenericTitle(chapter.title), chapter.title).toBe(false);
      expect(chapter.title, material.deck.name).not.toMatch(/Slide \d|Describing Data|Agenda|평가 방법|일반물리학/u);
    }
  });

  it('shows each chapter title once, as the lecture heading', () => {
    for (const { chapter } of chapters()) {
      expect(chapter.raw.startsWith(`# ${chapter.title}\n`), chapter.title).toBe(true);
      // No line of the lecture repeats it (or the page heading it came from, numbered or not).
      const bare = (line: string) => line.replace(/^#\s+/u, '').replace(/^\d{1,2}[.)]\s+/u, '').trim();
      const lines = chapter.raw.split('\n').filter((line) => bare(line) === bare(chapter.title));
      expect(lines, chapter.title).toEqual([`# ${chapter.title}`]);
    }
  });
});

describe('GL5 the English deck is lectured in Korean around the slides’ own words', () => {
  it('announces slide titles with the right particle, without their article, and asks about them in Korean', () => {
    const deck = materials.find((material) => material.deck.name === 'english-slide-deck');
    const raw = deck?.chapters.map((chapter) => chapter.raw).join('\n') ?? '';
    const announced = Array.from(raw.matchAll(/^(?:먼저|이어서) (.+) 살펴보겠습니다\.$/gmu), (match) => match[1]);
    expect(announced).toEqual(['Variables and Data Types를', 'Mean을', 'Median and Outliers를', 'Measures of Spread를', 'Standard Deviation을', 'Normal Distribution을']);
    // The summary slide is the wrap-up, not a topic called `Summary` (EC7).
    expect(raw).toContain('끝으로 지금까지의 내용을 정리해 보겠습니다.');
    expect(raw).not.toMatch(/(?:lecture|slide|the|a)(?:에 대해|이 무엇인지|가 무엇인지)/iu);
    const questions = deck?.chapters.flatMap((chapter) => chapter.questions.map((question) => question.text)) ?? [];
    for (const question of questions) expect(question).toMatch(/설명해 보세요\.$/u);
  });
});

describe('GL6 reading the golden outputs finds none of the defects of test/golden/README.md', () => {
  it('counts zero of every defect in every deck: lecture, quizzes and exam', () => {
    const instances = materials.flatMap(findDefects);
    const { total } = countDefects(instances, materials.map((material) => material.deck.name));
    expect(instances.map((instance) => `${instance.deck} ${instance.defect} ${instance.where}: ${instance.text}`)).toEqual([]);
    expect(Object.keys(total)).toEqual([...DEFECTS]);
  });

  it('the AI course deck is lectured, quizzed and examined on its concepts, its code kept whole', () => {
    const deck = materials.find((material) => material.deck.name === 'ai-course-deck');
    const raw = deck?.chapters.map((chapter) => chapter.raw).join('\n') ?? '';
    expect(raw).toContain('```\ndef a_star(start, goal, h):\nfrontier = PriorityQueue()');
    expect(raw).toMatch(/\[질문\] Heuristics에 대해/u);
    const keys = deck?.items.quizzes.flatMap((quiz) => quiz.items.map(({ item }) => item.choices[item.answer])) ?? [];
    expect(keys.length).toBeGreaterThanOrEqual(10);
    // The exam asks the deck's own terms, informed search among them (a chapter gets an item before any gets two).
    const answers = deck?.items.exam.problems.map((problem) => problem.modelAnswer) ?? [];
    expect(answers).toEqual(expect.arrayContaining(['local maximum']));
    expect(answers.some((answer) => /^(?:heuristic|A\* search)$/u.test(answer))).toBe(true);
  });
});
