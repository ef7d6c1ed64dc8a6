import { pendingCheck, type HandDialogue } from './hand/hand-dialogue.js';
import type { PublicPhase, ReplySource } from '../protocol/wire/tutor.js';
import type { Subconcept } from './qa-tutor.js';

/**
 * The tutoring session as a discriminated union: fields exist only in the states where they mean something.
 * `offset` is always a source offset into the chapter's raw generated text (markers included), so it means the
 * same thing on every node that reads the same stream.
 */
export interface PendingQuestion {
  id: string;
  text: string;
  /** Source offsets of the question (markers included); the lecture resumes at `end`. */
  start: number;
  end: number;
}

export type TutoringStep =
  /** The model answer and verdict are being written. */
  | { kind: 'judging' }
  /** Bad mode: the verdict was sent; the concept is being split into subconcepts. */
  | { kind: 'splitting' }
  /** Good mode: the supplementary explanation streams, then the lecture resumes. */
  | { kind: 'supplement'; replyId?: string }
  /** Bad mode: subconcept `index` is asked; waiting for the student's reply. */
  | { kind: 'subquestion'; index: number }
  /** Bad mode: the reply to subconcept `index` was judged; `wrong` replies get a remedial explanation. */
  | { kind: 'subjudging'; index: number; answer: string }
  | { kind: 'remedial'; index: number; answer: string; replyId?: string }
  /** Bad mode, after the subconcepts: the parent question is asked again (short form); waiting for the reply. */
  | { kind: 'reasking' }
  /** The reply to the re-asked question is judged (by the same judge as the first answer); then the supplement. */
  | { kind: 'rejudging'; answer: string }
  /**
   * The verdict was unsure: the model answer was shown; waiting for the student's own comparison. With `index`, the
   * unsure verdict was on subconcept `index`'s question (and `answer` the student's reply to it).
   */
  | { kind: 'self-assessing'; index?: number; answer?: string };

export type ActiveState =
  /** `failures`: failed generation attempts of this chapter already reported to the student (see ChapterFeed). */
  | { kind: 'streaming'; chapter: number; offset: number; failures?: number }
  | { kind: 'awaiting-answer'; chapter: number; question: PendingQuestion }
  | {
      kind: 'tutoring';
      chapter: number;
      question: PendingQuestion;
      answer: string;
      modelAnswer?: string;
      /** The material passages the model answer was written from (chapter and pages), cited by the supplement. */
      modelAnswerSources?: ReplySource[];
      subconcepts?: Subconcept[];
      step: TutoringStep;
    };

export type SessionState =
  | { kind: 'idle' }
  | ActiveState
  | { kind: 'paused'; reason: 'student' | 'error'; previous: ActiveState }
  /**
   * The raise-hand side dialogue; the lecture waits in `previous`. `replyId`: a dialogue reply under way.
   * `pausedBefore`: the hand went up while the student had paused, so closing the dialogue returns to the pause.
   */
  | { kind: 'hand-raised'; dialogue: HandDialogue; previous: ActiveState; replyId?: string; pausedBefore?: true }
  | { kind: 'finished' };

export function isActive(state: SessionState): state is ActiveState {
  return state.kind === 'streaming' || state.kind === 'awaiting-answer' || state.kind === 'tutoring';
}

/** Where the lecture goes when the raise-hand dialogue closes: back to the pause it was raised from, or on. */
export function afterHand(state: Extract<SessionState, { kind: 'hand-raised' }>): SessionState {
  return state.pausedBefore ? { kind: 'paused', reason: 'student', previous: state.previous } : state.previous;
}

/** The chapter a state is in (for progress and snapshots). */
export function chapterOf(state: SessionState): number | undefined {
  switch (state.kind) {
    case 'idle':
    case 'finished':
      return undefined;
    case 'paused':
    case 'hand-raised':
      return state.previous.chapter;
    case 'streaming':
    case 'awaiting-answer':
    case 'tutoring':
      return state.chapter;
  }
}

/** The id of the question the student must answer now, if any (a subquestion id while one is asked). */
export function pendingQuestionId(state: SessionState): string | undefined {
  if (state.kind === 'awaiting-answer') return state.question.id;
  if (state.kind === 'tutoring' && state.step.kind === 'subquestion') return subquestionId(state.question.id, state.step.index);
  if (state.kind === 'tutoring' && state.step.kind === 'reasking') return reaskId(state.question.id);
  return undefined;
}

/** The id of the parent question asked again after its subconcepts. */
export function reaskId(parentId: string): string {
  return `${parentId}.r`;
}

const SHORT_QUESTION_CHARS = 120;

/**
 * The short form of a question for its re-ask: the sentence that asks (the last one ending in a question mark, else
 * the last sentence), clipped. A lecture question often opens with context the student has just been taken through.
 */
export function shortQuestion(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const sentences = flat.match(/[^.?!。？！]+[.?!。？！]*/gu)?.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '') ?? [];
  const asking = sentences.findLast((sentence) => /[?？]$/u.test(sentence)) ?? sentences.at(-1) ?? flat;
  return asking.length > SHORT_QUESTION_CHARS ? `${asking.slice(0, SHORT_QUESTION_CHARS - 1)}…` : asking;
}

export function subquestionId(parentId: string, index: number): string {
  return `${parentId}.s${index + 1}`;
}

export function questionId(chapter: number, ordinal: number): string {
  return `c${chapter}q${ordinal}`;
}

/** What the client is told about the phase. Never includes model answers. */
export function toPublicPhase(state: SessionState): PublicPhase {
  switch (state.kind) {
    case 'idle':
      return { kind: 'idle' };
    case 'finished':
      return { kind: 'finished' };
    case 'streaming':
      return { kind: 'streaming', chapter: state.chapter };
    case 'paused':
      return { kind: 'paused', chapter: state.previous.chapter, reason: state.reason };
    case 'hand-raised': {
      const check = pendingCheck(state.dialogue);
      const waiting = state.dialogue.asked ? (state.dialogue.step === 'asking' ? 'ask' : 'reply') : null;
      return {
        kind: 'hand-raised',
        chapter: state.previous.chapter,
        waiting,
        ...(waiting === 'reply' && check ? { check } : {}),
        ...(waiting === 'ask' && state.dialogue.step === 'asking' && state.dialogue.choices?.length ? { choices: state.dialogue.choices } : {}),
      };
    }
    case 'awaiting-answer':
      return { kind: 'awaiting-answer', chapter: state.chapter, questionId: state.question.id, text: state.question.text };
    case 'tutoring': {
      const step = state.step;
      const sub = step.kind === 'subquestion' ? state.subconcepts?.[step.index] : undefined;
      if (step.kind === 'subquestion' && sub) {
        return {
          kind: 'awaiting-answer',
          chapter: state.chapter,
          questionId: subquestionId(state.question.id, step.index),
          text: sub.question,
          parentQuestionId: state.question.id,
        };
      }
      if (step.kind === 'reasking') {
        return {
          kind: 'awaiting-answer',
          chapter: state.chapter,
          questionId: reaskId(state.question.id),
          text: shortQuestion(state.question.text),
          parentQuestionId: state.question.id,
        };
      }
      return { kind: 'tutoring', chapter: state.chapter, questionId: state.question.id };
    }
  }
}
