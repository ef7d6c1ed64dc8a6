import { chapterOf, type SessionState } from '../lecture/session-state.js';

/** What `student:progress` reports and the roster keeps. */
export interface Progress {
  chapter: number;
  percent: number;
  state: string;
}

const REMEDIATION_STEPS: ReadonlySet<string> = new Set(['splitting', 'subquestion', 'subjudging', 'remedial']);

/**
 * The roster's `state` for a session state. The bad path is `remediation`, so the page can show who is stuck; other
 * states keep their session name (`streaming`, `awaiting-answer`, `paused`, `hand-raised`, …).
 */
export function monitorState(state: SessionState): string {
  if (state.kind === 'tutoring') return REMEDIATION_STEPS.has(state.step.kind) ? 'remediation' : 'tutoring';
  return state.kind;
}

export const sameProgress = (left: Progress, right: Progress): boolean =>
  left.chapter === right.chapter && left.percent === right.percent && left.state === right.state;

/**
 * Chapter-level progress: the chapters before the current one over all chapters (`chapterIndexes`, in lecture
 * order), 100 once finished. Within-chapter position is left out on purpose: the lecture's length is only known
 * once generated, and chapter granularity is what the instructor's progress bar needs.
 */
export function rosterProgress(chapterIndexes: readonly number[], state: SessionState, previous: Progress): Progress {
  const label = monitorState(state);
  if (state.kind === 'finished') return { chapter: previous.chapter, percent: 100, state: label };
  const chapter = chapterOf(state);
  if (chapter === undefined) return { chapter: previous.chapter, percent: previous.percent, state: label };
  const position = chapterIndexes.indexOf(chapter);
  const percent = position < 0 ? previous.percent : Math.round((100 * position) / chapterIndexes.length);
  return { chapter, percent, state: label };
}
