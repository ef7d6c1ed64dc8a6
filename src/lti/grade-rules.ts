/**
 * The one rule of what grade may go to an LMS gradebook, called by the sender before every score it sends.
 *
 * A score goes only when every item of the student's result is decided: an item still `Ungraded` (the grader could
 * not decide and the teacher has not overridden it yet) holds the score back, and so does an item whose status is
 * one of {@link REVIEW_STATUSES}, statuses that wait for a teacher's decision (`Needs_Review`: the grader was not
 * sure); nothing is sent for it until a teacher overrides the item (an override is a result change, which queues the
 * score again).
 */

/** Grading statuses that wait for a teacher's review before any score leaves lectern. */
export const REVIEW_STATUSES: ReadonlySet<string> = new Set<string>(['Needs_Review']);

export type HoldReason = 'ungraded' | 'review';

/** Why the student's score must not be sent yet, or null when it may be. */
export function gradeHold(items: readonly { result_status: string }[]): HoldReason | null {
  if (items.some((item) => REVIEW_STATUSES.has(item.result_status))) return 'review';
  if (items.some((item) => item.result_status === 'Ungraded')) return 'ungraded';
  return null;
}

export const HOLD_MESSAGES: Record<HoldReason, string> = {
  ungraded: '채점되지 않은 문항이 있어 아직 보내지 않았습니다. 점수를 직접 정하면 보냅니다.',
  review: '선생님의 검토를 기다리는 문항이 있어 아직 보내지 않았습니다.',
};
