/**
 * Golden lectures: what the offline model tells a student about each sample PDF (scripts/sample-decks.ts), written
 * as one readable markdown file per PDF under test/golden/. The PDFs go through the real product — ingest (title,
 * chapter plan), the lecture generator, the tutor's model answers and sub-concepts, the raised hand's "which part?"
 * choices — on the memory store with the offline model, so the file is what a user sees. The files are reviewed by
 * reading them; test/golden-lectures.test.ts fails when the output changes, and this script updates them.
 *
 * Usage: npm run golden            (rewrites test/golden/*.md)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startApp, type App } from '../src/app.js';
import { loadConfig } from '../src/kernel/config.js';
import { CLARIFY_TEXT } from '../src/lecture/hand/hand-dialogue.js';
import { displayText, parseLecture } from '../src/lecture/marker-parser.js';
import { createLogger } from '../src/kernel/logger.js';
import { goldenItems, renderItems, type GoldenItems } from './golden-items.js';
import { SAMPLE_DECKS, type SampleDeck } from './sample-decks.js';
import { lectureKeys } from '../src/lecture/lecture-keys.js';

export const GOLDEN_DIR = path.resolve('test/golden');

/** One chapter as the product delivers it. */
export interface GoldenChapter {
  index: number;
  title: string;
  pages: string;
  /** The lecture as generated, question markers included. */
  raw: string;
  questions: { text: string; modelAnswer: string; subconcepts: { concept: string; question: string; explanation: string }[] }[];
  /** What a raised hand that names nothing (`잘 모르겠어요`) is offered. */
  choices: string[];
}

export interface GoldenMaterial {
  deck: SampleDeck;
  title: string;
  chapterSource: string;
  chapters: GoldenChapter[];
  /** The quizzes and the exam of the material (scripts/golden-items.ts). */
  items: GoldenItems;
}

/** Boots the product on the memory store with the offline model (no port, no sample preload). */
export async function startGoldenApp(): Promise<{ app: App; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-golden-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', QUALITY_SAMPLE_RATE: '0' });
  const app = await startApp(config, createLogger('silent'));
  return {
    app,
    stop: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Ingests one deck and walks every chapter the way a student's session does. */
export async function goldenMaterial(app: App, deck: SampleDeck): Promise<GoldenMaterial> {
  const { material } = await app.materials.ingest({ bytes: await deck.build(), filename: deck.filename });
  const lectures = app.lectures;
  const chapters: GoldenChapter[] = [];
  for (const chapter of material.chapters) {
    await lectures.generator.ensureChapter(material, chapter.index);
    const entries = await app.store.xread(lectureKeys.lectureText(lectures.generator.cacheKey(material.id, chapter.index)), '0');
    const failed = entries.find((entry) => entry.fields.e === 'failed');
    if (failed) throw new Error(`chapter ${chapter.index} of ${deck.name} failed: ${failed.fields.message ?? ''}`);
    const raw = entries.map((entry) => entry.fields.t ?? '').join('');
    const segments = parseLecture(raw);
    // The tutor judges against the lecture as the student sees it (lecture-view.ts chapterLecture).
    const lecture = displayText(segments, Number.POSITIVE_INFINITY);
    const source = { materialId: material.id, chapter: chapter.index };
    const questions: GoldenChapter['questions'] = [];
    for (const segment of segments) {
      if (segment.type !== 'question') continue;
      const { modelAnswer } = await lectures.tutor.modelAnswer({ question: segment.text, lecture, source });
      const subconcepts = await lectures.tutor.subconcepts({ question: segment.text, lecture, modelAnswer, source });
      questions.push({ text: segment.text, modelAnswer, subconcepts: subconcepts.map(({ concept, question, explanation }) => ({ concept, question, explanation })) });
    }
    const choices = await lectures.assistant.chapterConcepts(material.id, chapter.index);
    chapters.push({ index: chapter.index, title: chapter.title, pages: `${chapter.startPage}–${chapter.endPage}`, raw, questions, choices });
  }
  return { deck, title: material.title, chapterSource: material.chapterSource, chapters, items: await goldenItems(app, material) };
}

const quote = (text: string): string => text.trim().split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');

/** The golden file: meant to be read by a person first, compared by the test second. */
export function renderGolden(golden: GoldenMaterial): string {
  const out: string[] = [
    `# 골든 강의: ${golden.deck.name}`,
    '',
    '오프라인 모델이 이 자료로 학생에게 보여 주는 내용입니다. `npm run golden`이 다시 씁니다 (무엇을 보는지는 test/golden/README.md).',
    '',
    `- 업로드 파일 이름: ${golden.deck.filename}`,
    `- 자료 제목: ${golden.title}`,
    `- 장 나누기: ${golden.chapterSource}`,
    '',
    '## 장 목록',
    '',
    ...golden.chapters.map((chapter) => `${chapter.index + 1}. ${chapter.title} (쪽 ${chapter.pages})`),
  ];
  for (const chapter of golden.chapters) {
    out.push('', `## ${chapter.index + 1}장 — ${chapter.title}`, '', '### 강의 (질문은 [질문] … [\\질문])', '', '```text', chapter.raw.trimEnd(), '```', '');
    out.push('### 질문, 모범 답안, 하위 개념', '');
    if (chapter.questions.length === 0) out.push('(질문 없음)');
    chapter.questions.forEach((question, index) => {
      out.push(`${index + 1}. 질문: ${question.text}`, '', '   모범 답안:', '', quote(question.modelAnswer).replace(/^/gmu, '   '), '');
      out.push('   하위 개념:', '');
      for (const part of question.subconcepts) out.push(`   - **${part.concept}** — ${part.question}`, `     - 설명: ${part.explanation.replace(/\s+/gu, ' ').trim()}`);
      out.push('');
    });
    out.push('### 손들기 "잘 모르겠어요"', '', `${CLARIFY_TEXT}`, '', chapter.choices.length > 0 ? chapter.choices.map((choice) => `- ${choice}`).join('\n') : '(선택지 없음)');
  }
  out.push(...renderItems(golden.items));
  return `${out.join('\n').replace(/\n{3,}/gu, '\n\n').trimEnd()}\n`;
}

/** Every sample deck's golden file, by file name (`<name>.md`). */
export async function renderAllGolden(decks: readonly SampleDeck[] = SAMPLE_DECKS): Promise<{ files: Map<string, string>; materials: GoldenMaterial[] }> {
  const { app, stop } = await startGoldenApp();
  try {
    const files = new Map<string, string>();
    const materials: GoldenMaterial[] = [];
    for (const deck of decks) {
      const golden = await goldenMaterial(app, deck);
      materials.push(golden);
      files.set(`${deck.name}.md`, renderGolden(golden));
    }
    return { files, materials };
  } finally {
    await stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { files } = await renderAllGolden();
  await mkdir(GOLDEN_DIR, { recursive: true });
  for (const [name, text] of files) {
    await writeFile(path.join(GOLDEN_DIR, name), text);
    console.log(`wrote ${path.join('test/golden', name)}`);
  }
}
