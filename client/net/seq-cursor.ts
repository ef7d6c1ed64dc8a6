/**
 * Where a client stands in a session's numbered event stream. Every `/tutor` session event carries the session's
 * `seq`, one more than the last; a `session:state` snapshot carries the seq it stands for and replaces everything
 * before it. `seq: 0` marks a notice outside the stream (a session that cannot open, a store outage).
 */
export type SeqVerdict =
  /** A snapshot: lastSeq is now its seq. */
  | 'snapshot'
  /** The next event: apply it (lastSeq moved on). */
  | 'next'
  /** Already applied (a replay overlapping what arrived live): drop it. */
  | 'stale'
  /** Events are missing before it: not applied; ask for what was missed (`session:resume {lastSeq}`). */
  | 'gap'
  /** seq 0: outside the numbered stream. */
  | 'notice';

export class SeqCursor {
  /** The seq of the last event applied (0: nothing yet). */
  lastSeq: number;
  /** The highest seq seen, applied or not: how far the session has come at least. */
  highestSeen: number;

  constructor(lastSeq = 0) {
    this.lastSeq = lastSeq;
    this.highestSeen = lastSeq;
  }

  /** Sorts one event by its seq and moves the cursor when it is applied. */
  accept(seq: number, snapshot = false): SeqVerdict {
    if (snapshot) {
      this.lastSeq = seq;
      this.highestSeen = Math.max(this.highestSeen, seq);
      return 'snapshot';
    }
    if (!(seq > 0)) return 'notice';
    this.highestSeen = Math.max(this.highestSeen, seq);
    if (seq <= this.lastSeq) return 'stale';
    if (seq > this.lastSeq + 1) return 'gap';
    this.lastSeq = seq;
    return 'next';
  }

  /** Starts over from `seq` (a page that has rendered nothing resumes from 0). */
  reset(seq = 0): void {
    this.lastSeq = seq;
    this.highestSeen = seq;
  }
}
