import { z } from 'zod';
import { analyseText } from '../judges/index.js';
import { loadPrompt, type Attribution, type LanguageModel, type OfflineTasks } from '../llm/index.js';
import type { Logger } from '../kernel/index.js';
import { isAnswerSentence } from '../lecture/index.js';
import { sourceSentences } from '../quiz/index.js';
import { fence, splitSentences, withParticle } from '../text/index.js';
import {
  type ChapterRef,
  type ExamFeedbackAgent,
  type ExamLog,
  type ExamType,
  FeedbackReport,
  type LearnerProfile,
  RESULT_STATUSES,
  type SourcePassage,
  type SourceQuestion,
} from './exam-types.js';
import { TopicTally, appendExams, logOutcomes, proficiencyFrom } from './prior-profile.js';

/**
 * `Generator_feedBack(log, exam_type, source_material, timestamp)`: the student's report and the update
 * of the learner profile.
 * - The report is the feedback model's proposal (task `exam.feedback`, prompts/exam-feedback.md), parsed with
 *   {@link FeedbackReport}; the server then keeps only review entries among the given chapters (their titles and
 *   pages are the server's, whatever the model wrote), and points a weak topic the model left without one at the
 *   chapters whose titles share its words, and drops a strength that is also a weak topic. A model failure falls back
 *   to a report built from the log alone ({@link deterministicReport}): the student always gets one, and each of its
 *   sentences is about items the student has (a topic with a wrong item is weak only; the step about wrong items
 *   only when there are some).
 * - What the report quotes under "복습할 내용" is the sentence a missed item was built on: {@link reviewPassages} finds
 *   the passage (and so the chapter) holding its model answer's source sentence; without it, the passage's sentence
 *   sharing most words with the question — never a bare section number, a title alone or a cover line.
 * - The profile update is deterministic (the server decides, as in prior-profile.ts): Incorrect and Partial_Correct
 *   topics become weak with evidence "시험 N번: 부분 정답" (Korean labels, never the enum), Correct ones strong, the exam is appended to
 *   `exams_taken` and the proficiency is recomputed from the exam's graded items.
 */

export const EXAM_FEEDBACK_TASK = 'exam.feedback';
export const EXAM_FEEDBACK_TEMPERATURE = 0.3;
const MAX_REVIEW = 2;

/** The structured input of a feedback call (the offline task works from it). */
export const ExamFeedbackInput = z.object({
  examType: z.string(),
  timestamp: z.number(),
  items: z.array(
    z.object({
      question_id: z.number(),
      result_status: z.enum([...RESULT_STATUSES, 'Ungraded', 'Needs_Review']),
      question_content: z.string(),
      user_response: z.string(),
      related_topic: z.string(),
      feedback_message: z.string(),
    }),
  ),
  chapters: z.array(z.object({ chapter: z.number().int().min(0), title: z.string(), pages: z.array(z.number().int().min(1)) })),
  /** The weak items' source passages (seed 000's `source_material`): what the report quotes to review. */
  sources: z
    .array(z.object({ question_id: z.number(), chapter: z.number().int().min(0), pages: z.array(z.number().int().min(1)), text: z.string(), quote: z.string().optional() }))
    .default([]),
});
export type ExamFeedbackInput = z.input<typeof ExamFeedbackInput>;

/** A passage is quoted at most this long in the prompt and in a report. */
const MAX_SOURCE_CHARS = 600;
const MAX_QUOTE_CHARS = 160;

function feedbackInput(log: ExamLog, examType: ExamType, chapters: readonly ChapterRef[], timestamp: number, sources: readonly SourcePassage[] = []): ExamFeedbackInput {
  return {
    examType,
    timestamp,
    items: log.evaluation_items.map(({ evidence: _evidence, ...item }) => item),
    chapters: chapters.map((chapter) => ({ chapter: chapter.chapter, title: chapter.title, pages: [...chapter.pages] })),
    sources: sources.map((source) => ({ ...source, pages: [...source.pages], text: source.text.slice(0, MAX_SOURCE_CHARS) })),
  };
}

/** A sentence's content words, loosely (lower case, no punctuation), without one-letter words. */
const contentWords = (text: string) => (text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => Array.from(word).length >= 2);

