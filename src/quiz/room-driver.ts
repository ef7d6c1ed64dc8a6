import type { Logger } from '../kernel/index.js';
import { type NodeLiveness, type Store } from '../store/index.js';
import type { LocalRoom } from './local-room.js';
import type { RoomClock } from './room-clock.js';
import { dueAt, dueTransition, isTimed, type PhaseRecord } from './room-phase.js';
import type { RoomPresence } from './room-presence.js';
import type { RoomService } from './room-service.js';
import { quizKeys } from './quiz-keys.js';

/** The driver's lease: renewed every scan, so a dead node's rooms are taken over within a few seconds. */
const DRIVER_LEASE_MS = 3_000;
/** The host's live answer count: at most 4 updates per second. */
const COUNT_INTERVAL_MS = 250;
const RETRY_MS = 500;
/** Poll ticks between presence checks when no new answer came in (4 ticks: once a second). */
const PRESENCE_CHECK_EVERY = 4;

/** What the driver needs from the node's room registry (RoomRuntime). */
export interface RoomRegistry {
  /** The room, created if this node did not know it yet. */
  room(roomId: string): LocalRoom;
  find(roomId: string): LocalRoom | undefined;
  /** Starts tailing the room's events (once) and loads its phase. */
  watch(room: LocalRoom): Promise<void>;
  /** Forgets the room when nobody on this node needs it any more. */
  release(room: LocalRoom): void;
  rooms(): Iterable<LocalRoom>;
}

export interface RoomDriverDeps {
  service: RoomService;
  store: Store;
  logger: Logger;
  liveness: NodeLiveness;
  presence: RoomPresence;
  clock: RoomClock;
}

/**
 * The timers of running questions, on the node holding the room's driver lease: open after the preview, close at
 * the deadline plus grace, close early once every player answered, and the host's answer count. Only a running
 * question (preview or open) is driven; the lease is given back when it closes. Deadlines come from the store, so
 * a node taking over a dead driver's room just acts on them. A timer that fires before its deadline (Node timers
 * can, by a millisecond) finds nothing due and is armed again: every deadline is waited for until its transition
 * has happened, never dropped.
 */
export class RoomDriver {
  private closed = false;
  /** Lease takings under way: close() waits for them, so a lease taken during shutdown is given back too. */
  private readonly taking = new Set<Promise<void>>();

  constructor(
    private readonly deps: RoomDriverDeps,
    private readonly registry: RoomRegistry,
  ) {}

  /** Renews the leases held here and takes free ones of rooms with a running question (every scan). */
  async scan(): Promise<void> {
    const { store, service } = this.deps;
    const { nodeId } = this.deps.liveness;
    const active = await service.repository.activeRooms();
    // A room that left the active set (no question running, ended or expired) needs no driver here any more.
    const stillActive = new Set(active);
    for (const room of [...this.registry.rooms()]) if (room.driving && !stillActive.has(room.roomId)) this.stop(room);
    for (const roomId of active) {
      const room = this.registry.find(roomId);
      if (room?.driving) {
        if (!(await store.renewLease(quizKeys.roomDriver(roomId), nodeId, DRIVER_LEASE_MS))) this.stop(room);
        continue;
      }
      await this.tryDrive(roomId);
    }
  }

  /** A new phase was seen for the room: reschedule if driving here, or try to drive a question that just started. */
  onPhase(room: LocalRoom): void {
    if (room.driving) this.schedule(room);
    else if (room.record && isTimed(room.record)) void this.tryDrive(room.roomId);
  }

  /** Stops every timer and gives the leases back (graceful shutdown: another node takes over at once). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.taking]);
    const releases: Promise<unknown>[] = [];
    for (const room of this.registry.rooms()) {
      if (!room.driving) continue;
      this.stopTimers(room);
      releases.push(this.deps.store.releaseLease(quizKeys.roomDriver(room.roomId), this.deps.liveness.nodeId).catch(() => false));
    }
    await Promise.all(releases);
  }

  /** Takes the room's driver lease if it is free (a question just started, or its driver died). */
  private tryDrive(roomId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const taking = this.take(roomId).finally(() => this.taking.delete(taking));
    this.taking.add(taking);
    return taking;
  }

  private async take(roomId: string): Promise<void> {
    const lease = quizKeys.roomDriver(roomId);
    const { nodeId } = this.deps.liveness;
    try {
      if (!(await this.deps.store.acquireLease(lease, nodeId, DRIVER_LEASE_MS))) return;
      // Shutdown began while the lease was being taken: give it back now rather than leave it to expire.
      if (this.closed) await this.deps.store.releaseLease(lease, nodeId);
      else await this.start(roomId);
    } catch (error) {
      this.deps.logger.debug({ err: error, roomId }, 'could not take the room driver lease; the scan retries');
    }
  }

  private async start(roomId: string): Promise<void> {
    const room = this.registry.room(roomId);
    room.driving = true;
    await this.registry.watch(room);
    const record = room.record ?? (await this.deps.service.repository.phase(roomId));
    if (!record) {
      await this.deps.service.repository.markInactive(roomId);
      this.stop(room);
      return;
    }
    room.record = record;
    this.deps.logger.info({ roomId, phase: record.phase, nodeId: this.deps.liveness.nodeId }, 'driving room');
    this.schedule(room);
  }

