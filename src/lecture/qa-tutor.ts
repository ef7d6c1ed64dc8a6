import { z } from 'zod';
import { loadPrompt, type Attribution, type LanguageModel, type TextStream } from '../llm/index.js';
import { SharedResults } from './shared-results.js';
import { fence } from '../text/index.js';
import type { ReplySource } from '../protocol/wire/tutor.js';
import type { FoundPassages } from './hand/student-assistant.js';
import { checkAnswer, checkSubconcepts, refusalsOf, rewriteFeedback, type GuardReport, type Refusal } from '../guard/index.js';
import { answerSentences, pickModelAnswer } from './model-answer.js';
import { offlineSubconcepts } from './offline/offline-subconcepts.js';
import { capVerdict, readAnswer, verdictConfidence } from './judge-caps.js';
import { referenceStandsIn } from '../judges/index.js';

/**
 * The Main Q&A Agent and its helpers (seed 003, steps 5–7): a model answer written from the question and the
 * chapter's lecture, a verdict on the student's reply, subconcepts for Bad mode, and the streamed explanations.
 * Each agent is one function, one zod schema, one prompt file.
 */

export const TUTOR_TASKS = {
  modelAnswer: 'tutor.model-answer',
  judge: 'tutor.judge',
  subconcepts: 'tutor.subconcepts',
  supplement: 'tutor.supplement',
  remedial: 'tutor.remedial',
} as const;

export const ModelAnswerSchema = z.object({
  modelAnswer: z.string().min(1).describe('질문에 대한 모범 답안'),
  keyPoints: z.array(z.string().min(1)).min(1).max(8).describe('답에 꼭 들어가야 할 핵심 요소'),
});
/** A model answer and the material passages it was written from (what a reply built on it cites). */
export type ModelAnswer = z.infer<typeof ModelAnswerSchema> & { sources: ReplySource[] };

/**
 * Where the tutor finds the material's own text about a question: the Retriever, the chapter's passages first (the
 * StudentAssistant's `retrieve`, which falls back to the chapter text when retrieval fails).
 */
export type PassageFinder = (request: { materialId: string; chapter: number; query: string }) => Promise<FoundPassages>;

export const VerdictSchema = z.object({
  verdict: z.enum(['good', 'bad']).describe('good: 핵심을 이해함, bad: 틀렸거나 핵심이 빠짐'),
  feedback: z.string().min(1).max(1000).describe('학생에게 건네는 1~3문장의 피드백'),
});
export type VerdictResult = z.infer<typeof VerdictSchema>;
/**
 * A verdict with its calibrated confidence (src/judges/verdict-confidence.ts): below CONFIDENT_AT it is unsure.
 * `abstained`: there was no model answer to judge against (it was missing or restated the question), so no verdict.
 */
export type JudgedVerdict = VerdictResult & { confidence: number; abstained?: true };

/** What the student reads when the tutor abstains: it has nothing to compare the answer with. */
export const ABSTAIN_FEEDBACK = '이 질문에는 비교할 모범 답안이 없어 맞는지 판단하지 않을게요. 강의 내용과 내 답을 비교해 보고 골라 주세요.';

export const SubconceptSchema = z.object({
  concept: z.string().min(1).max(200).describe('하위 개념의 이름'),
  question: z.string().min(1).max(500).describe('이 하위 개념을 확인하는 짧은 질문'),
  explanation: z.string().min(1).max(2000).describe('이 하위 개념의 핵심 설명'),
});
export const SubconceptsSchema = z.object({
  subconcepts: z.array(SubconceptSchema).min(2).max(3).describe('쉬운 것부터 순서대로 2~3개'),
});
export type Subconcept = z.infer<typeof SubconceptSchema>;

export interface QuestionContext {
  question: string;
  /** The chapter's lecture text as the student saw it (markers removed). */
  lecture: string;
  /** Where the question was asked: the model answer is written from this material's passages about it. */
  source?: { materialId: string; chapter: number };
  attribution?: Attribution;
  signal?: AbortSignal;
}

const prompt = (name: string) => loadPrompt(name);
const system = () => prompt('tutor-system').render({});

export class QaTutor {
  // A question's model answer and subconcepts depend only on the question and the lecture, which every student
  // of a material shares: a class reaching the same question together costs one model call, not one per student.
  private readonly modelAnswers = new SharedResults<ModelAnswer>();
  private readonly splits = new SharedResults<Subconcept[]>();

  constructor(
    private readonly model: LanguageModel,
    private readonly findPassages?: PassageFinder,
    private readonly guard?: GuardReport,
  ) {}