/**
 * The sentence of a passage an item was built on: of the passage's answer sentences (no bare section number, title,
 * cover or contents line: the lecture's `isAnswerSentence`), the one that shares the most of its words with the item's
 * reference (its model answer, or its question), the share of its own words breaking ties; `score` is how many it shares
 * (0: none does). Null when the passage has no answer sentence.
 */
export function reviewSentence(text: string, reference: string): { sentence: string; score: number } | null {
  const said = reference.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  let best: { sentence: string; score: number; share: number } | null = null;
  for (const { text: sentence } of sourceSentences(text)) {
    if (!isAnswerSentence(sentence)) continue;
    const words = contentWords(sentence);
    // A Korean word with its particle (`나선을`) is said when its first two syllables are.
    const score = words.filter((word) => said.includes(word) || (/^[가-힣]{3,}$/u.test(word) && said.includes(Array.from(word).slice(0, -1).join('')))).length;
    const share = words.length === 0 ? 0 : score / words.length;
    if (best === null || score > best.score || (score === best.score && share > best.share)) best = { sentence, score, share };
  }
  return best === null ? null : { sentence: best.sentence, score: best.score };
}

/** The retrieval a report's passages come from (the retrieval service's `retrieve`). */
export type RetrievePassages = (request: { materialId: string; query: string; k: number }) => Promise<readonly { text: string; chapter: number; startPage: number; endPage: number }[]>;

/**
 * Each missed question's passage of the material and the sentence the report quotes: the passage (of the three nearest
 * its model answer and question) holding the sentence the item was built on — its model answer's source — so the
 * chapter is the one that holds it; that sentence as `quote`.
 */
export async function reviewPassages(retrieve: RetrievePassages, materialId: string, questions: readonly SourceQuestion[]): Promise<SourcePassage[]> {
  const found = await Promise.all(
    questions.map(async (question): Promise<SourcePassage[]> => {
      const reference = `${question.reference ?? ''} ${question.question_content}`.trim();
      const passages = await retrieve({ materialId, query: reference, k: 3 }).catch(() => []);
      const ranked = passages.map((passage, rank) => ({ passage, rank, quote: reviewSentence(passage.text, reference) }));
      const best = ranked.sort((left, right) => (right.quote?.score ?? -1) - (left.quote?.score ?? -1) || left.rank - right.rank)[0];
      if (best === undefined) return [];
      const { passage, quote } = best;
      const pages = Array.from({ length: Math.min(50, Math.max(1, passage.endPage - passage.startPage + 1)) }, (_, offset) => passage.startPage + offset);
      return [{ question_id: question.question_id, chapter: passage.chapter, pages, text: passage.text, ...(quote === null || quote.score === 0 ? {} : { quote: quote.sentence }) }];
    }),
  );
  return found.flat();
}

/** What a report quotes of an item's passage: the sentence the item was built on, clipped. */
function quoteOf(source: { text: string; quote?: string | undefined }, question: string): string {
  const chosen = source.quote ?? reviewSentence(source.text, question)?.sentence ?? splitSentences(source.text.trim())[0] ?? source.text.trim();
  return clip(chosen, MAX_QUOTE_CHARS);
}

/** Where a passage is: `2장 p.5–6`. */
function placeOf(source: { chapter: number; pages: readonly number[] }): string {
  const first = source.pages[0];
  const last = source.pages.at(-1);
  const pages = first === undefined ? '' : first === last ? ` p.${first}` : ` p.${first}–${last ?? first}`;
  return `${source.chapter + 1}장${pages}`;
}

export function renderExamFeedbackPrompt(input: ExamFeedbackInput): string {
  const log = input.items
    .map((item) =>
      [
        `${item.question_id}번 [${item.result_status}] 주제: ${item.related_topic}`,
        `질문: ${item.question_content}`,
        `학생 답: ${item.user_response}`,
        `채점 피드백: ${item.feedback_message}`,
      ].join('\n'),
    )
    .join('\n\n');
  const chapters = input.chapters.map((chapter) => `${chapter.chapter}: ${chapter.title} (쪽: ${chapter.pages.join(', ') || '-'})`).join('\n');
  const sources = (input.sources ?? []).map((source) => `${source.question_id}번 (${placeOf(source)}): ${source.text}`).join('\n\n');
  return loadPrompt('exam-feedback').render({
    examType: input.examType,
    timestamp: new Date(input.timestamp).toISOString(),
    log: fence('시험_기록', log),
    chapters: fence('챕터_제목', chapters || '(챕터 정보 없음)'),
    sources: fence('자료_발췌', sources || '(원문 없음)'),
  });
}

