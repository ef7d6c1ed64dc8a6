import { withParticle } from '../../text/index.js';
import type { HandKind } from '../../protocol/classroom.js';
import { MAX_SUBCONCEPTS, type Classification, type ControlResult, type ExplainedPart, type HandSubconcept } from './assistant-schemas.js';

/**
 * The raise-hand side dialogue (seed 003, 번외 1–4) as a pure state machine: plain JSON data and functions from
 * (dialogue, event) to the next dialogue, no I/O and no clock. The session actor keeps the dialogue in the
 * session state, asks `nextAction` what to do, does it (a model call, an emit), feeds the outcome back through the
 * matching `on…` function and persists the result — so any node can resume a dialogue where another left it.
 *
 * Cancelling (hand:lower) is not an event here: the actor simply drops the dialogue.
 */

/** Explanations of one part (or of the final concept) before the dialogue moves on even if not understood. */
export const MAX_TRIES_PER_PART = 3;

export const HAND_PROMPT_TEXT = '무엇이 궁금한가요? 궁금한 내용을 적어 주세요.';
/** Asked again when the question named nothing (`잘 모르겠어요`): which part, with the chapter's concepts to pick. */
export const CLARIFY_TEXT = '어느 부분이 궁금한지 알려 주세요. 아래에서 고르거나 궁금한 개념을 적어 주세요.';
const CLARIFY_TEXT_NO_CHOICES = '어느 부분이 궁금한지 알려 주세요. 궁금한 개념이나 문장을 적어 주세요.';
const CHECK_HINT = '(네/아니요, 또는 헷갈리는 부분을 적어 주세요)';

export interface HandPart extends HandSubconcept {
  /** Every explanation streamed for this part, oldest first: its length is the number of tries. */
  explanations: string[];
  /** Control's last word on this part; false also when it was left after MAX_TRIES_PER_PART tries. */
  understood?: boolean;
}

/** What every step of the dialogue holds (empty until the question is classified as vague). */
interface DialogueBase {
  parts: HandPart[];
  /** The part being explained or checked; `parts.length` once the dialogue reaches the final explanation. */
  index: number;
  /** Whether the student was asked (the prompt or the check) and the dialogue now waits for their text. */
  asked: boolean;
  /** Final explanations of the original concept, oldest first. */
  final: string[];
}

/** A question classified (specific or vague): its concept is known from then on. */
interface Classified<K extends HandKind> extends DialogueBase {
  question: string;
  kind: K;
  concept: string;
  /** Control's last word on the final explanation (vague questions, once it was judged). */
  finalUnderstood?: boolean;
}

/**
 * The dialogue, one variant per step: a field exists exactly where the step needs it, so the compiler (not a runtime
 * check) makes sure a classified step has its concept and a Control step the reply it judges. The stored JSON is the
 * same plain object for every variant (same field names), so dialogues saved by any node stay readable.
 */
export type HandDialogue =
  /**
   * Waiting for the question (after the prompt is sent). `choices`: the question named nothing, so the prompt asks
   * which part and offers these concepts of the chapter (empty: asks which part with nothing to pick).
   */
  | (DialogueBase & { step: 'asking'; question: null; choices?: string[] })
  | (DialogueBase & { step: 'classifying'; question: string })
  /** Specific question: the answer streams. */
  | (Classified<'specific'> & { step: 'answering' })
  /** Vague: the explanation of `parts[index]` streams (a re-explanation when it already has some). */
  | (Classified<'vague'> & { step: 'explaining'; confusion?: string })
  /** Asking whether `parts[index]` was understood, then waiting for the reply. */
  | (Classified<'vague'> & { step: 'checking' })
  /** Control judges `lastReply`, the reply to the check of `parts[index]`. */
  | (Classified<'vague'> & { step: 'controlling'; lastReply: string })
  /** The final explanation of the original concept streams; `confusion` is what was not understood last time. */
  | (Classified<'vague'> & { step: 'final'; confusion?: string })
  | (Classified<'vague'> & { step: 'final-checking' })
  | (Classified<'vague'> & { step: 'final-controlling'; lastReply: string })
  | (Classified<'vague'> & { step: 'summarizing' })
  | (Classified<HandKind> & { step: 'done' });

export type HandStep = HandDialogue['step'];
type AtStep<S extends HandStep> = Extract<HandDialogue, { step: S }>;

export interface HandCheck {
  /** 0-based; the final check has index `parts.length`. */
  index: number;
  /** Checks in this dialogue: one per part plus the final one. */
  total: number;
  concept: string;
  text: string;
}

export type HandAction =
  | { type: 'prompt-ask'; text: string; choices?: string[] }
  | { type: 'wait-for-ask' }
  | { type: 'classify'; question: string }
  | { type: 'stream-answer'; question: string; concept: string }
  | {
      type: 'stream-explain';
      index: number;
      /** Number of parts (the explanation's "1/3"). */
      total: number;
      reExplain: boolean;
      question: string;
      concept: string;
      subconcept: HandSubconcept;
      previous: string[];
      confusion: string;
    }
  | ({ type: 'ask-check' } & HandCheck)
  | { type: 'wait-for-reply' }
  | { type: 'control'; target: 'part' | 'final'; index: number; concept: string; explanation: string; reply: string }
  | { type: 'stream-final'; reExplain: boolean; question: string; concept: string; parts: ExplainedPart[]; previous: string[]; confusion: string }
  | { type: 'summarize'; question: string; concept: string; parts: ExplainedPart[] }
  | { type: 'close'; kind: HandKind };

