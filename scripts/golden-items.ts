/**
 * Golden quizzes and exams: what the offline model gives an instructor and a student for each sample PDF — the quiz
 * of the whole material and of each chapter (through the EvalAgent gate, as `POST /api/materials/:id/quiz` and
 * `/api/quiz/start` make them) and a five-item exam (as the exam job makes it) — rendered beside the golden lecture
 * (scripts/golden-lectures.ts). A generation that fails is kept as the error a user would read.
 */
import type { App } from '../src/app.js';
import { AppError } from '../src/kernel/errors.js';
import { generateExam, loadExamSource, type ExamRequest } from '../src/exams/index.js';
import type { Material } from '../src/materials/index.js';
import type { ItemReview } from '../src/protocol/wire/quiz.js';
import type { QuizItem } from '../src/protocol/quiz.js';
import { generateJudgedQuiz } from '../src/quiz/index.js';

/** Fixed seeds: the same code gives the same quiz. */
const QUIZ_SEED = '0123456789abcdef0123456789abcdef';
export const GOLDEN_EXAM_REQUEST: ExamRequest = { count: 5, descriptive: 2 };

export interface GoldenQuiz {
  /** `전체` or `N장 제목`. */
  scope: string;
  items: { item: QuizItem; review: ItemReview | undefined }[];
  /** What the user was told instead of (or beside) the items: an error or a shortfall. */
  notice?: string;
  /** The passages the items were written from. */
  passages: string[];
}

export interface GoldenExam {
  problems: { id: number; type: string; question: string; modelAnswer: string; keywords: string[]; complaint?: string }[];
  valid: boolean;
  notice?: string;
  passages: string[];
}

export interface GoldenItems {
  quizzes: GoldenQuiz[];
  exam: GoldenExam;
}

const message = (error: unknown) => (error instanceof AppError ? `${error.code}: ${error.message}` : String(error));

/** A notice the generation attached to its result (a shortfall), if the result has one. */
function noticeOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || !('shortfall' in result)) return undefined;
  const shortfall = (result as { shortfall?: { message?: unknown } | null }).shortfall;
  return typeof shortfall?.message === 'string' ? shortfall.message : undefined;
}

async function goldenQuiz(app: App, material: Material, chapter: number | undefined): Promise<GoldenQuiz> {
  const scope = chapter === undefined ? '전체' : `${chapter + 1}장 ${material.chapters[chapter]?.title ?? ''}`;
  try {
    const judged = await generateJudgedQuiz({
      judge: app.quizJudge,
      model: app.model,
      materials: app.materials,
      retriever: app.retrieval,
      materialId: material.id,
      chapter,
      seed: QUIZ_SEED,
    });
    const notice = noticeOf(judged);
    return {
      scope,
      items: judged.items.map((item) => ({ item, review: item.quizId === undefined ? undefined : judged.reviews[item.quizId] })),
      ...(notice === undefined ? {} : { notice }),
      passages: judged.source.retrieval.passages.map((passage) => passage.text),
    };
  } catch (error) {
    return { scope, items: [], notice: message(error), passages: [] };
  }
}

async function goldenExam(app: App, material: Material): Promise<GoldenExam> {
  try {
    const source = await loadExamSource(app.materials, app.retrieval, material.id, GOLDEN_EXAM_REQUEST);
    const generated = await generateExam({ model: app.model, source, request: GOLDEN_EXAM_REQUEST, profile: null, context: { materialId: material.id } });
    const notice = noticeOf(generated);
    return {
      problems: generated.problems.map((problem) => {
        const complaint = generated.complaints.filter((entry) => entry.id === problem.id).map((entry) => entry.message).join(' ');
        return {
          id: problem.id,
          type: problem.type,
          question: problem.question_content,
          modelAnswer: problem.model_answer,
          keywords: problem.key_keywords,
          ...(complaint === '' ? {} : { complaint }),
        };
      }),
      valid: generated.valid,
      ...(notice === undefined ? {} : { notice }),
      passages: source.passages.map((passage) => passage.text),
    };
  } catch (error) {
    return { problems: [], valid: false, notice: message(error), passages: [] };
  }
}

export async function goldenItems(app: App, material: Material): Promise<GoldenItems> {
  const quizzes = [await goldenQuiz(app, material, undefined)];
  for (const chapter of material.chapters) quizzes.push(await goldenQuiz(app, material, chapter.index));
  return { quizzes, exam: await goldenExam(app, material) };
}

const CIRCLED = ['①', '②', '③', '④'];
const oneLine = (text: string) => text.replace(/\s+/gu, ' ').trim();

function reviewLine(review: ItemReview | undefined): string {
  if (review === undefined) return '검증 없음';
  const scores = review.judged ? `근거 ${review.grounding}/교육 ${review.educational}/실무 ${review.insight}` : '채점 못 함';
  return `${review.is_passed ? '통과' : '불합격'} (${scores}, ${review.rounds}회) — ${oneLine(review.feedback)}`;
}

/** The quiz and exam sections of a golden file. */
export function renderItems(items: GoldenItems): string[] {
  const out: string[] = ['', '## 퀴즈 (EvalAgent 게이트를 거친 4지선다)'];
  for (const quiz of items.quizzes) {
    out.push('', `### 퀴즈 — ${quiz.scope}`, '');
    if (quiz.notice !== undefined) out.push(`안내: ${quiz.notice}`, '');
    if (quiz.items.length === 0 && quiz.notice === undefined) out.push('(문항 없음)');
    quiz.items.forEach(({ item, review }, index) => {
      out.push(`${index + 1}. [${item.difficulty}] ${oneLine(item.question)}`);
      item.choices.forEach((choice, position) => out.push(`   ${CIRCLED[position] ?? '-'} ${choice}${position === item.answer ? ' ✔' : ''}`));
      out.push(`   - 해설: ${oneLine(item.explanation)}`, `   - 검증: ${reviewLine(review)}`, '');
    });
  }
  out.push('', '## 시험 (단답형 3 + 서술형 2)', '');
  const { exam } = items;
  if (exam.notice !== undefined) out.push(`안내: ${exam.notice}`, '');
  if (exam.problems.length > 0) out.push(`검증 결과: ${exam.valid ? '통과' : '불합격 (아래 항목별 지적)'}`, '');
  for (const problem of exam.problems) {
    out.push(`${problem.id}. [${problem.type}] ${oneLine(problem.question)}`, `   - 모범 답안: ${oneLine(problem.modelAnswer)}`, `   - 키워드: ${problem.keywords.join(', ')}`);
    if (problem.complaint !== undefined) out.push(`   - 지적: ${oneLine(problem.complaint)}`);
    out.push('');
  }
  return out;
}