const clip = (text: string, max: number): string => {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
};

/** Chapters whose titles share a content word with the topic, best overlap first (at most {@link MAX_REVIEW}). */
export function chaptersForTopic(topic: string, chapters: readonly ChapterRef[]): ChapterRef[] {
  const units = analyseText(topic).unitSet;
  if (units.size === 0) return [];
  return chapters
    .map((chapter) => {
      const title = analyseText(chapter.title);
      let shared = 0;
      for (const unit of title.unitSet) if (units.has(unit)) shared += 1;
      // Korean spacing: a topic's stem inside a title written without spaces also counts.
      for (const unit of units) if (unit.length >= 2 && !title.unitSet.has(unit) && title.hangulStream.includes(unit)) shared += 1;
      return { chapter, shared };
    })
    .filter((entry) => entry.shared > 0)
    .sort((left, right) => right.shared - left.shared || left.chapter.chapter - right.chapter.chapter)
    .slice(0, MAX_REVIEW)
    .map((entry) => entry.chapter);
}

const reviewOf = (chapter: ChapterRef): FeedbackReport['weak_topics'][number]['review'][number] => ({
  chapter: chapter.chapter,
  title: clip(chapter.title, 200) || `${chapter.chapter + 1}장`,
  pages: chapter.pages.filter((page) => Number.isInteger(page) && page >= 1).slice(0, 50),
});

/**
 * The server's pass over a proposed report: review entries only among the given chapters, with their own titles, and
 * no strength that is also a weak topic (a report never says both of one topic).
 */
export function settleReport(report: FeedbackReport, chapters: readonly ChapterRef[]): FeedbackReport {
  const byNumber = new Map(chapters.map((chapter) => [chapter.chapter, chapter]));
  const weak = new Set(report.weak_topics.map((topic) => topic.topic.trim()));
  return {
    ...report,
    strengths: report.strengths.filter((strength) => !weak.has(strength.trim())),
    weak_topics: report.weak_topics.map((topic) => {
      const kept: ChapterRef[] = [];
      for (const entry of topic.review) {
        const chapter = byNumber.get(entry.chapter);
        if (chapter !== undefined && !kept.includes(chapter)) kept.push(chapter);
      }
      const review = kept.length > 0 ? kept : chaptersForTopic(topic.topic, chapters);
      return { ...topic, review: review.slice(0, 5).map(reviewOf) };
    }),
  };
}

