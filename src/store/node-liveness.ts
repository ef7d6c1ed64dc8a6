import type { Logger } from '../kernel/index.js';
import { keys } from './keys.js';
import type { Store } from './store.js';

/** A node's heartbeat key lives this long; it is renewed every second, so a crashed node is seen dead within ~5 s. */
export const HEARTBEAT_TTL_MS = 5_000;
const BEAT_INTERVAL_MS = 1_000;
/** How long a node's alive/dead answer is reused before asking the store again. */
const CHECK_CACHE_MS = 1_000;

/** Which nodes are alive: presence counts written by a node that crashed must not keep people "connected". */
export interface NodeLiveness {
  readonly nodeId: string;
  isAlive(nodeId: string): Promise<boolean>;
}

/** Everyone alive: one process, nothing to tell apart (tests of a single component). */
export const SINGLE_NODE: NodeLiveness = { nodeId: 'local', isAlive: async () => true };

/**
 * This node's heartbeat in the store (a key with a short TTL, renewed every second) and the check of other nodes'
 * heartbeats. Presence is then written per node (`…@nodeId` fields, `nodeId|socket` entries) and only counted for
 * nodes whose heartbeat is there.
 */
export class NodeHeartbeat implements NodeLiveness {
  private timer: NodeJS.Timeout | null = null;
  private readonly checked = new Map<string, { alive: boolean; at: number }>();

  constructor(
    private readonly store: Store,
    readonly nodeId: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    const beat = () =>
      this.store.set(keys.nodeHeartbeat(this.nodeId), String(this.now()), { ttlMs: HEARTBEAT_TTL_MS }).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'node heartbeat failed');
      });
    void beat();
    this.timer = setInterval(() => void beat(), BEAT_INTERVAL_MS);
    this.timer.unref();
  }

  async isAlive(nodeId: string): Promise<boolean> {
    if (nodeId === this.nodeId) return true;
    const now = this.now();
    const cached = this.checked.get(nodeId);
    if (cached && now - cached.at < CHECK_CACHE_MS) return cached.alive;
    const alive = await this.store.exists(keys.nodeHeartbeat(nodeId));
    if (this.checked.size > 1_000) this.checked.clear();
    this.checked.set(nodeId, { alive, at: now });
    return alive;
  }

  /** Stops beating and removes the heartbeat, so other nodes stop counting this one at once. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.store.del(keys.nodeHeartbeat(this.nodeId)).catch(() => 0);
  }
}