/** An event that does not fit the dialogue's step (a race the actor must drop, or a programming error). */
export class HandDialogueError extends Error {
  constructor(
    readonly step: HandStep,
    readonly event: string,
  ) {
    super(`hand dialogue: '${event}' does not apply in step '${step}'`);
    this.name = 'HandDialogueError';
  }
}

/** `d` if it is at one of `steps` (narrowed to those variants); HandDialogueError otherwise. */
function atStep<S extends HandStep>(d: HandDialogue, event: string, ...steps: S[]): AtStep<S> {
  if (!(steps as HandStep[]).includes(d.step)) throw new HandDialogueError(d.step, event);
  return d as AtStep<S>;
}

/** An element the step's invariants promise (the current part, its last explanation): a broken one is an error. */
function present<T>(value: T | undefined, d: HandDialogue, event: string): T {
  if (value === undefined) throw new HandDialogueError(d.step, event);
  return value;
}

export function startDialogue(): HandDialogue {
  return { question: null, parts: [], index: 0, step: 'asking', asked: false, final: [] };
}

/** The student may send their question now. */
export function acceptsAsk(d: HandDialogue): boolean {
  return d.step === 'asking';
}

/** The student may reply to a check now. */
export function acceptsReply(d: HandDialogue): boolean {
  return d.step === 'checking' || d.step === 'final-checking';
}

/** The prompt or the check was sent: from now on the dialogue waits for the student. */
export function onPrompted(d: HandDialogue): HandDialogue {
  return { ...atStep(d, 'prompted', 'asking', 'checking', 'final-checking'), asked: true };
}

export function onAsk(d: HandDialogue, text: string): HandDialogue {
  const { choices: _choices, ...asking } = atStep(d, 'ask', 'asking');
  const question = text.trim();
  if (!question) throw new HandDialogueError(d.step, 'ask');
  return { ...asking, question, step: 'classifying', asked: false };
}

/**
 * The question named nothing to explain (`잘 모르겠어요`, `?`): instead of classifying it, ask again which part,
 * offering `choices` (concepts of the current chapter). The student's next question starts the dialogue anew.
 */
export function onUnclear(d: HandDialogue, choices: readonly string[]): HandDialogue {
  const { question: _question, ...classifying } = atStep(d, 'unclear', 'classifying');
  return { ...classifying, question: null, step: 'asking', asked: false, choices: [...choices] };
}

export function onClassified(d: HandDialogue, result: Classification): HandDialogue {
  const classifying = atStep(d, 'classified', 'classifying');
  if (result.kind === 'specific') return { ...classifying, kind: 'specific', concept: result.concept, step: 'answering' };
  const parts = result.subconcepts.slice(0, MAX_SUBCONCEPTS).map((sub) => ({ concept: sub.concept, focus: sub.focus, explanations: [] }));
  // A vague question with nothing to split goes straight to the explanation of the concept itself.
  return { ...classifying, kind: 'vague', concept: result.concept, parts, index: 0, step: parts.length > 0 ? 'explaining' : 'final' };
}

export function onAnswered(d: HandDialogue): HandDialogue {
  return { ...atStep(d, 'answered', 'answering'), step: 'done' };
}

export function onExplained(d: HandDialogue, text: string): HandDialogue {
  const { confusion: _confusion, ...explaining } = atStep(d, 'explained', 'explaining');
  const parts = d.parts.map((part, index) => (index === d.index ? { ...part, explanations: [...part.explanations, text] } : part));
  return { ...explaining, parts, step: 'checking', asked: false };
}

export function onReply(d: HandDialogue, text: string): HandDialogue {
  const checking = atStep(d, 'reply', 'checking', 'final-checking');
  return { ...checking, lastReply: text.trim(), step: checking.step === 'checking' ? 'controlling' : 'final-controlling', asked: false };
}

/** Control's verdict on the reply: next part, the same part again (bounded), the final, or the summary. */
export function onControl(d: HandDialogue, result: ControlResult): HandDialogue {
  const { lastReply, ...base } = atStep(d, 'control', 'controlling', 'final-controlling');
  const confusion = result.confusion.trim() || lastReply;
  if (base.step === 'final-controlling') {
    if (!result.understood && base.final.length < MAX_TRIES_PER_PART) return { ...base, finalUnderstood: false, step: 'final', confusion };
    return { ...base, finalUnderstood: result.understood, step: 'summarizing' };
  }
  const part = present(base.parts[base.index], d, 'control');
  if (!result.understood && part.explanations.length < MAX_TRIES_PER_PART) {
    return { ...base, parts: replacePart(base, { ...part, understood: false }), step: 'explaining', confusion };
  }
  const parts = replacePart(base, { ...part, understood: result.understood });
  const index = base.index + 1;
  return { ...base, parts, index, step: index < parts.length ? 'explaining' : 'final' };
}

