import type { PublicPhase, ReplyKind } from './tutor.js';

/**
 * Public phases (`PublicPhase['kind']`) from which `hand:raise` is accepted: the lecture is streaming, waits for an
 * answer (a subquestion shows as awaiting-answer too) or is paused. The server decides on its private state
 * (SessionActor.raiseHand); this is the same rule as a client can see it, so pages enable the button without
 * guessing. Browser-safe: types and constants only.
 */
export const HAND_PHASES: ReadonlySet<PublicPhase['kind']> = new Set<PublicPhase['kind']>(['streaming', 'awaiting-answer', 'paused']);

/** Reply kinds of the raise-hand dialogue (`tutor:reply-start`): they belong to the hand panel, not the lecture. */
export const HAND_REPLY_KINDS: ReadonlySet<ReplyKind> = new Set<ReplyKind>(['answer', 'explain', 'summary']);