  modelAnswer(context: QuestionContext): Promise<ModelAnswer> {
    const where = context.source ? `${context.source.materialId}#${context.source.chapter}` : '';
    const key = SharedResults.key(this.model.modelName('judge'), context.question, context.lecture, where);
    // Not the caller's signal: one student leaving must not cancel the call the others wait on.
    return this.modelAnswers.get(key, () =>
      this.guardedModelAnswer({ question: context.question, lecture: context.lecture, ...(context.source ? { source: context.source } : {}) }),
    );
  }

  subconcepts(context: QuestionContext & { modelAnswer: string }): Promise<Subconcept[]> {
    const key = SharedResults.key(this.model.modelName('generation'), context.question, context.lecture, context.modelAnswer);
    return this.splits.get(key, () =>
      this.guardedSplit({ question: context.question, lecture: context.lecture, modelAnswer: context.modelAnswer, ...(context.source ? { source: context.source } : {}) }),
    );
  }

  private report(agent: string, item: string, refusals: readonly Refusal[], context: QuestionContext): void {
    if (refusals.length > 0) this.guard?.refused(refusalsOf(agent, item, refusals, { materialId: context.source?.materialId }));
  }

  /**
   * The model answer after the item guard: one refused (a placeholder, the question restated, a cover page) is
   * written again once with the reasons by a model that may answer otherwise; if it is still refused — or the model
   * is deterministic — the answer is the lecture's own sentences about the concept (model-answer.ts). A refused
   * answer is never what a student is judged against or shown.
   */
  private async guardedModelAnswer(context: QuestionContext): Promise<ModelAnswer> {
    const check = (answer: string) => checkAnswer(context.question, answer, { passages: [context.lecture] });
    const first = await this.writeModelAnswer(context);
    const refused = check(first.modelAnswer);
    if (refused.length === 0) return first;
    this.report(TUTOR_TASKS.modelAnswer, first.modelAnswer, refused, context);
    if (!this.model.capabilities.deterministic) {
      const second = await this.writeModelAnswer(context, rewriteFeedback(refused));
      const again = check(second.modelAnswer);
      if (again.length === 0) return second;
      this.report(TUTOR_TASKS.modelAnswer, second.modelAnswer, again, context);
    }
    const extract = pickModelAnswer(context.question, context.lecture) || answerSentences(context.lecture).slice(0, 2).join(' ');
    return { ...first, modelAnswer: extract || first.modelAnswer };
  }

  /**
   * The sub-concepts after the item guard: refused ones (the medium, a placeholder explanation, a repeat) are dropped;
   * when fewer than two are left, a model that may answer otherwise is asked once more with the reasons, then the
   * lecture's own concepts (offline-subconcepts.ts) fill in. Fewer than two is allowed: the tutor then explains.
   */
  private async guardedSplit(context: QuestionContext & { modelAnswer: string }): Promise<Subconcept[]> {
    const keep = (parts: readonly Subconcept[]): Subconcept[] => {
      const verdicts = checkSubconcepts(parts, { passages: [context.lecture] });
      return parts.filter((part, index) => {
        const refusals = verdicts[index] ?? [];
        this.report(TUTOR_TASKS.subconcepts, `${part.concept}: ${part.explanation}`, refusals, context);
        return refusals.length === 0;
      });
    };
    let kept = keep(await this.split(context));
    if (kept.length < 2 && !this.model.capabilities.deterministic) {
      kept = keep(await this.split(context, '[검사] 하위 개념은 강의가 설명하는 서로 다른 개념이어야 하고, 설명은 강의의 문장이어야 합니다.'));
    }
    if (kept.length >= 2) return kept;
    const extra = keep(offlineSubconcepts({ question: context.question, passage: context.lecture })).filter((part) => !kept.some((other) => other.concept === part.concept));
    return [...kept, ...extra].slice(0, 3);
  }

  /**
   * The model answer is written from the material's own passages about the question (retrieval is the one
   * way agents find source text) beside the lecture the student heard; it cites the passages' chapters and pages.
   */
  private async writeModelAnswer(context: QuestionContext, feedback?: string): Promise<ModelAnswer> {
    const found: FoundPassages =
      this.findPassages && context.source
        ? await this.findPassages({ ...context.source, query: context.question })
        : { texts: [], sources: [] };
    const input = { question: context.question, lecture: context.lecture, passages: found.texts };
    const result = await this.model.generateObject({
      task: TUTOR_TASKS.modelAnswer,
      input,
      prompt: prompt('tutor-model-answer').render({
        lecture: fence('강의_내용', input.lecture),
        passages: fence('자료_발췌', input.passages.length > 0 ? input.passages.join('\n\n---\n\n') : '(관련된 발췌가 없습니다)'),
        question: fence('질문', input.question),
      }) + (feedback === undefined ? '' : `\n\n${feedback}`),
      system: system(),
      schema: ModelAnswerSchema,
      role: 'judge',
      temperature: 0.2,
      ...extras(context),
      // Shared by every student of the material: attributed to the material, never to one student's session.
      ...(context.source ? { attribution: { materialId: context.source.materialId } } : {}),
    });
    return { ...result.object, sources: found.sources };
  }

