import type { Logger } from '../kernel/index.js';
import type { MyAnswer, PlayerSummary, RoomStatePayload } from '../protocol/quiz.js';
import type { NodeLiveness, Store } from '../store/index.js';
import { choiceOf, responseOf } from './item-types.js';
import { LocalRoom } from './local-room.js';
import { jsonWith, payloadJson } from './payload-json.js';
import { systemRoomClock, type RoomClock } from './room-clock.js';
import { RoomDriver } from './room-driver.js';
import type { RoomMember } from './room-member.js';
import { RoomPresence } from './room-presence.js';
import type { PhaseRecord } from './room-phase.js';
import type { RoomEvent } from './room-repository.js';
import type { RoomService } from './room-service.js';
import {
  leaderboardView,
  podiumView,
  questionView,
  revealShared,
  revealView,
  revealYou,
  snapshotView,
  StandingsIndex,
  type Viewer,
} from './room-views.js';

const SCAN_INTERVAL_MS = 1_000;
const PLAYERS_REFRESH_MS = 300;
const RETRY_MS = 500;
const STANDINGS_CACHE_SIZE = 64;

export interface RoomRuntimeDeps {
  service: RoomService;
  store: Store;
  logger: Logger;
  /** This node (its id names leases and presence entries) and which other nodes are alive. */
  liveness: NodeLiveness;
  /** Deadlines and the timers that wait for them (the system clock unless a test compresses time). */
  clock?: RoomClock;
}

/**
 * The per-node half of live rooms. For every room with members connected to this node it tails the room's event stream and
 * renders each change to those members (RoomMember: transport-free) (each player gets its own reveal and rank, so one answer never causes a
 * broadcast). Its RoomDriver runs the timers of the rooms whose driver lease this node holds (room-driver.ts).
 */