  private stop(room: LocalRoom): void {
    room.driving = false;
    this.stopTimers(room);
    this.registry.release(room);
  }

  private stopTimers(room: LocalRoom): void {
    room.timer?.();
    room.prepareTimer?.();
    if (room.countTimer) clearInterval(room.countTimer);
    room.timer = room.prepareTimer = room.countTimer = null;
  }

  /** Sets the timers the current phase needs. */
  private schedule(room: LocalRoom): void {
    this.stopTimers(room);
    const record = room.record;
    if (!record || !room.driving) return;
    if (!isTimed(record)) {
      // No question running: nothing to time until the host moves on; whoever sees the next question drives it.
      void this.deps.store.releaseLease(quizKeys.roomDriver(room.roomId), this.deps.liveness.nodeId).catch(() => false);
      this.stop(room);
      return;
    }
    this.arm(room, record);
    if (record.phase === 'open' && !record.paused) {
      room.lastCount = -1;
      room.connected = null;
      room.countTimer = setInterval(() => void this.pollCount(room, record.q), COUNT_INTERVAL_MS);
    }
  }

  /** Arms the deadline timer of a timed record (none while paused: resuming writes a new record). */
  private arm(room: LocalRoom, record: PhaseRecord): void {
    room.timer?.();
    room.prepareTimer?.();
    room.timer = room.prepareTimer = null;
    const { service, clock, logger } = this.deps;
    const at = dueAt(record, service.graceMs);
    if (at === null) return;
    room.timer = clock.schedule(() => void this.fire(room), Math.max(at - clock.now(), 1));
    // When the grace begins, the close is worked out ahead, so the reveal waits only for checking it still holds.
    if (record.phase === 'open' && service.graceMs > 0 && at - service.graceMs > clock.now()) {
      room.prepareTimer = clock.schedule(() => {
        room.prepareTimer = null;
        service.prepareClose(room.roomId, record).catch((error: unknown) => logger.debug({ err: error, roomId: room.roomId }, 'preparing the close failed; the close scores from the store'));
      }, at - service.graceMs - clock.now());
    }
  }

  private async fire(room: LocalRoom): Promise<void> {
    room.timer = null;
    const { service, logger, clock } = this.deps;
    try {
      const meta = await service.meta(room.roomId);
      const { previous, record } = await service.transition(room.roomId, (current) =>
        dueTransition(current, { options: meta.options, totalQuestions: meta.items.length, now: clock.now(), graceMs: service.graceMs }),
      );
      // Nothing was due: the timer fired early (or this node's copy of the phase was behind the store). Wait for the
      // stored record's deadline again; a transition that did happen is rescheduled when its event comes in.
      if (record.v === previous.v && room.driving && !this.closed && room.timer === null) this.arm(room, record);
    } catch (error) {
      logger.warn({ err: error, roomId: room.roomId }, 'room timer transition failed; retrying');
      if (room.driving && !this.closed) room.timer = clock.schedule(() => void this.fire(room), RETRY_MS);
    }
  }

  /**
   * The host's answer count, and an early close once every connected player has answered (a player who closed the
   * tab does not hold the class up; with nobody connected, once every player has). Who is connected is checked when
   * the count changed and at least once a second, since a player leaving can be what completes the round.
   */
  private async pollCount(room: LocalRoom, q: number): Promise<void> {
    const { repository } = this.deps.service;
    try {
      const [answered, players] = await Promise.all([repository.answerCount(room.roomId, q), repository.playerCount(room.roomId)]);
      const changed = answered !== room.lastCount;
      if (changed) {
        room.lastCount = answered;
        await repository.appendEvent(room.roomId, { type: 'count', q, answered, players });
      }
      room.pollTicks = (room.pollTicks + 1) % PRESENCE_CHECK_EVERY;
      if (answered === 0 || (!changed && room.pollTicks !== 0)) return;
      if (answered < players && !(await this.everyConnectedAnswered(room, q, answered))) return;
      await this.deps.service.transition(room.roomId, (current) =>
        current.phase === 'open' && current.q === q && !current.paused ? { phase: 'reveal', v: current.v + 1, q } : null,
      );
    } catch (error) {
      this.deps.logger.debug({ err: error, roomId: room.roomId }, 'answer count poll failed');
    }
  }

  /**
   * Whether every connected player answered. The presence hash has an entry per socket: reading it on every changed
   * tick cost a whole hash read per 250 ms while answers stream in. Between the once-a-second checks the last
   * connected set is reused: while fewer answers are in than it has players, nobody needs to read anything (a player
   * who left in between is noticed at the next check, within a second, as before).
   */
  private async everyConnectedAnswered(room: LocalRoom, q: number, answered: number): Promise<boolean> {
    const { roomId } = room;
    const known = room.pollTicks === 0 ? null : room.connected;
    if (known && answered < known.size) return false;
    const connected = await this.deps.presence.connectedPlayers(roomId);
    room.connected = connected;
    // Fewer answers than connected players: someone connected has not answered; no need to read the answers.
    if (connected.size === 0 || answered < connected.size) return false;
    const answers = await this.deps.service.repository.answers(roomId, q);
    for (const playerId of connected) if (!answers.has(playerId)) return false;
    return true;
  }
}
