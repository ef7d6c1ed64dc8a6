import {
  nextAction,
  onAnswered,
  onClassified,
  onControl,
  onExplained,
  onFinalExplained,
  onPrompted,
  onSummarised,
  onUnclear,
} from './hand-dialogue.js';
import { namesNothing } from './assistant-cues.js';
import type { SourcedTextStream, StudentAssistant } from './student-assistant.js';
import type { TextStream } from '../../llm/index.js';
import type { ReplyKind } from '../../protocol/wire/tutor.js';
import type { Interrupts } from '../interrupts.js';
import type { SessionOutbox } from '../session-outbox.js';
import { afterHand, type SessionState } from '../session-state.js';

export type HandRaised = Extract<SessionState, { kind: 'hand-raised' }>;

/** Where a streamed reply sits and how its id is saved with the state that streams it. */
export interface ReplyOptions {
  place: { chapter: number; at: number };
  /** A reply of this step started before a reload (it is closed as abandoned first). */
  previousReplyId: string | undefined;
  withReplyId: (replyId: string) => SessionState;
}

/** What the raise-hand steps need from the session actor (its persistence and streaming, nothing else). */
export interface HandHost {
  readonly materialId: string;
  readonly assistant: StudentAssistant;
  /** Saves states and sends events, in order. */
  readonly outbox: Pick<SessionOutbox, 'transition'>;
  /** Whether the step is still current; the options of its model calls. */
  readonly interrupts: Pick<Interrupts, 'isCurrent' | 'modelCall'>;
  /** A stream with `sources` (the assistant's answers and explanations) ends with them in `tutor:reply-end`. */
  streamReply(kind: ReplyKind, epoch: number, open: () => TextStream | SourcedTextStream, options: ReplyOptions): Promise<string | false>;
  /** Where the dialogue sits in the lecture's rendered history (async: may read the chapter's text from the store). */
  place(state: HandRaised): Promise<{ chapter: number; at: number }>;
  /** The session's state now (the step's `state` may be stale after an await). */
  current(): SessionState;
}

/**
 * Runs one action of the raise-hand dialogue (seed 003, 번외 1–4) and saves its outcome: the pure dialogue machine
 * decides what comes next, the Student Assistant's agents do the work. Returns false when the dialogue waits for
 * the student (or was interrupted).
 */
export async function runHandStep(host: HandHost, state: HandRaised, epoch: number): Promise<boolean> {
  const { dialogue } = state;
  const action = nextAction(dialogue);
  const place = await host.place(state);
  if (!host.interrupts.isCurrent(epoch)) return false;
  // The student may have acted while the place was read (a hand:ask sent before the prompt arrived): acting on the
  // stale state would overwrite that. Report progress so the drive loop runs the next step from the new state.
  if (host.current() !== state) return true;
  // Passages are looked up in the chapter where the hand went up first (assistant-passages.ts).
  const call = { materialId: host.materialId, chapter: place.chapter, ...host.interrupts.modelCall() };
  const next = (changes: Partial<HandRaised>): HandRaised => {
    const { replyId: _replyId, ...rest } = state;
    return { ...rest, ...changes };
  };
  const stream = (kind: ReplyKind, open: () => TextStream | SourcedTextStream) =>
    host.streamReply(kind, epoch, open, {
      place,
      previousReplyId: state.replyId,
      withReplyId: (replyId) => ({ ...state, replyId }),
    });

  switch (action.type) {
    case 'wait-for-ask':
    case 'wait-for-reply':
      return false;
    case 'prompt-ask':
      host.outbox.transition(
        next({ dialogue: onPrompted(dialogue) }),
        [{ event: 'assistant:prompt', payload: { text: action.text, ...(action.choices === undefined ? {} : { choices: action.choices }) } }],
        [{ type: 'assistant', ...place, text: action.text }],
      );
      return true;
    case 'ask-check': {
      const { type: _type, ...check } = action;
      host.outbox.transition(
        next({ dialogue: onPrompted(dialogue) }),
        [{ event: 'assistant:check', payload: check }],
        [{ type: 'assistant', ...place, text: action.text }],
      );
      return true;
    }
    case 'classify': {
      // A question that names nothing cannot be explained: ask which part of the current chapter it is about.
      if (namesNothing(action.question)) {
        const choices = await host.assistant.chapterConcepts(host.materialId, place.chapter);
        if (!host.interrupts.isCurrent(epoch)) return false;
        host.outbox.transition(next({ dialogue: onUnclear(dialogue, choices) }));
        return true;
      }
      const result = await host.assistant.classify({ ...call, question: action.question });
      if (!host.interrupts.isCurrent(epoch)) return false;
      host.outbox.transition(next({ dialogue: onClassified(dialogue, result) }));
      return true;
    }
    case 'stream-answer': {
      const text = await stream('answer', () => host.assistant.answer({ ...call, question: action.question, concept: action.concept }));
      if (text === false) return false;
      host.outbox.transition(next({ dialogue: onAnswered(dialogue) }));
      return true;
    }
    case 'stream-explain': {
      const { type: _type, ...request } = action;
      const text = await stream('explain', () => host.assistant.explain({ ...call, ...request }));
      if (text === false) return false;
      host.outbox.transition(next({ dialogue: onExplained(dialogue, text) }));
      return true;
    }
    case 'control': {
      const { type: _type, ...request } = action;
      const result = await host.assistant.control({ ...host.interrupts.modelCall(), ...request });
      if (!host.interrupts.isCurrent(epoch)) return false;
      host.outbox.transition(next({ dialogue: onControl(dialogue, result) }));
      return true;
    }
    case 'stream-final': {
      const { type: _type, ...request } = action;
      const text = await stream('explain', () => host.assistant.finalExplanation({ ...call, ...request }));
      if (text === false) return false;
      host.outbox.transition(next({ dialogue: onFinalExplained(dialogue, text) }));
      return true;
    }
    case 'summarize': {
      const { type: _type, ...request } = action;
      const text = await stream('summary', () => host.assistant.summary({ ...host.interrupts.modelCall(), ...request }));
      if (text === false) return false;
      host.outbox.transition(next({ dialogue: onSummarised(dialogue) }));
      return true;
    }
    case 'close':
      host.outbox.transition(
        afterHand(state),
        [{ event: 'hand:closed', payload: { kind: action.kind } }],
        [{ type: 'hand-closed', ...place, kind: action.kind }],
      );
      return true;
  }
}