export class RoomRuntime {
  private readonly rooms = new Map<string, LocalRoom>();
  private readonly standingsCache = new Map<string, Promise<StandingsIndex>>();
  private readonly now: () => number;
  private readonly driver: RoomDriver;
  private readonly presence: RoomPresence;
  private scanTimer: NodeJS.Timeout | null = null;
  /** The scan under way, if any: close() waits for it, so no lease is taken behind the driver's back. */
  private scanning: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: RoomRuntimeDeps) {
    const clock = deps.clock ?? systemRoomClock;
    this.now = () => clock.now();
    this.presence = new RoomPresence(deps.store, deps.liveness);
    this.driver = new RoomDriver(
      { service: deps.service, store: deps.store, logger: deps.logger, liveness: deps.liveness, presence: this.presence, clock },
      {
        room: (roomId) => this.room(roomId),
        find: (roomId) => this.rooms.get(roomId),
        watch: (room) => this.watch(room),
        release: (room) => this.release(room),
        rooms: () => this.rooms.values(),
      },
    );
  }

  start(): void {
    if (this.scanTimer) return;
    this.scanTimer = setInterval(() => void this.scan(), SCAN_INTERVAL_MS);
    this.scanTimer.unref();
    void this.scan();
  }

  /** The phase this node last saw for a room (kept current by the tail), if it watches the room. */
  cachedPhase(roomId: string): PhaseRecord | undefined {
    return this.rooms.get(roomId)?.record ?? undefined;
  }

  /** Adds a host or player connection to its room on this node and starts watching the room. */
  async attach(member: RoomMember): Promise<void> {
    const room = this.room(member.roomId);
    if (member.role === 'host') room.hosts.add(member);
    else {
      let members = room.players.get(member.playerId);
      if (!members) room.players.set(member.playerId, (members = new Set()));
      members.add(member);
      await this.presence.add(member.roomId, member.id, member.playerId);
      await this.deps.service.repository.appendEvent(member.roomId, { type: 'players' });
    }
    await this.watch(room);
  }

  detach(member: RoomMember): void {
    const room = this.rooms.get(member.roomId);
    if (!room) return;
    if (member.role === 'host') room.hosts.delete(member);
    else {
      const members = room.players.get(member.playerId);
      if (members?.delete(member)) {
        if (members.size === 0) room.players.delete(member.playerId);
        void (async () => {
          await this.presence.remove(member.roomId, member.id);
          await this.deps.service.repository.appendEvent(member.roomId, { type: 'players' });
        })().catch((error: unknown) => this.deps.logger.debug({ err: error }, 'presence update failed'));
      }
    }
    this.release(room);
  }

  /** The full state for one member, from the store (not the cache): what a (re)connecting client draws. */
  async snapshot(member: RoomMember): Promise<RoomStatePayload> {
    const { service } = this.deps;
    const { repository } = service;
    const roomId = member.roomId;
    const [meta, record, locked, playerCount] = await Promise.all([
      service.meta(roomId),
      service.phase(roomId),
      repository.locked(roomId),
      repository.playerCount(roomId),
    ]);
    const standings = await this.standingsFor(roomId, record);
    const viewer: Viewer = member.role === 'host' ? { kind: 'host' } : { kind: 'player', playerId: member.playerId };
    const base = { meta, record, locked, playerCount, standings, now: this.now(), viewer };
    if (member.role === 'host') {
      const grades = record.phase === 'reveal' ? await service.shortGrades(roomId, record.q) : null;
      const answered = record.phase === 'open' ? await repository.answerCount(roomId, record.q) : undefined;
      return snapshotView({ ...base, players: await this.playerList(roomId), ...(answered === undefined ? {} : { answered }), ...(grades ? { grades } : {}) });
    }
    let answer: MyAnswer | null = null;
    if (record.phase === 'open' || record.phase === 'preview') {
      const recorded = await repository.answer(roomId, record.q, member.playerId);
      if (recorded) {
        const response = responseOf(recorded);
        answer = { questionIndex: record.q, choice: choiceOf(response), response, responseMs: recorded.responseMs };
      }
    }
    // Team mode: the team is read from the player's record, so a reconnect (on any node) shows the one stored.
    const team = meta.options.teams === undefined ? undefined : (await repository.player(roomId, member.playerId))?.team;
    return snapshotView({ ...base, me: { nickname: member.nickname, answer, team } });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.scanTimer) clearInterval(this.scanTimer);
    await this.scanning;
    await this.driver.close();
    for (const room of this.rooms.values()) {
      if (room.playersTimer) clearTimeout(room.playersTimer);
      room.tail?.abort();
    }
    this.rooms.clear();
  }

  // ---- watching: one tail per room per node, while the room has local members or is driven here

  private room(roomId: string): LocalRoom {
    let room = this.rooms.get(roomId);
    if (!room) this.rooms.set(roomId, (room = new LocalRoom(roomId)));
    return room;
  }

  private watch(room: LocalRoom): Promise<void> {
    room.watching ??= this.startTail(room);
    return room.watching;
  }

  /** Reads the last event id first, then the phase: an event after that id is seen by the tail, never lost. */
  private async startTail(room: LocalRoom): Promise<void> {
    const { repository } = this.deps.service;
    const tail = new AbortController();
    room.tail = tail;
    try {
      const lastId = await repository.lastEventId(room.roomId);
      const record = await repository.phase(room.roomId);
      if (record && (!room.record || record.v > room.record.v)) room.record = record;
      void this.follow(room, lastId, tail.signal);
    } catch (error) {
      room.watching = null;
      room.tail = null;
      throw error;
    }
  }

  private async follow(room: LocalRoom, afterId: string, signal: AbortSignal): Promise<void> {
    let lastId = afterId;
    while (!signal.aborted) {
      try {
        for await (const { id, event } of this.deps.service.repository.tailEvents(room.roomId, lastId, signal)) {
          lastId = id;
          await this.onEvent(room, event);
        }
      } catch (error) {
        this.deps.logger.warn({ err: error, roomId: room.roomId }, 'room tail failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** Stops watching a room nobody here needs any more. */
  private release(room: LocalRoom): void {
    if (room.memberCount > 0 || room.driving) return;
    room.tail?.abort();
    if (room.playersTimer) clearTimeout(room.playersTimer);
    room.playersTimer = null;
    this.rooms.delete(room.roomId);
  }

  private async onEvent(room: LocalRoom, event: RoomEvent): Promise<void> {
    try {
      switch (event.type) {
        case 'phase':
          await this.onPhase(room, event.record);
          return;
        case 'count':
          for (const host of room.hosts) host.send('room:answer-count', { questionIndex: event.q, answered: event.answered, players: event.players });
          return;
        case 'locked':
          for (const host of room.hosts) host.send('room:state', await this.snapshot(host));
          return;
        case 'players':
          this.refreshPlayersSoon(room);
          return;
        case 'regraded':
          await this.onRegraded(room, event.q);
          return;
        case 'kick':
          for (const member of room.players.get(event.playerId) ?? []) {
            member.send('room:kicked', { reason: '진행자가 이 방에서 내보냈습니다.' });
            member.close();
          }
          return;
      }
    } catch (error) {
      this.deps.logger.error({ err: error, roomId: room.roomId, event: event.type }, 'room event render failed');
    }
  }

  private async onPhase(room: LocalRoom, record: PhaseRecord): Promise<void> {
    const previous = room.record;
    if (previous && record.v <= previous.v) return;
    room.record = record;
    this.driver.onPhase(room);
    await this.render(room, record);
  }

  /** Sends a phase change to this node's members of the room. */
  private async render(room: LocalRoom, record: PhaseRecord): Promise<void> {
    if (room.memberCount === 0) return;
    const { service } = this.deps;
    const meta = await service.meta(room.roomId);
    switch (record.phase) {
      case 'lobby':
        return;
      case 'preview':
      case 'open': {
        const now = this.now();
        const view = questionView(meta, record, now);
        if (!view) return;
        const extra = record.phase === 'open' ? record.extra : undefined;
        for (const host of room.hosts) host.send('room:question', view);
        const json = payloadJson(view);
        for (const player of room.playerMembers()) {
          // A player with extra time sees their own, longer countdown.
          const extraMs = extra?.[player.playerId];
          if (extraMs) player.send('room:question', { ...view, remainingMs: view.remainingMs + extraMs });
          else player.sendJson('room:question', json);
        }
        return;
      }
      case 'reveal': {
        const index = await this.standingsFor(room.roomId, record);
        const grades = room.hosts.size > 0 ? ((await service.shortGrades(room.roomId, record.q)) ?? undefined) : undefined;
        const shared = revealShared(meta, record.q, index);
        for (const host of room.hosts) host.send('room:reveal', revealView(meta, record.q, index, { kind: 'host' }, shared, grades));
        // Each player's reveal is the shared part plus their own `you` (revealView's shape): the shared part is
        // serialised once, not once per socket.
        const sharedJson = payloadJson(shared);
        for (const player of room.playerMembers()) {
          player.sendJson('room:reveal', jsonWith(sharedJson, 'you', revealYou(meta, record.q, index, player.playerId)));
        }
        return;
      }
      case 'leaderboard': {
        const index = await this.standingsFor(room.roomId, record);
        for (const host of room.hosts) host.send('room:leaderboard', leaderboardView(index, { kind: 'host' }));
        for (const player of room.playerMembers()) {
          player.send('room:leaderboard', leaderboardView(index, { kind: 'player', playerId: player.playerId }));
        }
        return;
      }
      case 'podium':
      case 'ended': {
        const index = await this.standingsFor(room.roomId, record);
        const event = record.phase === 'podium' ? 'room:podium' : 'room:ended';
        for (const host of room.hosts) {
          const podium = podiumView(index, { kind: 'host' });
          if (event === 'room:podium') host.send('room:podium', podium);
          else host.send('room:ended', { podium, resultsUrl: `/api/rooms/${room.roomId}/results` });
        }
        for (const player of room.playerMembers()) {
          const podium = podiumView(index, { kind: 'player', playerId: player.playerId });
          if (event === 'room:podium') player.send('room:podium', podium);
          else player.send('room:ended', { podium });
        }
        return;
      }
    }
  }

  /** The host reviewed a short answer: the question's standings changed, so its reveal (if showing) is sent again. */
  private async onRegraded(room: LocalRoom, q: number): Promise<void> {
    this.standingsCache.delete(`${room.roomId}#${q}`);
    // The node that closed the question may not be the one that rescored it: its own table is stale.
    this.deps.service.forgetComputed(room.roomId);
    const record = room.record;
    if (record?.phase === 'reveal' && record.q === q) await this.render(room, record);
  }

  /**
   * The standings a phase shows: those after its question for reveal/leaderboard, the latest otherwise. Cached per
   * question (or phase version): a standings table can be large (every player's results), and a burst of reconnects must not
   * read and parse it once per socket.
   */
  private async standingsFor(roomId: string, record: PhaseRecord): Promise<StandingsIndex> {
    // A question's standings are written once, at its reveal: reveal and leaderboard share them, and so does the
    // podium (it follows the last question's leaderboard; only the end re-scores), which then reads nothing.
    const q = record.phase === 'podium' ? (await this.deps.service.meta(roomId)).items.length - 1 : record.phase === 'reveal' || record.phase === 'leaderboard' ? record.q : null;
    const cacheKey = q === null ? `${roomId}@${record.v}` : `${roomId}#${q}`;
    let cached = this.standingsCache.get(cacheKey);
    if (!cached) {
      cached = this.loadStandings(roomId, q);
      this.standingsCache.set(cacheKey, cached);
      if (this.standingsCache.size > STANDINGS_CACHE_SIZE) this.standingsCache.delete(this.standingsCache.keys().next().value!);
      cached.catch(() => this.standingsCache.delete(cacheKey));
    }
    return cached;
  }

  /** The standings after question `q` (null: the latest ones). */
  private async loadStandings(roomId: string, q: number | null): Promise<StandingsIndex> {
    const { service } = this.deps;
    if (q !== null) {
      const computed = service.computedStandings(roomId, q);
      if (computed) return new StandingsIndex(computed);
      const stored = await service.repository.standings(roomId, q);
      if (stored) return new StandingsIndex(stored);
    }
    return new StandingsIndex(await service.latestStandings(roomId));
  }

  private refreshPlayersSoon(room: LocalRoom): void {
    if (room.hosts.size === 0 || room.playersTimer) return;
    room.playersTimer = setTimeout(() => {
      room.playersTimer = null;
      if (room.hosts.size === 0) return;
      void Promise.all([this.playerList(room.roomId), this.deps.service.repository.playerCount(room.roomId)]).then(
        ([players, playerCount]) => {
          for (const host of room.hosts) host.send('room:players', { players, playerCount });
        },
        (error: unknown) => this.deps.logger.warn({ err: error, roomId: room.roomId }, 'player list refresh failed'),
      );
    }, PLAYERS_REFRESH_MS);
  }

  /** The room's players, and whether any of their sockets is connected on a living node (see RoomPresence). */
  private async playerList(roomId: string): Promise<PlayerSummary[]> {
    const { repository } = this.deps.service;
    const [players, connected, extra] = await Promise.all([repository.players(roomId), this.presence.connectedPlayers(roomId), repository.extraTime(roomId)]);
    return players
      .filter((player) => !player.kicked)
      .map((player) => {
        const summary: PlayerSummary = { playerId: player.playerId, nickname: player.nickname, connected: connected.has(player.playerId) };
        const extraMs = extra[player.playerId];
        if (extraMs) summary.extraSeconds = extraMs / 1000;
        if (player.team !== undefined) summary.team = player.team;
        return summary;
      });
  }

  /** Every second: the driver's leases, and a safety net under the tails. */
  private scan(): Promise<void> {
    if (this.scanning || this.closed) return this.scanning ?? Promise.resolve();
    this.scanning = this.scanOnce().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    const { service, logger } = this.deps;
    try {
      await this.driver.scan();
      // A transition whose announcement was lost (its node died between writing and announcing) is picked up here.
      for (const room of [...this.rooms.values()]) {
        if (this.closed) return;
        const record = await service.repository.phase(room.roomId);
        if (!record) {
          await service.repository.markInactive(room.roomId);
          continue;
        }
        if (room.record && record.v > room.record.v) await this.onPhase(room, record);
      }
    } catch (error) {
      logger.warn({ err: error }, 'room scan failed');
    }
  }
}
