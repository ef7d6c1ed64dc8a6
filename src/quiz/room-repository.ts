import { z } from 'zod';
import type { Page, PageRequest } from '../protocol/page.js';
import { RoomItem, RoomOptions } from '../protocol/quiz.js';
import type { Logger } from '../kernel/index.js';
import { pageOfIndex, readJsonRecord, RETENTION, type HsetnxUnlessResult, type Store } from '../store/index.js';
import { AnswerResultSchema, PhaseRecordSchema, RecordedResponseSchema, RoomEventSchema, RoomResultsSchema, StandingsSchema } from './room-records.js';
import type { PhaseRecord } from './room-phase.js';
import type { QuestionResults, RecordedAnswer, ScoredPlayer, Standings } from './scoring.js';
import { withAnswers, type RoomResults } from './room-results.js';
import { quizKeys } from './quiz-keys.js';

/** How long a room's live state is kept after its last write; results are kept without expiry. */
export const ROOM_TTL_MS = RETENTION.roomMs;
const ttl = { ttlMs: ROOM_TTL_MS };
/** The field an answers hash gets when its question closes; answers after it are refused (see hsetnxUnless). */
export const CLOSED_FIELD = '~closed';
/** Marks a question's answers hash as opened (so an empty one exists and counts no answer). */
const OPENED_FIELD = '~opened';
const EVENTS_MAX_LEN = 500;

/** Fixed at creation; holds the quiz items (with solutions), so it never leaves the server. */
export const RoomMeta = z.object({
  roomId: z.string(),
  classId: z.string(),
  quizId: z.string(),
  code: z.string(),
  title: z.string(),
  options: RoomOptions,
  items: z.array(RoomItem),
  createdAt: z.number(),
});
export type RoomMeta = z.infer<typeof RoomMeta>;

const PlayerRecord = z.object({
  playerId: z.string(),
  nickname: z.string(),
  joinedAt: z.number(),
  kicked: z.boolean().optional(),
  /** Team mode: the player's team (0-based), given at join or picked in the lobby. */
  team: z.number().int().min(0).exactOptional(),
});
export type PlayerRecord = z.infer<typeof PlayerRecord>;

const Answer: z.ZodType<RecordedAnswer> = z.intersection(
  RecordedResponseSchema,
  z.object({ responseMs: z.number().int().min(0), allowedMs: z.number().int().min(0).optional() }),
);

const QuestionResultsSchema = z.record(z.string(), AnswerResultSchema);

const ExtraTime = z.record(z.string(), z.number().int().min(0));

/** A room as the class's room list shows it (`GET /api/rooms`). */
const RoomListEntry = z.object({
  roomId: z.string(),
  code: z.string(),
  title: z.string(),
  createdAt: z.number(),
  phase: z.string(),
  players: z.number().int().min(0),
});
export type RoomListEntry = z.infer<typeof RoomListEntry>;

const listEntryOf = (results: RoomResults): RoomListEntry => ({
  roomId: results.roomId,
  code: results.code,
  title: results.title,
  createdAt: results.createdAt,
  phase: results.phase,
  players: results.players.length,
});

/** An entry of a room's event stream: what every node renders to its own sockets. */
export type RoomEvent =
  | { type: 'phase'; record: PhaseRecord }
  | { type: 'locked'; locked: boolean }
  | { type: 'count'; q: number; answered: number; players: number }
  | { type: 'players' }
  | { type: 'kick'; playerId: string }
  /** A short-text question's grades changed by the host's review: its reveal is sent again. */
  | { type: 'regraded'; q: number };

/**
 * Store access of live rooms. Every key comes from quiz-keys.ts; every JSON read goes through `readJsonRecord` (a corrupt
 * record is logged and treated as missing).
 */
export class RoomRepository {
  constructor(
    private readonly store: Store,
    private readonly logger?: Logger,
  ) {}

  private read<T>(raw: string | null | undefined, schema: z.ZodType<T>, key: string): T | null {
    return readJsonRecord(raw, schema, { key, logger: this.logger });
  }

  /** Reserves the code (SET NX) first; false when another room holds it. */
  async reserveCode(code: string, roomId: string): Promise<boolean> {
    return this.store.set(quizKeys.roomCode(code), roomId, { nx: true, ttlMs: ROOM_TTL_MS });
  }

  async create(meta: RoomMeta, lobby: PhaseRecord): Promise<void> {
    const roomKey = quizKeys.room(meta.roomId);
    await this.store.hset(roomKey, { meta: JSON.stringify(meta), phase: JSON.stringify(lobby), locked: '0', playerCount: '0' }, ttl);
    await this.appendEvent(meta.roomId, { type: 'phase', record: lobby });
    if (meta.classId !== '') await this.store.zadd(quizKeys.classRooms(meta.classId), meta.createdAt, meta.roomId);
  }

