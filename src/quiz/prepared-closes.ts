import type { PlayerRecord, RoomRepository } from './room-repository.js';
import type { QuestionResults, RecordedAnswer, ScoredPlayer, Standings } from './scoring.js';
import type { ShortGrades } from './short-answer-judge.js';

/**
 * A question's close worked out during its answer grace: the standings its reveal will show, from the players and
 * answers recorded when the deadline passed. Answers can still arrive during the grace, so the close uses it only
 * when nothing it was made from changed since: the same open record (a pause or an early close writes another), the
 * same players version (joins, team changes and kicks count there, see RoomRepository.savePlayer) and as many
 * answer entries (answers are written once and removed only by a kick). Anything else and the close scores from the
 * store as it would have without it; a prepared close never decides anything by itself.
 */
export interface PreparedClose {
  /** The version of the open record it was made for. */
  readonly v: number;
  readonly q: number;
  readonly playersVersion: number;
  readonly answerEntries: number;
  readonly answers: Map<string, RecordedAnswer>;
  readonly players: ReadonlyArray<ScoredPlayer & Pick<PlayerRecord, 'team'>>;
  readonly table: Standings;
  readonly written: Array<readonly [number, QuestionResults]>;
  /** A short-text question's grades, made here and stored only if the close uses them. */
  readonly grades?: ShortGrades;
}

/** The rooms it keeps one prepared close for at most (a node drives far fewer at once). */
const PREPARED_ROOMS = 256;

/** One prepared close per room, on the node driving it. */
export class PreparedCloses {
  private readonly rooms = new Map<string, PreparedClose>();

  constructor(private readonly repository: RoomRepository) {}

  keep(roomId: string, prepared: PreparedClose): void {
    this.rooms.delete(roomId);
    if (this.rooms.size >= PREPARED_ROOMS) this.rooms.delete(this.rooms.keys().next().value!);
    this.rooms.set(roomId, prepared);
  }

  /**
   * Closes question `q` of open record `v` and answers the close prepared for it if it still holds (null otherwise,
   * with the question closed all the same). It is taken once: a rescore later (the host's review) scores anew.
   */
  async take(roomId: string, v: number, q: number): Promise<PreparedClose | null> {
    const prepared = this.rooms.get(roomId);
    this.rooms.delete(roomId);
    if (!prepared || prepared.v !== v || prepared.q !== q) return null;
    // Closed first: no answer is recorded after this, so the counts below are final.
    await this.repository.closeAnswers(roomId, q);
    const [playersVersion, answerEntries] = await Promise.all([this.repository.playersVersion(roomId), this.repository.answerEntries(roomId, q)]);
    return playersVersion === prepared.playersVersion && answerEntries === prepared.answerEntries ? prepared : null;
  }

  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }
}
