import { randomInt, randomUUID } from 'node:crypto';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { CreateRoomBody, ExtraTimePayload, HostCommand, KickPayload, Quiz, ReviewPayload, ShortItem, SubmitAnswerPayload, SubmitAnswerResult } from '../protocol/quiz.js';
import { type Store } from '../store/index.js';
import { applyCommand, isTimed, type PhaseCommand, type PhaseRecord } from './room-phase.js';
import { resultsHead } from './room-results.js';
import { RoomRepository, ROOM_TTL_MS, type RoomMeta } from './room-repository.js';
import { choiceOf, recordedResponse, responseOf } from './item-types.js';
import { computeStandings, extendStandings, questionResults, type QuestionResults, type RecordedAnswer, type ScoringOptions, type Standings } from './scoring.js';
import { usableItems } from './quiz-gate.js';
import { warmShortJudge, type ShortGrades } from './short-answer-judge.js';
import { PreparedCloses, type PreparedClose } from './prepared-closes.js';
import { ShortPregrades } from './short-pregrades.js';
import { gradeRecorded, gradesBetween, MAX_JUDGED_ANSWERS, readGrades, saveGrades, withVerdict } from './short-review.js';
import { assignTeam, withTeams } from './teams.js';
import { quizKeys } from './quiz-keys.js';

export const HOST_TOKEN_TTL_MS = ROOM_TTL_MS;
export const PLAYER_TOKEN_TTL_MS = ROOM_TTL_MS;
/** A transition holds the room's mutex this long at most (a crashed holder frees it after this). */
const TRANSITION_LOCK_MS = 10_000;
const TRANSITION_WAIT_MS = 5_000;
/** Rooms whose last closed question's answers a node keeps parsed (the oldest is dropped first). */
const CLOSED_ANSWERS_ROOMS = 256;

/** A question's close as scored: the standings (before teams), the players they rank and the results to write. */
type Scored = Pick<PreparedClose, 'players' | 'table' | 'written' | 'grades'>;

export interface QuizLookup {
  get(quizId: string): Promise<Quiz | null>;
}

export interface RoomServiceDeps {
  store: Store;
  quizzes: QuizLookup;
  signer: TokenSigner;
  logger: Logger;
  /** Answers this long after the deadline still count (network latency); later ones are LATE. */
  answerGraceMs: number;
  /** Told after every phase change (the instructors' monitor). */
  onPhase?: (room: { classId: string; roomId: string; code: string; phase: string; playerCount: number }) => void;
  now?: () => number;
}

/** What a reveal needs: the standings after the question, derived from every recorded answer. */
export interface Transitioned {
  previous: PhaseRecord;
  record: PhaseRecord;
}

/**
 * Live quiz rooms: creation, joining, answers and every phase change. All state is in the store, so any node can
 * serve any command; a short per-room mutex (a store lease) makes "read phase, check, write" atomic between host
 * commands and timers on different nodes. Each transition is written, then announced on the room's event stream,
 * which every node tails to render its own sockets' views (room-runtime.ts).
 */
export class RoomService {
  readonly repository: RoomRepository;
  private readonly metas = new Map<string, RoomMeta>();
  /**
   * Per room, the answers of the last question this node closed: they never change once closed, and a host's review
   * rescores that question from them again. Earlier questions are read only by a recompute (after a kick).
   */
  private readonly closedAnswers = new Map<string, { q: number; answers: Map<string, RecordedAnswer> }>();
  /**
   * Per room, the standings this node computed last (at a reveal or the end): the runtime renders the reveal from
   * them instead of reading back and re-validating the table it just wrote (the largest record of a room).
   */
  private readonly computed = new Map<string, Standings>();
  /** Verdicts of typed answers this node recorded, judged while their question was open (the close reuses them). */
  private readonly pregrades = new ShortPregrades(MAX_JUDGED_ANSWERS);
  /** Closes worked out during their question's answer grace (prepareClose), taken by the close if still valid. */
  private readonly prepared: PreparedCloses;
  private readonly now: () => number;