  async roomIdByCode(code: string): Promise<string | null> {
    return this.store.get(quizKeys.roomCode(code));
  }

  async meta(roomId: string): Promise<RoomMeta | null> {
    return this.read(await this.store.hget(quizKeys.room(roomId), 'meta'), RoomMeta, `${quizKeys.room(roomId)} meta`);
  }

  async phase(roomId: string): Promise<PhaseRecord | null> {
    return this.read(await this.store.hget(quizKeys.room(roomId), 'phase'), PhaseRecordSchema, `${quizKeys.room(roomId)} phase`);
  }

  async setPhase(roomId: string, record: PhaseRecord): Promise<void> {
    await this.store.hset(quizKeys.room(roomId), { phase: JSON.stringify(record) }, ttl);
  }

  async locked(roomId: string): Promise<boolean> {
    return (await this.store.hget(quizKeys.room(roomId), 'locked')) === '1';
  }

  async setLocked(roomId: string, locked: boolean): Promise<void> {
    await this.store.hset(quizKeys.room(roomId), { locked: locked ? '1' : '0' }, ttl);
  }

  async playerCount(roomId: string): Promise<number> {
    return Number((await this.store.hget(quizKeys.room(roomId), 'playerCount')) ?? '0');
  }

  /** Adds `by` to the active player count and returns the new count (join +1, its rollback or a kick −1). */
  async addPlayerCount(roomId: string, by: number): Promise<number> {
    return this.store.hincrby(quizKeys.room(roomId), 'playerCount', by, ttl);
  }

  /** Counts one more join and returns the count (team mode: the join order that balances the teams). */
  async nextJoinNumber(roomId: string): Promise<number> {
    return this.store.hincrby(quizKeys.room(roomId), 'joins', 1, ttl);
  }

  /** Claims a nickname (case-folded) for a player: false when another player of the room has it. */
  async claimNickname(roomId: string, folded: string, playerId: string): Promise<boolean> {
    return this.store.hsetnx(quizKeys.roomNicknames(roomId), folded, playerId, ttl);
  }

  async releaseNickname(roomId: string, folded: string): Promise<void> {
    await this.store.hdel(quizKeys.roomNicknames(roomId), folded);
  }

  /**
   * Writes a player's record, then counts the change in the room's players version. Written in that order, a reader
   * that reads the version before the players (a prepared close) never pairs a version with an older list.
   */
  async savePlayer(roomId: string, player: PlayerRecord): Promise<void> {
    await this.store.hset(quizKeys.roomPlayers(roomId), { [player.playerId]: JSON.stringify(player) }, ttl);
    await this.store.hincrby(quizKeys.room(roomId), 'playersVersion', 1, ttl);
  }

  /** How many times a player record was written (joined, changed team, kicked): 0 before the first. */
  async playersVersion(roomId: string): Promise<number> {
    return Number((await this.store.hget(quizKeys.room(roomId), 'playersVersion')) ?? 0);
  }

  async player(roomId: string, playerId: string): Promise<PlayerRecord | null> {
    return this.read(await this.store.hget(quizKeys.roomPlayers(roomId), playerId), PlayerRecord, `${quizKeys.roomPlayers(roomId)} ${playerId}`);
  }

  /** Every player who ever joined, kicked ones included, in join order. */
  async players(roomId: string): Promise<PlayerRecord[]> {
    const key = quizKeys.roomPlayers(roomId);
    const all = await this.store.hgetall(key);
    return Object.entries(all)
      .flatMap(([playerId, raw]) => this.read(raw, PlayerRecord, `${key} ${playerId}`) ?? [])
      .sort((left, right) => left.joinedAt - right.joinedAt || (left.playerId < right.playerId ? -1 : 1));
  }

  /** Active players as scoring sees them. */
  async scoredPlayers(roomId: string): Promise<Array<ScoredPlayer & Pick<PlayerRecord, 'team'>>> {
    return (await this.players(roomId)).filter((player) => !player.kicked);
  }

  /** Creates the question's answers hash when it opens (its count of markers is what answerCount subtracts). */
  async openAnswers(roomId: string, q: number): Promise<void> {
    await this.store.hset(quizKeys.roomAnswers(roomId, q), { [OPENED_FIELD]: '1' }, ttl);
  }

  /** First write wins; refused once the question is closed. */
  async recordAnswer(roomId: string, q: number, playerId: string, answer: RecordedAnswer): Promise<HsetnxUnlessResult> {
    return this.store.hsetnxUnless(quizKeys.roomAnswers(roomId, q), playerId, JSON.stringify(answer), CLOSED_FIELD, ttl);
  }