  async judge(context: QuestionContext & { modelAnswer: string; answer: string }): Promise<JudgedVerdict> {
    // A question standing in for a missing model answer is no reference: no model call, no verdict.
    if (referenceStandsIn(context.question, context.modelAnswer)) return { verdict: 'bad', feedback: ABSTAIN_FEEDBACK, confidence: 0, abstained: true };
    // The lecture rides along in the structured input only (the prompt does not need it): the offline judge uses
    // it to recognise a passage pasted from the lecture.
    const input = { question: context.question, modelAnswer: context.modelAnswer, answer: context.answer, lecture: context.lecture };
    const result = await this.model.generateObject({
      task: TUTOR_TASKS.judge,
      input,
      prompt: prompt('tutor-judge').render({
        question: fence('질문', input.question),
        modelAnswer: fence('모범_답안', input.modelAnswer),
        answer: fence('학생_답변', input.answer),
      }),
      system: system(),
      schema: VerdictSchema,
      role: 'judge',
      temperature: 0,
      ...extras(context),
    });
    // The server's caps hold whatever the judge model says (judge-caps.ts); the confidence weighs the model's
    // verdict against the offline reading (or is the offline reading's, on the offline model).
    const reading = readAnswer({ question: input.question, modelAnswer: input.modelAnswer, answer: input.answer, lecture: input.lecture });
    const capped = capVerdict(result.object, reading.flags);
    return { ...capped, confidence: verdictConfidence(reading, result.object, capped, this.model.capabilities.deterministic) };
  }

  private async split(context: QuestionContext & { modelAnswer: string }, feedback?: string): Promise<Subconcept[]> {
    const input = { question: context.question, lecture: context.lecture, modelAnswer: context.modelAnswer };
    const result = await this.model.generateObject({
      task: TUTOR_TASKS.subconcepts,
      input,
      prompt: prompt('tutor-subconcepts').render({
        lecture: fence('강의_내용', input.lecture),
        question: fence('질문', input.question),
        modelAnswer: fence('모범_답안', input.modelAnswer),
      }) + (feedback === undefined ? '' : `\n\n${feedback}`),
      system: system(),
      schema: SubconceptsSchema,
      role: 'generation',
      temperature: 0.3,
      ...extras(context),
      ...(context.source ? { attribution: { materialId: context.source.materialId } } : {}),
    });
    return result.object.subconcepts;
  }

  supplement(context: QuestionContext & { modelAnswer: string; answer: string }): TextStream {
    const input = {
      question: context.question,
      lecture: context.lecture,
      modelAnswer: context.modelAnswer,
      answer: context.answer,
    };
    return this.model.streamText({
      task: TUTOR_TASKS.supplement,
      input,
      prompt: prompt('tutor-supplement').render({
        lecture: fence('강의_내용', input.lecture),
        question: fence('질문', input.question),
        modelAnswer: fence('모범_답안', input.modelAnswer),
        answer: fence('학생_답변', input.answer),
      }),
      system: system(),
      role: 'generation',
      temperature: 0.4,
      ...extras(context),
    });
  }

  remedial(context: { subconcept: Subconcept; answer: string; attribution?: Attribution; signal?: AbortSignal }): TextStream {
    const input = {
      concept: context.subconcept.concept,
      explanation: context.subconcept.explanation,
      question: context.subconcept.question,
      answer: context.answer,
    };
    return this.model.streamText({
      task: TUTOR_TASKS.remedial,
      input,
      prompt: prompt('tutor-remedial').render({
        concept: fence('하위_개념', input.concept),
        explanation: fence('하위_개념_설명', input.explanation),
        question: fence('확인_질문', input.question),
        answer: fence('학생_답변', input.answer),
      }),
      system: system(),
      role: 'generation',
      temperature: 0.4,
      ...extras(context),
    });
  }
}

function extras(context: { attribution?: Attribution; signal?: AbortSignal }) {
  return {
    ...(context.attribution ? { attribution: context.attribution } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  };
}