function replacePart(d: DialogueBase, part: HandPart): HandPart[] {
  return d.parts.map((existing, index) => (index === d.index ? part : existing));
}

export function onFinalExplained(d: HandDialogue, text: string): HandDialogue {
  const { confusion: _confusion, ...final } = atStep(d, 'final-explained', 'final');
  return { ...final, final: [...final.final, text], step: 'final-checking', asked: false };
}

export function onSummarised(d: HandDialogue): HandDialogue {
  return { ...atStep(d, 'summarised', 'summarizing'), step: 'done' };
}

/** `'term'` followed by the particle that fits the term (not the quote mark). */
function quoted(term: string, pair: '을/를' | '이/가'): string {
  return `'${term}'${withParticle(term, pair).slice(term.length)}`;
}

/** The "이해했나요?" question after the `attempt`-th explanation (1-based) of a part or of the final concept. */
export function checkText(concept: string, attempt: number, final: boolean): string {
  if (attempt > 1) return `${quoted(concept, '을/를')} 다시 설명했어요. 이번에는 이해되셨나요? ${CHECK_HINT}`;
  if (final) return `지금까지의 내용을 바탕으로 ${quoted(concept, '을/를')} 정리했어요. 이해되셨나요? ${CHECK_HINT}`;
  return `'${concept}' 설명이 이해되셨나요? ${CHECK_HINT}`;
}

/** The check the student is (or is about to be) asked, so a reconnecting client can be shown it again. */
export function pendingCheck(d: HandDialogue): HandCheck | null {
  const total = d.parts.length + 1;
  if (d.step === 'checking') {
    const part = present(d.parts[d.index], d, 'check');
    return { index: d.index, total, concept: part.concept, text: checkText(part.concept, part.explanations.length, false) };
  }
  if (d.step === 'final-checking') {
    return { index: d.parts.length, total, concept: d.concept, text: checkText(d.concept, d.final.length, true) };
  }
  return null;
}

/** The parts as taught, each part's explanations joined (re-explanations included, in order). */
export function explainedParts(d: HandDialogue): ExplainedPart[] {
  return d.parts.map((part) => ({ concept: part.concept, explanation: part.explanations.join('\n\n') }));
}

/** `[(subconcept, explanation)…, (concept, final explanation)]`: what the summary agent summarises. */
export function summaryParts(d: HandDialogue): ExplainedPart[] {
  if (d.step === 'asking' || d.step === 'classifying') throw new HandDialogueError(d.step, 'summary');
  return [...explainedParts(d), { concept: d.concept, explanation: d.final.join('\n\n') }];
}

/** What the actor must do next. Waiting actions mean: do nothing until the student's next event. */
export function nextAction(d: HandDialogue): HandAction {
  switch (d.step) {
    case 'asking':
      if (d.asked) return { type: 'wait-for-ask' };
      if (d.choices === undefined) return { type: 'prompt-ask', text: HAND_PROMPT_TEXT };
      return { type: 'prompt-ask', text: d.choices.length > 0 ? CLARIFY_TEXT : CLARIFY_TEXT_NO_CHOICES, choices: d.choices };
    case 'classifying':
      return { type: 'classify', question: d.question };
    case 'answering':
      return { type: 'stream-answer', question: d.question, concept: d.concept };
    case 'explaining': {
      const part = present(d.parts[d.index], d, 'explain');
      return {
        type: 'stream-explain',
        index: d.index,
        total: d.parts.length,
        reExplain: part.explanations.length > 0,
        question: d.question,
        concept: d.concept,
        subconcept: { concept: part.concept, focus: part.focus },
        previous: part.explanations,
        confusion: d.confusion ?? '',
      };
    }
    case 'checking':
    case 'final-checking':
      return d.asked ? { type: 'wait-for-reply' } : { type: 'ask-check', ...present(pendingCheck(d) ?? undefined, d, 'check') };
    case 'controlling': {
      const part = present(d.parts[d.index], d, 'control');
      return {
        type: 'control',
        target: 'part',
        index: d.index,
        concept: part.concept,
        explanation: present(part.explanations.at(-1), d, 'control'),
        reply: d.lastReply,
      };
    }
    case 'final-controlling':
      return {
        type: 'control',
        target: 'final',
        index: d.parts.length,
        concept: d.concept,
        explanation: present(d.final.at(-1), d, 'control'),
        reply: d.lastReply,
      };
    case 'final':
      return {
        type: 'stream-final',
        reExplain: d.final.length > 0,
        question: d.question,
        concept: d.concept,
        parts: explainedParts(d),
        previous: d.final,
        confusion: d.confusion ?? '',
      };
    case 'summarizing':
      return { type: 'summarize', question: d.question, concept: d.concept, parts: summaryParts(d) };
    case 'done':
      return { type: 'close', kind: d.kind };
  }
}
