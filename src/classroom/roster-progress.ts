import type { SessionActivity } from '../lecture/index.js';

/** What `student:progress` reports and the roster keeps. */
export interface Progress {
  chapter: number;
  percent: number;
  /** The activity's state: the bad path is `remediation`, so the page can show who is stuck. */
  state: string;
}

export const sameProgress = (left: Progress, right: Progress): boolean =>
  left.chapter === right.chapter && left.percent === right.percent && left.state === right.state;

/**
 * Chapter-level progress: the chapters before the current one over all chapters (`chapterIndexes`, in lecture
 * order), 100 once finished. Within-chapter position is left out on purpose: the lecture's length is only known
 * once generated, and chapter granularity is what the instructor's progress bar needs.
 */
export function rosterProgress(
  chapterIndexes: readonly number[],
  activity: Pick<SessionActivity, 'state' | 'chapter'>,
  previous: Progress,
): Progress {
  const label = activity.state;
  if (label === 'finished') return { chapter: previous.chapter, percent: 100, state: label };
  const chapter = activity.chapter;
  if (chapter === undefined) return { chapter: previous.chapter, percent: previous.percent, state: label };
  const position = chapterIndexes.indexOf(chapter);
  const percent = position < 0 ? previous.percent : Math.round((100 * position) / chapterIndexes.length);
  return { chapter, percent, state: label };
}