  constructor(private readonly deps: RoomServiceDeps) {
    this.repository = new RoomRepository(deps.store, deps.logger);
    this.prepared = new PreparedCloses(this.repository);
    this.now = deps.now ?? Date.now;
  }

  get graceMs(): number {
    return this.deps.answerGraceMs;
  }

  /** A room of the quiz for its owner account `ownerId` (the host token's scope: every use checks that account). */
  async create(classId: string, body: CreateRoomBody, ownerId: string): Promise<{ roomId: string; code: string; hostToken: string; createdAt: number }> {
    const quiz = await this.deps.quizzes.get(body.quizId);
    if (!quiz || quiz.classId !== classId) {
      throw new AppError(ErrorCode.QUIZ_NOT_FOUND);
    }
    // Players only ever see generated items that passed the EvalAgent gate or that the instructor kept;
    // question indices in the room are over these.
    const items = usableItems(quiz.items, quiz.reviews);
    if (items.length === 0) {
      throw new AppError(ErrorCode.QUIZ_NOT_READY);
    }
    const roomId = randomUUID().replaceAll('-', '').slice(0, 20);
    const code = await this.reserveCode(roomId);
    const meta: RoomMeta = {
      roomId,
      classId,
      quizId: quiz.quizId,
      code,
      title: quiz.title,
      options: body.options,
      items,
      createdAt: this.now(),
    };
    const lobby: PhaseRecord = { phase: 'lobby', v: 0 };
    await this.repository.create(meta, lobby);
    await this.repository.saveResults(roomId, resultsHead(meta, lobby, computeStandings(meta.items, [], [], -1, this.scoringOptions(meta))));
    const hostToken = this.deps.signer.sign({ kind: 'host', sub: roomId, scope: ownerId }, HOST_TOKEN_TTL_MS);
    return { roomId, code, hostToken, createdAt: meta.createdAt };
  }