  async answer(roomId: string, q: number, playerId: string): Promise<RecordedAnswer | null> {
    const key = quizKeys.roomAnswers(roomId, q);
    return this.read(await this.store.hget(key, playerId), Answer, `${key} ${playerId}`);
  }

  async dropAnswer(roomId: string, q: number, playerId: string): Promise<void> {
    await this.store.hdel(quizKeys.roomAnswers(roomId, q), playerId);
  }

  /** Answers recorded so far (player entries only). */
  async answerCount(roomId: string, q: number): Promise<number> {
    const all = await this.store.hlen(quizKeys.roomAnswers(roomId, q));
    const markers = (await this.store.hget(quizKeys.roomAnswers(roomId, q), CLOSED_FIELD)) === null ? 1 : 2;
    return Math.max(all - markers, 0);
  }

  /** Closes the question (no answer is recorded after this) and returns what was recorded. */
  async closeAnswers(roomId: string, q: number): Promise<void> {
    await this.store.hset(quizKeys.roomAnswers(roomId, q), { [CLOSED_FIELD]: '1' }, ttl);
  }

  async answers(roomId: string, q: number): Promise<Map<string, RecordedAnswer>> {
    return (await this.answersCounted(roomId, q)).answers;
  }

  /** The recorded answers and how many player entries the hash held (a corrupt one is counted but not returned). */
  async answersCounted(roomId: string, q: number): Promise<{ answers: Map<string, RecordedAnswer>; entries: number }> {
    const key = quizKeys.roomAnswers(roomId, q);
    const all = await this.store.hgetall(key);
    const answers = new Map<string, RecordedAnswer>();
    let entries = 0;
    for (const [playerId, raw] of Object.entries(all)) {
      if (playerId.startsWith('~')) continue;
      entries += 1;
      const answer = this.read(raw, Answer, `${key} ${playerId}`);
      if (answer) answers.set(playerId, answer);
    }
    return { answers, entries };
  }

  /** How many player entries the answers hash holds (its markers left out). */
  async answerEntries(roomId: string, q: number): Promise<number> {
    const key = quizKeys.roomAnswers(roomId, q);
    const [all, markers] = await Promise.all([this.store.hlen(key), this.store.hmget(key, [OPENED_FIELD, CLOSED_FIELD])]);
    return all - markers.filter((marker) => marker !== null).length;
  }

  /**
   * The standings after a question and, in the same write, that question as the last one closed and scored (read back
   * by a node taking the room over): a reader never sees the mark without its table.
   */
  async saveStandings(roomId: string, standings: Standings): Promise<void> {
    const q = standings.afterQuestion;
    await this.store.hset(quizKeys.room(roomId), { [`standings:${q}`]: JSON.stringify(standings), lastClosed: String(q) }, ttl);
  }

  /** Extra ms per question granted by the host, by player id (accommodations; see RoomService.grantExtraTime). */
  async extraTime(roomId: string): Promise<Record<string, number>> {
    return this.read(await this.store.hget(quizKeys.room(roomId), 'extraTime'), ExtraTime, `${quizKeys.room(roomId)} extraTime`) ?? {};
  }

  async setExtraTime(roomId: string, grants: Record<string, number>): Promise<void> {
    await this.store.hset(quizKeys.room(roomId), { extraTime: JSON.stringify(grants) }, ttl);
  }

  async standings(roomId: string, afterQuestion: number): Promise<Standings | null> {
    const field = `standings:${afterQuestion}`;
    return this.read(await this.store.hget(quizKeys.room(roomId), field), StandingsSchema, `${quizKeys.room(roomId)} ${field}`);
  }

  /**
   * Questions' results by player (room-results.ts): written when a question is scored, the size of the room each, so
   * a reveal never rewrites the questions before it. No expiry, like the results.
   */
  async saveQuestionResults(roomId: string, questions: ReadonlyArray<readonly [number, QuestionResults]>): Promise<void> {
    if (questions.length === 0) return;
    const fields = Object.fromEntries(questions.map(([q, results]) => [String(q), JSON.stringify(Object.fromEntries(results))]));
    await this.store.hset(quizKeys.roomQuestionResults(roomId), fields);
  }

  /** How many questions have their results stored per question (see saveQuestionResults). */
  questionResultsCount(roomId: string): Promise<number> {
    return this.store.hlen(quizKeys.roomQuestionResults(roomId));
  }

  /** Results head (resultsHead: answers left out) and, beside it, the room's list entry (so a list never reads results). */
  async saveResults(roomId: string, results: RoomResults): Promise<void> {
    // Three keys written together (a reveal waits for them): results name players and their answers, student data
    // the retention purge (data/) removes when it is old.
    await Promise.all([
      this.store.set(quizKeys.roomResults(roomId), JSON.stringify(results)),
      this.store.set(quizKeys.roomSummary(roomId), JSON.stringify(listEntryOf(results))),
      this.store.zadd(quizKeys.retentionRooms(), Date.now(), roomId),
    ]);
  }

