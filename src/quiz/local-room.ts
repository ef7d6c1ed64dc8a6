import type { HostMember, PlayerMember } from './room-member.js';
import type { PhaseRecord } from './room-phase.js';

/** One room as this node sees it: its local members, the tail of its event stream, and its timers if it drives it. */
export class LocalRoom {
  readonly hosts = new Set<HostMember>();
  /** Each player's connections on this node (a player may have several tabs), by player id. */
  readonly players = new Map<string, Set<PlayerMember>>();
  record: PhaseRecord | null = null;
  tail: AbortController | null = null;
  watching: Promise<void> | null = null;
  driving = false;
  /** Cancels the driver's deadline timer (see RoomClock), when one is armed. */
  timer: (() => void) | null = null;
  /** Cancels the driver's timer that prepares the close when the answer grace begins, when one is armed. */
  prepareTimer: (() => void) | null = null;
  countTimer: NodeJS.Timeout | null = null;
  playersTimer: NodeJS.Timeout | null = null;
  lastCount = -1;
  pollTicks = 0;
  /** Players connected on a living node, as last read by the driver's count poll (see RoomDriver.pollCount). */
  connected: Set<string> | null = null;

  constructor(readonly roomId: string) {}

  get memberCount(): number {
    let count = this.hosts.size;
    for (const members of this.players.values()) count += members.size;
    return count;
  }

  *playerMembers(): Iterable<PlayerMember> {
    for (const members of this.players.values()) yield* members;
  }
}