/** A report from the log alone: what the student gets offline and when the feedback model fails. */
export function deterministicReport(input: ExamFeedbackInput): FeedbackReport {
  const chapters: ChapterRef[] = input.chapters;
  const count = (status: string) => input.items.filter((item) => item.result_status === status).length;
  const total = input.items.length;
  const pending = count('Ungraded');
  const reviewed = count('Needs_Review');
  const summary = [
    `${total}문항 중 정답 ${count('Correct')}개, 부분 정답 ${count('Partial_Correct')}개, 오답 ${count('Incorrect')}개입니다.`,
    pending > 0 ? `${pending}문항은 아직 채점 중입니다.` : '',
    reviewed > 0 ? `${reviewed}문항은 선생님이 검토하고 있습니다. 검토가 끝나면 결과가 바뀝니다.` : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
  const unique = (values: string[]) => [...new Set(values.map((value) => clip(value, 200)).filter((value) => value !== ''))];
  const weakItems = input.items.filter((item) => item.result_status === 'Incorrect' || item.result_status === 'Partial_Correct');
  const weakTopics = unique(weakItems.map((item) => item.related_topic)).slice(0, 20);
  // A topic the student also got wrong is one to study, not a strength: never under both headings.
  const strengths = unique(input.items.filter((item) => item.result_status === 'Correct').map((item) => item.related_topic))
    .filter((topic) => !weakTopics.includes(topic))
    .slice(0, 10);
  const weak_topics = weakTopics.map((topic) => {
    const items = weakItems.filter((item) => clip(item.related_topic, 200) === topic);
    // What to review, quoted from the weak items' own passages (seed 000's source_material), with where it is.
    const quoted = (input.sources ?? [])
      .filter((source) => items.some((item) => item.question_id === source.question_id))
      .map((source) => `복습할 내용(${placeOf(source)}): 「${quoteOf(source, items.find((item) => item.question_id === source.question_id)?.question_content ?? '')}」`);
    const advice =
      clip([...items.map((item) => `${item.question_id}번: ${item.feedback_message}`), ...[...new Set(quoted)]].join(' '), 1000) || `${withParticle(topic, '을/를')} 다시 정리해 보세요.`;
    return { topic, advice, review: chaptersForTopic(topic, chapters).map(reviewOf) };
  });
  // Each step is about items the student has: no "틀린 문항" without a wrong one, no next unit while some are pending.
  const wrongItems = [count('Incorrect') > 0 ? '틀린' : '', count('Partial_Correct') > 0 ? '부분 정답인' : ''].filter((part) => part !== '').join(' 문항과 ');
  const next_steps =
    weak_topics.length > 0
      ? [
          `약한 주제(${weak_topics.slice(0, 3).map((topic) => topic.topic).join(', ')})의 강의 부분을 다시 읽어 보세요.`,
          `${wrongItems} 문항의 모범 답안과 자신의 답을 비교해 빠진 핵심 키워드를 정리해 보세요.`,
          '복습한 뒤 같은 주제의 문제를 다시 풀어 보세요.',
        ]
      : [
          pending + reviewed > 0 ? '채점이 끝나지 않은 문항의 결과를 확인한 뒤 다음 단원으로 넘어가 보세요.' : '다음 단원으로 넘어가 새 개념을 익혀 보세요.',
          '서술형 문항으로 설명하는 연습을 더 해 보세요.',
        ];
  return FeedbackReport.parse({ summary: clip(summary, 2000), strengths, weak_topics, next_steps });
}

/** The profile after an exam (deterministic; see the module comment). */
export function updateProfile(profile: LearnerProfile, log: ExamLog, examId: string, timestamp: number): LearnerProfile {
  const tally = new TopicTally();
  tally.addProfile(profile);
  tally.addLog(log, '시험');
  const topics = tally.result();
  const outcome = logOutcomes(log);
  return {
    ...profile,
    user_status: {
      proficiency_level: proficiencyFrom(outcome.good, outcome.count, profile.user_status.proficiency_level),
      weak_topics: topics.weak,
      strong_topics: topics.strong,
    },
    exams_taken: appendExams(profile.exams_taken, [examId]),
    updated_at: timestamp,
  };
}

export interface ExamFeedbackOptions {
  model: LanguageModel;
  logger?: Logger | undefined;
}

export class ExamFeedback implements ExamFeedbackAgent {
  constructor(private readonly options: ExamFeedbackOptions) {}

  async feedback(request: Parameters<ExamFeedbackAgent['feedback']>[0]): Promise<{ report: FeedbackReport; profile: LearnerProfile }> {
    const input = feedbackInput(request.log, request.examType, request.chapters, request.timestamp, request.sources);
    const profile = updateProfile(request.profile, request.log, request.examId, request.timestamp);
    const attribution: Attribution = {
      materialId: request.context.materialId,
      ...(request.context.accountId === undefined ? {} : { accountId: request.context.accountId }),
    };
    try {
      const { object } = await this.options.model.generateObject({
        task: EXAM_FEEDBACK_TASK,
        role: 'generation',
        temperature: EXAM_FEEDBACK_TEMPERATURE,
        input,
        prompt: renderExamFeedbackPrompt(input),
        schema: FeedbackReport,
        attribution,
        ...(request.context.signal === undefined ? {} : { signal: request.context.signal }),
      });
      return { report: settleReport(object, request.chapters), profile };
    } catch (error) {
      if (request.context.signal?.aborted === true) throw error;
      this.options.logger?.warn({ error: error instanceof Error ? error.message : String(error) }, 'exam feedback failed; deterministic report');
      return { report: deterministicReport(input), profile };
    }
  }
}

export const examFeedbackOfflineTasks: OfflineTasks = {
  [EXAM_FEEDBACK_TASK]: { object: (input) => deterministicReport(ExamFeedbackInput.parse(input)) },
};