  /** The results with every player's answers: the head joined with each question's results (room-results.ts). */
  async results(roomId: string): Promise<RoomResults | null> {
    const head = this.read(await this.store.get(quizKeys.roomResults(roomId)), RoomResultsSchema, quizKeys.roomResults(roomId));
    if (!head) return null;
    const key = quizKeys.roomQuestionResults(roomId);
    const parts = await this.store.hgetall(key);
    // A record stored whole (before results were kept per question) has no parts: its answers are in it.
    if (Object.keys(parts).length === 0) return head;
    const history: QuestionResults[] = [];
    for (const [field, raw] of Object.entries(parts)) {
      const results = this.read(raw, QuestionResultsSchema, `${key} ${field}`);
      if (results) history[Number(field)] = new Map(Object.entries(results));
    }
    return withAnswers(head, history);
  }

  async appendEvent(roomId: string, event: RoomEvent): Promise<string> {
    return this.store.xadd(quizKeys.roomEvents(roomId), { event: JSON.stringify(event) }, { maxLen: EVENTS_MAX_LEN, ...ttl });
  }

  tailEvents(roomId: string, afterId: string, signal: AbortSignal): AsyncIterable<{ id: string; event: RoomEvent }> {
    const store = this.store;
    const key = quizKeys.roomEvents(roomId);
    const read = <T>(raw: string | undefined, schema: z.ZodType<T>, id: string) => this.read(raw, schema, `${key} ${id}`);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const entry of store.xtail(key, afterId, { signal })) {
          const event = read(entry.fields.event, RoomEventSchema, entry.id);
          if (event) yield { id: entry.id, event };
        }
      },
    };
  }

  /** The id of the last event, to tail from after a snapshot. */
  async lastEventId(roomId: string): Promise<string> {
    const key = quizKeys.roomEvents(roomId);
    const length = await this.store.xlen(key);
    if (length === 0) return '0';
    // xread from '0' is bounded by the stream's cap (EVENTS_MAX_LEN).
    const entries = await this.store.xread(key, '0', EVENTS_MAX_LEN + 50);
    return entries.at(-1)?.id ?? '0';
  }

  async activeRooms(): Promise<string[]> {
    return (await this.store.zrange(quizKeys.activeRooms(), 0, -1)).map((entry) => entry.member);
  }

  /** A room with a running question (preview or open): it needs a driver for its timers. */
  async markActive(roomId: string, since: number): Promise<void> {
    // The set lives as long as rooms are being driven; a room's entry goes when its question closes.
    await this.store.zadd(quizKeys.activeRooms(), since, roomId, ttl);
  }

  async markInactive(roomId: string): Promise<void> {
    await this.store.zrem(quizKeys.activeRooms(), roomId);
  }

  /**
   * One page of the class's rooms, newest first: the list entries in one MGET, then the live phase and player count
   * of the rooms still running (one HMGET each, at most a page's worth, in parallel). A room from before list
   * entries existed gets one written from its results.
   */
  async listByClass(classId: string, page: PageRequest): Promise<Page<RoomListEntry>> {
    const { members, nextCursor } = await pageOfIndex(this.store, quizKeys.classRooms(classId), page, { reverse: true });
    return { items: await this.listEntries(members), nextCursor };
  }

  /** List entries of rooms by id, in the order asked, with the live phase of running ones (see listByClass). */
  async listEntries(members: readonly string[]): Promise<RoomListEntry[]> {
    const raw = await this.store.mget(members.map((roomId) => quizKeys.roomSummary(roomId)));
    const entries: RoomListEntry[] = [];
    for (const [index, roomId] of members.entries()) {
      const entry = this.read(raw[index], RoomListEntry, quizKeys.roomSummary(roomId)) ?? (await this.backfillEntry(roomId));
      if (entry) entries.push(entry);
    }
    const live = await Promise.all(
      entries.map((entry) => (entry.phase === 'ended' ? null : this.store.hmget(quizKeys.room(entry.roomId), ['phase', 'playerCount']))),
    );
    const items = entries.map((entry, index) => {
      const [rawPhase, playerCount] = live[index] ?? [null, null];
      const phase = this.read(rawPhase, PhaseRecordSchema, `${quizKeys.room(entry.roomId)} phase`);
      if (phase === null) return entry;
      return { ...entry, phase: phase.phase, players: Number(playerCount ?? entry.players) };
    });
    return items;
  }

  private async backfillEntry(roomId: string): Promise<RoomListEntry | null> {
    const results = await this.results(roomId);
    if (!results) return null;
    const entry = listEntryOf(results);
    await this.store.set(quizKeys.roomSummary(roomId), JSON.stringify(entry));
    return entry;
  }
}
