import { z } from 'zod';

/**
 * The raise-hand agents' contract (seed 003, 번외 1–4): task names, the schemas the model must fill, and the
 * structured inputs each agent passes. The offline handlers parse the inputs with these same schemas, so the
 * facade and the offline model cannot drift apart.
 */

export const ASSISTANT_TASKS = {
  /** Student Assistant Agent: specific or vague, the core concept and (vague) its ordered subconcepts. */
  classify: 'assistant.classify',
  /** Student Assistant Agent, specific question: one streamed answer. */
  answer: 'assistant.answer',
  /** Explanation agent: one subconcept, first time or re-explained at what was not understood. */
  explain: 'assistant.explain',
  /** Control Agent: did the student's reply to "이해했나요?" say they understood? */
  control: 'assistant.control',
  /** Explanation agent: the original concept, once every subconcept is done. */
  final: 'assistant.final',
  /** Summary agent: every part, section by section, as one markdown document. */
  summary: 'assistant.summary',
} as const;

/** More parts make the dialogue too long to keep a student's attention (the seed caps the tutor's split at 3). */
export const MAX_SUBCONCEPTS = 4;

export const HandSubconceptSchema = z.object({
  concept: z.string().min(1).max(200).describe('하위 개념의 이름'),
  focus: z.string().min(1).max(500).describe('이 하위 개념에서 설명할 점: 핵심 개념과 어떻게 이어지는지 한 문장'),
});
export type HandSubconcept = z.infer<typeof HandSubconceptSchema>;

export const ClassificationSchema = z
  .object({
    kind: z.enum(['specific', 'vague']).describe('specific: 자료의 특정 요소를 짚어 묻는 질문, vague: 개념 전체를 모르겠다는 질문'),
    concept: z.string().min(1).max(200).describe('질문의 핵심 개념 (자료에 나오는 용어로)'),
    subconcepts: z
      .array(HandSubconceptSchema)
      .max(MAX_SUBCONCEPTS)
      .describe('vague일 때만: 핵심 개념을 이해하는 데 필요한 하위 개념 2~4개, 쉬운 것부터. specific이면 빈 배열'),
  })
  // Not in the JSON schema Gemini sees, but checked on its reply: a repair turn then names the problem.
  .refine((value) => value.kind === 'specific' || value.subconcepts.length >= 2, {
    message: 'vague questions need 2–4 subconcepts',
    path: ['subconcepts'],
  });
export type Classification = z.infer<typeof ClassificationSchema>;

export const ControlSchema = z.object({
  understood: z.boolean().describe('학생이 설명을 이해했다고 분명히 말했으면 true, 아니거나 애매하면 false'),
  confusion: z.string().max(500).describe('이해하지 못한 부분을 한 문장으로 (이해했으면 빈 문자열)'),
});
export type ControlResult = z.infer<typeof ControlSchema>;

// ---- structured inputs (what the offline model works from)

const Passages = z.array(z.string());

export const ClassifyInput = z.object({ question: z.string(), passages: Passages });
export type ClassifyInput = z.infer<typeof ClassifyInput>;

export const AnswerInput = z.object({ question: z.string(), concept: z.string(), passages: Passages });
export type AnswerInput = z.infer<typeof AnswerInput>;

export const ExplainInput = z.object({
  question: z.string(),
  /** The original (upper) concept the subconcept serves. */
  concept: z.string(),
  subconcept: HandSubconceptSchema,
  /** 0-based position of the subconcept and the number of subconcepts. */
  index: z.number().int().min(0),
  total: z.number().int().min(1),
  passages: Passages,
  /** Earlier explanations of this subconcept, oldest first; non-empty means this is a re-explanation. */
  previous: z.array(z.string()),
  /** What the student said they did not understand (empty on a first explanation). */
  confusion: z.string(),
});
export type ExplainInput = z.infer<typeof ExplainInput>;

export const ControlInput = z.object({ concept: z.string(), explanation: z.string(), reply: z.string() });
export type ControlInput = z.infer<typeof ControlInput>;

export const ExplainedPartSchema = z.object({ concept: z.string(), explanation: z.string() });
export type ExplainedPart = z.infer<typeof ExplainedPartSchema>;

export const FinalInput = z.object({
  question: z.string(),
  concept: z.string(),
  /** The subconcepts as they were explained (each part's explanations joined). */
  parts: z.array(ExplainedPartSchema),
  passages: Passages,
  previous: z.array(z.string()),
  confusion: z.string(),
});
export type FinalInput = z.infer<typeof FinalInput>;

export const SummaryInput = z.object({
  question: z.string(),
  concept: z.string(),
  /** `[(subconcept, explanation)…, (concept, final explanation)]`, in the order they were taught. */
  parts: z.array(ExplainedPartSchema).min(1),
});
export type SummaryInput = z.infer<typeof SummaryInput>;