  private async reserveCode(roomId: string): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      if (await this.repository.reserveCode(code, roomId)) return code;
    }
    throw new AppError(ErrorCode.SERVER_BUSY, '방 코드를 만들 수 없습니다. 다시 시도해 주세요.', { retryable: true });
  }

  /** The room's fixed record (cached: it never changes). */
  async meta(roomId: string): Promise<RoomMeta> {
    const cached = this.metas.get(roomId);
    if (cached) return cached;
    const meta = await this.repository.meta(roomId);
    if (!meta) throw new AppError(ErrorCode.ROOM_NOT_FOUND);
    if (this.metas.size > 10_000) this.metas.clear();
    this.metas.set(roomId, meta);
    if (meta.items.some((item) => item.type === 'short')) setImmediate(warmShortJudge);
    return meta;
  }

  async phase(roomId: string): Promise<PhaseRecord> {
    const record = await this.repository.phase(roomId);
    if (!record) throw new AppError(ErrorCode.ROOM_NOT_FOUND);
    return record;
  }

  async join(code: string, nickname: string): Promise<{ playerId: string; playerToken: string; roomId: string }> {
    const roomId = await this.repository.roomIdByCode(code);
    if (!roomId) throw new AppError(ErrorCode.ROOM_NOT_FOUND, '이 코드의 퀴즈 방이 없습니다.');
    const meta = await this.meta(roomId);
    const record = await this.phase(roomId);
    if (record.phase === 'ended' || record.phase === 'podium') {
      throw new AppError(ErrorCode.ROOM_ENDED);
    }
    if (await this.repository.locked(roomId)) {
      throw new AppError(ErrorCode.ROOM_LOCKED);
    }
    if (record.phase !== 'lobby' && !meta.options.lateJoin) {
      throw new AppError(ErrorCode.ROOM_STARTED);
    }
    const count = await this.repository.addPlayerCount(roomId, 1);
    if (count > meta.options.maxPlayers) {
      await this.repository.addPlayerCount(roomId, -1);
      throw new AppError(ErrorCode.ROOM_FULL);
    }
    const playerId = randomUUID().replaceAll('-', '').slice(0, 16);
    const folded = foldNickname(nickname);
    if (!(await this.repository.claimNickname(roomId, folded, playerId))) {
      await this.repository.addPlayerCount(roomId, -1);
      throw new AppError(ErrorCode.NICKNAME_TAKEN);
    }
    const teams = meta.options.teams;
    const team = teams === undefined ? {} : { team: assignTeam(await this.repository.nextJoinNumber(roomId), teams) };
    await this.repository.savePlayer(roomId, { playerId, nickname, joinedAt: this.now(), ...team });
    await this.repository.appendEvent(roomId, { type: 'players' });
    const playerToken = this.deps.signer.sign({ kind: 'player', sub: playerId, scope: roomId }, PLAYER_TOKEN_TTL_MS);
    return { playerId, playerToken, roomId };
  }

  /**
   * Records a player's answer: only for the open question, before its deadline plus grace, once. The response
   * time is measured here from the stored opening time. `known` is a phase the caller already holds (the node's
   * cached copy); the store decides in the end, because a closed question refuses writes atomically.
   */
  async submit(roomId: string, playerId: string, payload: SubmitAnswerPayload, known?: PhaseRecord): Promise<SubmitAnswerResult> {
    const now = this.now();
    const { questionIndex, ...answer } = payload;
    // The cache may lag the store by a few ms: only a refusal is worth a fresh read.
    const cachedOpen = known?.phase === 'open' && known.q === questionIndex;
    const record = known && cachedOpen ? known : await this.phase(roomId);
    if (record.phase !== 'open' || record.q !== questionIndex) {
      const closedAlready =
        (record.phase === 'open' && record.q > questionIndex) ||
        ((record.phase === 'reveal' || record.phase === 'leaderboard') && record.q >= questionIndex) ||
        (record.phase === 'preview' && record.q > questionIndex) ||
        record.phase === 'podium' ||
        record.phase === 'ended';
      if (closedAlready) return this.recordedOrLate(roomId, questionIndex, playerId);
      throw new AppError(ErrorCode.QUESTION_NOT_OPEN);
    }
    if (record.paused) throw new AppError(ErrorCode.ROOM_PAUSED);
    // A player granted extra time has it on this question if it was granted before the question opened (the open
    // record carries it, so the answer path reads nothing more).
    const extraMs = record.extra?.[playerId] ?? 0;
    if (now > record.deadline + extraMs + this.deps.answerGraceMs) return this.recordedOrLate(roomId, questionIndex, playerId);
    const meta = await this.meta(roomId);
    const item = meta.items[questionIndex];
    if (!item) throw new AppError(ErrorCode.QUESTION_NOT_OPEN);
    const response = recordedResponse(item, answer);
    const allowedMs = meta.options.questionSeconds * 1000 + extraMs;
    const responseMs = Math.min(Math.max(Math.round(now - record.openedAt), 0), allowedMs);
    const recorded: RecordedAnswer = { ...response, responseMs, ...(extraMs > 0 ? { allowedMs } : {}) };
    const outcome = await this.repository.recordAnswer(roomId, questionIndex, playerId, recorded);
    if (outcome === 'set') {
      if (item.type === 'short' && 'text' in response) this.prejudgeSoon(roomId, questionIndex, item, response.text);
      return { questionIndex, choice: choiceOf(response), response, responseMs, duplicate: false };
    }
    return this.recordedOrLate(roomId, questionIndex, playerId);
  }

  /** The close's judge of a short-text question: the verdicts made while it was open, then fresh ones. */
  private graderOf(roomId: string) {
    return (q: number, item: ShortItem) => this.pregrades.grader(roomId, q, item);
  }

  /** Judges a typed answer after its ack has gone (short-pregrades.ts): the close then has less to judge. */
  private prejudgeSoon(roomId: string, q: number, item: ShortItem, text: string): void {
    setImmediate(() => {
      try {
        this.pregrades.prejudge(roomId, q, item, text);
      } catch (error) {
        // The close judges it instead.
        this.deps.logger.debug({ err: error, roomId }, 'early short-answer verdict failed');
      }
    });
  }

  /**
   * A submit that cannot be recorded (again): a retry of an answer that was recorded (say its ack was lost in a
   * reconnect) is told what counts, `duplicate: true`; anything else is LATE.
   */
  private async recordedOrLate(roomId: string, questionIndex: number, playerId: string): Promise<SubmitAnswerResult> {
    const first = await this.repository.answer(roomId, questionIndex, playerId);
    if (!first) throw late();
    const response = responseOf(first);
    return { questionIndex, choice: choiceOf(response), response, responseMs: first.responseMs, duplicate: true };
  }

  /** A player's own pick of team (team mode, when the room allows picking, in the lobby). Returns the team held. */
  async pickTeam(roomId: string, playerId: string, team: number): Promise<{ team: number }> {
    const meta = await this.meta(roomId);
    const { teams, teamPick } = meta.options;
    if (teams === undefined || !teamPick) throw new AppError(ErrorCode.FORBIDDEN, '이 방에서는 팀을 고를 수 없습니다.');
    if (team >= teams) throw new AppError(ErrorCode.INVALID_PAYLOAD, `팀은 1팀부터 ${teams}팀까지입니다.`);
    if ((await this.phase(roomId)).phase !== 'lobby') {
      throw new AppError(ErrorCode.ROOM_STARTED, '시작한 뒤에는 팀을 바꿀 수 없습니다.');
    }
    const player = await this.repository.player(roomId, playerId);
    if (!player || player.kicked) throw new AppError(ErrorCode.PLAYER_NOT_FOUND);
    if (player.team !== team) {
      await this.repository.savePlayer(roomId, { ...player, team });
      await this.repository.appendEvent(roomId, { type: 'players' });
    }
    return { team };
  }

  /** Runs a host command (already authorised by the caller: the host token of this room). */
  async command(roomId: string, command: HostCommand, payload: unknown): Promise<{ phase: PhaseRecord['phase'] }> {
    const meta = await this.meta(roomId);
    switch (command) {
      case 'room:kick':
        await this.kick(roomId, (payload as KickPayload).playerId);
        return { phase: (await this.phase(roomId)).phase };
      case 'room:extra-time':
        await this.grantExtraTime(roomId, payload as ExtraTimePayload);
        return { phase: (await this.phase(roomId)).phase };
      case 'room:review':
        await this.review(meta, payload as ReviewPayload);
        return { phase: (await this.phase(roomId)).phase };
      case 'room:lock':
      case 'room:unlock': {
        const locked = command === 'room:lock';
        await this.repository.setLocked(roomId, locked);
        await this.repository.appendEvent(roomId, { type: 'locked', locked });
        return { phase: (await this.phase(roomId)).phase };
      }
      default: {
        const phaseCommand: PhaseCommand = command;
        const { record } = await this.transition(roomId, (current) =>
          applyCommand(current, phaseCommand, { options: meta.options, totalQuestions: meta.items.length, now: this.now() }),
        );
        return { phase: record.phase };
      }
    }
  }

  /**
   * Extra time for one player on every question opened from now on (an accommodation the host grants; 0 removes it).
   * Kept in the room's record of grants; each question's open record copies the grants in force when it opens.
   */
  private async grantExtraTime(roomId: string, { playerId, seconds }: ExtraTimePayload): Promise<void> {
    await this.withMutex(roomId, async () => {
      const player = await this.repository.player(roomId, playerId);
      if (!player || player.kicked) throw new AppError(ErrorCode.PLAYER_NOT_FOUND, '그런 참가자가 없습니다.');
      const grants = await this.repository.extraTime(roomId);
      if (seconds > 0) grants[playerId] = seconds * 1000;
      else delete grants[playerId];
      await this.repository.setExtraTime(roomId, grants);
    });
    await this.repository.appendEvent(roomId, { type: 'players' });
  }

  /**
   * The host marks one unsure short answer right or wrong, during that question's reveal: the grades are stored, the
   * standings after the question recomputed and stored with the results, and every node re-sends the reveal.
   */
  private async review(meta: RoomMeta, { questionIndex, key, correct }: ReviewPayload): Promise<void> {
    const { roomId } = meta;
    await this.withMutex(roomId, async () => {
      const record = await this.phase(roomId);
      if (record.phase !== 'reveal' || record.q !== questionIndex || meta.items[questionIndex]?.type !== 'short') {
        throw new AppError(ErrorCode.WRONG_PHASE, '단답형 문제의 정답 공개 중에만 답을 검토할 수 있습니다.');
      }
      const grades = await readGrades(this.deps.store, roomId, questionIndex, this.deps.logger);
      await saveGrades(this.deps.store, roomId, questionIndex, withVerdict(grades ?? {}, key, correct));
      const standings = await this.score(meta, questionIndex);
      await this.repository.saveResults(roomId, resultsHead(meta, record, standings));
    });
    await this.repository.appendEvent(roomId, { type: 'regraded', q: questionIndex });
  }

  /** A short-text question's grades (null before it closes or for other types). */
  async shortGrades(roomId: string, q: number): Promise<ShortGrades | null> {
    const meta = await this.meta(roomId);
    return meta.items[q]?.type === 'short' ? readGrades(this.deps.store, roomId, q, this.deps.logger) : null;
  }

  private async kick(roomId: string, playerId: string): Promise<void> {
    const player = await this.repository.player(roomId, playerId);
    if (!player) throw new AppError(ErrorCode.PLAYER_NOT_FOUND, '그런 참가자가 없습니다.');
    if (player.kicked) return;
    await this.repository.savePlayer(roomId, { ...player, kicked: true });
    await this.repository.addPlayerCount(roomId, -1);
    // A kicked player's answer never counts; dropping it from the open question keeps "everyone answered" true.
    const record = await this.phase(roomId);
    if (record.phase === 'open') await this.repository.dropAnswer(roomId, record.q, playerId);
    await this.repository.appendEvent(roomId, { type: 'kick', playerId });
    await this.repository.appendEvent(roomId, { type: 'players' });
  }

  /**
   * One phase change, atomic across nodes: under the room's mutex, read the phase, let `decide` pick the next
   * record (null: nothing to do), do what entering it needs (open the answers, close and score them, write
   * results), store it and announce it. Returns the record in force afterwards.
   */
  async transition(roomId: string, decide: (current: PhaseRecord) => PhaseRecord | null): Promise<Transitioned> {
    return this.withMutex(roomId, async () => {
      const current = await this.phase(roomId);
      const decided = decide(current);
      if (!decided) return { previous: current, record: current };
      const meta = await this.meta(roomId);
      const next = decided.phase === 'open' && current.phase !== 'open' ? await this.withExtraTime(roomId, decided) : decided;
      const standings = await this.enter(meta, current, next);
      // Results are written before the phase is announced: a host who fetches them on `room:ended` gets the final ones.
      if (standings) await this.repository.saveResults(roomId, resultsHead(meta, next, standings));
      await this.repository.setPhase(roomId, next);
      await this.repository.appendEvent(roomId, { type: 'phase', record: next });
      if (this.deps.onPhase) {
        const playerCount = await this.repository.playerCount(roomId);
        this.deps.onPhase({ classId: meta.classId, roomId, code: meta.code, phase: next.phase, playerCount });
      }
      return { previous: current, record: next };
    });
  }

  /** An opening question's record with the extra time granted to players (none: the record as it was). */
  private async withExtraTime(roomId: string, record: Extract<PhaseRecord, { phase: 'open' }>): Promise<PhaseRecord> {
    const extra = await this.repository.extraTime(roomId);
    return Object.keys(extra).length === 0 ? record : { ...record, extra };
  }

  /** Does what entering `next` needs; returns the standings it computed (a reveal or the end), if any. */
  private async enter(meta: RoomMeta, current: PhaseRecord, next: PhaseRecord): Promise<Standings | null> {
    const { roomId } = meta;
    if (next.phase === 'open' && current.phase !== 'open') await this.repository.openAnswers(roomId, next.q);
    // Only a running question has timers, so only then does the room need a driver (and cost the drivers' scans).
    // Written beside the scoring, not before it: a reveal waits for both.
    const activity = isTimed(next) ? this.repository.markActive(roomId, this.now()) : this.repository.markInactive(roomId);
    // A reveal closing the open question takes the close prepared during its grace, if it still holds.
    const closing = current.phase === 'open' ? current : undefined;
    if (next.phase === 'reveal') return (await Promise.all([this.score(meta, next.q, closing), activity]))[0];
    if (next.phase === 'ended') {
      // Ending mid-question closes that question: what was recorded counts, like a skip.
      const lastClosed = lastClosedAtEnd(current, meta.items.length);
      const [standings] = await Promise.all([this.score(meta, lastClosed, closing?.q === lastClosed ? closing : undefined), activity]);
      this.closedAnswers.delete(roomId);
      this.computed.delete(roomId);
      this.pregrades.forget(roomId);
      this.prepared.forget(roomId);
      return standings;
    }
    await activity;
    return null;
  }

  /**
   * Closes questions up to `lastClosed` and stores the standings after it and its results (room-results.ts). They
   * extend the standings after the question before (this node's, else the stored ones) with the answers (and short-text
   * grades) of `lastClosed` only, so a reveal's cost does not grow with the question index: every read, computation and
   * write is the size of the room. When that cannot give what a recompute from every recorded answer gives (a kick
   * since, no table of the question before), they are recomputed from every answer (scoring.ts extendStandings) and
   * every question's results are written again.
   */
  private async score(meta: RoomMeta, lastClosed: number, closing?: Extract<PhaseRecord, { phase: 'open' }>): Promise<Standings> {
    const { roomId } = meta;
    const prepared = closing ? await this.prepared.take(roomId, closing.v, lastClosed) : null;
    if (prepared) this.rememberClosed(roomId, lastClosed, prepared.answers);
    const { players, table, written, grades } = prepared ?? (await this.scoreFromStore(meta, lastClosed));
    const teamOf = new Map(players.flatMap((player) => (player.team === undefined ? [] : [[player.playerId, player.team] as const])));
    const standings = withTeams(table, teamOf, meta.options.teams);
    await Promise.all([
      this.repository.saveStandings(roomId, standings),
      this.repository.saveQuestionResults(roomId, written),
      grades ? saveGrades(this.deps.store, roomId, lastClosed, grades) : undefined,
    ]);
    if (this.computed.size >= CLOSED_ANSWERS_ROOMS) this.computed.delete(this.computed.keys().next().value!);
    this.computed.set(roomId, standings);
    return standings;
  }

  /** The standings after `lastClosed` from what the store holds (closing the question), and the results to write. */
  private async scoreFromStore(meta: RoomMeta, lastClosed: number): Promise<Scored> {
    const { roomId } = meta;
    // The reads a reveal waits for, side by side: the players, the table to extend and the closed question's answers.
    const [players, previous, closed] = await Promise.all([
      this.repository.scoredPlayers(roomId),
      this.extendable(roomId, lastClosed),
      lastClosed >= 0 ? this.closeAndRead(roomId, lastClosed) : null,
    ]);
    const hasShort = meta.items.some((item) => item.type === 'short');
    if (previous && closed) {
      // The standings after lastClosed − 1 exist, so every question before lastClosed was closed and graded then.
      // Short-text answers are graded here, at the close, once per distinct answer (never on the answer path: the
      // verdicts this node made early were made after their acks).
      const grades = hasShort ? await gradesBetween(this.deps.store, roomId, meta.items, { [lastClosed]: closed }, lastClosed, lastClosed, this.deps.logger, this.graderOf(roomId)) : undefined;
      const table = extendStandings(meta.items, players, previous, closed, lastClosed, this.scoringOptions(meta, grades));
      if (table) return { players, table, written: [[lastClosed, questionResults(table)]] };
    }
    const answers: Map<string, RecordedAnswer>[] = [];
    for (let q = 0; q <= lastClosed; q += 1) answers.push(await this.closeAndRead(roomId, q));
    const grades = hasShort ? await gradesBetween(this.deps.store, roomId, meta.items, answers, 0, lastClosed, this.deps.logger, this.graderOf(roomId)) : undefined;
    const written: Array<readonly [number, QuestionResults]> = [];
    const table = computeStandings(meta.items, players, answers, lastClosed, this.scoringOptions(meta, grades), (q, results) => written.push([q, results]));
    return { players, table, written };
  }

  /**
   * Works out the close of open question `record` ahead, during its answer grace (the driver calls this at the
   * deadline): the reads and the scoring a reveal waits for are done by the time the grace ends, and the close only
   * checks that nothing changed (prepared-closes.ts). Nothing is written. A room that would be recomputed from every
   * answer, or a short-text question already graded, is left to the close.
   */
  async prepareClose(roomId: string, record: Extract<PhaseRecord, { phase: 'open' }>): Promise<void> {
    const { q, v } = record;
    const meta = await this.meta(roomId);
    // Read before the players: a player written after this read shows in the version at the close (savePlayer).
    const playersVersion = await this.repository.playersVersion(roomId);
    const [players, previous, { answers, entries }] = await Promise.all([
      this.repository.scoredPlayers(roomId),
      this.extendable(roomId, q),
      this.repository.answersCounted(roomId, q),
    ]);
    if (!previous) return;
    const item = meta.items[q];
    let grades: ShortGrades | undefined;
    if (item?.type === 'short') {
      if (await readGrades(this.deps.store, roomId, q, this.deps.logger)) return;
      grades = gradeRecorded(item, answers.values(), this.graderOf(roomId)(q, item));
    }
    const table = extendStandings(meta.items, players, previous, answers, q, this.scoringOptions(meta, grades && new Map([[q, grades]])));
    if (!table) return;
    const prepared: PreparedClose = { v, q, playersVersion, answerEntries: entries, answers, players, table, written: [[q, questionResults(table)]] };
    this.prepared.keep(roomId, grades ? { ...prepared, grades } : prepared);
  }

  /**
   * The standings after question `afterQuestion` if this node computed them last (null otherwise: read the stored
   * ones). They are the very table that was stored, so rendering from them equals rendering from the store.
   */
  computedStandings(roomId: string, afterQuestion: number): Standings | null {
    const standings = this.computed.get(roomId);
    return standings && standings.afterQuestion === afterQuestion ? standings : null;
  }

  /**
   * Another node rescored a question (the host's review): the standings this node computed are no longer the stored
   * ones, so they are forgotten and the next read (or the next question's extension) takes the stored table.
   */
  forgetComputed(roomId: string): void {
    this.computed.delete(roomId);
  }

  /**
   * Closes question `q` and returns its answers. A closed question refuses writes (hsetnxUnless), so the last one this
   * node closed is kept parsed: a host's review rescores it without reading it again.
   */
  private async closeAndRead(roomId: string, q: number): Promise<Map<string, RecordedAnswer>> {
    const cached = this.closedAnswers.get(roomId);
    if (cached?.q === q) return cached.answers;
    await this.repository.closeAnswers(roomId, q);
    const answers = await this.repository.answers(roomId, q);
    this.rememberClosed(roomId, q, answers);
    return answers;
  }

  private rememberClosed(roomId: string, q: number, answers: Map<string, RecordedAnswer>): void {
    this.closedAnswers.delete(roomId);
    if (this.closedAnswers.size >= CLOSED_ANSWERS_ROOMS) this.closedAnswers.delete(this.closedAnswers.keys().next().value!);
    this.closedAnswers.set(roomId, { q, answers });
  }

  /**
   * The standings after the question before `lastClosed` when the room can be scored by extending them (null: recompute
   * from every answer). Extending needs the results of every question before too: a room scored by a version that
   * stored its results whole (a game under way across a deploy) has none yet, so it is recomputed once and every
   * question written.
   */
  private async extendable(roomId: string, lastClosed: number): Promise<Standings | null> {
    if (lastClosed < 0 || (await this.repository.questionResultsCount(roomId)) < lastClosed) return null;
    return this.previousStandings(roomId, lastClosed - 1);
  }

  /** The standings after `afterQuestion` (−1: the empty table): this node's last computed ones, else the stored ones. */
  private async previousStandings(roomId: string, afterQuestion: number): Promise<Standings | null> {
    if (afterQuestion < 0) return { afterQuestion: -1, rows: [], questions: [] };
    return this.computedStandings(roomId, afterQuestion) ?? (await this.repository.standings(roomId, afterQuestion));
  }

  private scoringOptions(meta: RoomMeta, grades?: ReadonlyMap<number, ShortGrades>): ScoringOptions {
    return {
      grades,
      questionMs: meta.options.questionSeconds * 1000,
      streakBonus: meta.options.streakBonus,
      speedBonus: meta.options.speedBonus,
      roomId: meta.roomId,
    };
  }

  /** Standings after the last closed question (an empty table before the first reveal: nobody has points yet). */
  async latestStandings(roomId: string): Promise<Standings> {
    const raw = await this.deps.store.hget(quizKeys.room(roomId), 'lastClosed');
    const lastClosed = raw === null ? -1 : Number(raw);
    const stored = lastClosed >= 0 ? await this.repository.standings(roomId, lastClosed) : null;
    return stored ?? { afterQuestion: -1, rows: [], questions: [] };
  }

  private async withMutex<T>(roomId: string, work: () => Promise<T>): Promise<T> {
    const key = quizKeys.roomTransition(roomId);
    const owner = randomUUID();
    const giveUpAt = Date.now() + TRANSITION_WAIT_MS;
    let delay = 2;
    while (!(await this.deps.store.acquireLease(key, owner, TRANSITION_LOCK_MS))) {
      if (Date.now() > giveUpAt) {
        throw new AppError(ErrorCode.SERVER_BUSY, '방이 바쁩니다. 잠시 후 다시 시도해 주세요.', { retryable: true });
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 50);
    }
    try {
      return await work();
    } finally {
      await this.deps.store.releaseLease(key, owner).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, roomId }, 'room mutex release failed; it expires by itself');
      });
    }
  }
}

/** The last question whose answers count when the game ends from `current`. */
function lastClosedAtEnd(current: PhaseRecord, totalQuestions: number): number {
  switch (current.phase) {
    case 'lobby':
      return -1;
    case 'preview':
      return current.q - 1;
    case 'open':
    case 'reveal':
    case 'leaderboard':
      return current.q;
    case 'podium':
    case 'ended':
      return totalQuestions - 1;
  }
}

const late = () => new AppError(ErrorCode.LATE);

/** Nicknames are unique ignoring case and full/half width. */
export function foldNickname(nickname: string): string {
  return nickname.normalize('NFKC').toLocaleLowerCase('ko');
}
