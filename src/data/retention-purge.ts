import type { Logger } from '../kernel/index.js';
import { isAppError } from '../kernel/index.js';
import { DELETE_BATCH, type Store } from '../store/index.js';
import type { QuizImageParts } from './quiz-deletion.js';
import type { RoomDeletion } from './room-deletion.js';
import { quizLifecycle } from '../quiz/index.js';
import { dataKeys } from './data-keys.js';

const HOUR_MS = 60 * 60_000;

export interface RetentionPurgeOptions {
  store: Store;
  rooms: RoomDeletion;
  /** Uploaded quiz pictures (src/quiz/ satisfies it): those no quiz shows go once older than the retention. */
  images?: Pick<QuizImageParts, 'purgeUnused' | 'queueEarlierUploads'> | undefined;
  /** Every account's id (their picture lists are where pictures uploaded before the queue existed are found). */
  accountIds?: (() => AsyncIterable<string>) | undefined;
  /** RETENTION_DAYS in ms: results whose last write is older are deleted, and pictures uploaded earlier no quiz shows. */
  retentionMs: number;
  nodeId: string;
  logger: Logger;
  /** The clock (tests move it a year ahead). */
  now?: () => number;
  /** Between two runs on this node. */
  intervalMs?: number;
  /** How long the lease outlives a run: more than the interval, so the node that purges keeps doing it. */
  leaseMs?: number;
  /** Batches per run (DELETE_BATCH rooms each): a run's work is bounded; the rest waits for the next run. */
  maxBatches?: number;
}

export interface PurgeRun {
  /** False when another node held the lease (this node did nothing). */
  ran: boolean;
  purged: number;
}

/**
 * The periodic retention purge. Student data with a TTL (class sessions and rosters RETENTION_DAYS, self-study
 * sessions 7 days, live rooms 1 day; see store/retention.ts and app.ts) expires by itself; what is kept without expiry
 * is a quiz room's results (every player's nickname and answers) and list entry. Every results write queues the room
 * in the quiz folder's retention queue (quizLifecycle.retainedRooms), scored by the time of the write; a run takes the
 * oldest entries a batch at a time and deletes the rooms older than the retention (the whole room: results, summary,
 * index entries). Uploaded quiz pictures are queued the same way in the quiz folder (by upload time): those older
 * than the retention that no quiz shows are deleted (blob, record, list entry; their bytes no longer count against
 * the account's quota). Pictures uploaded before that queue existed are queued once, from their accounts' lists, by
 * the first run that finds them unqueued.
 *
 * One node at a time: a run starts only with the store lease dataKeys.retentionLease, which the node keeps (renewing it
 * at each run, never releasing it), so the other nodes skip; when that node stops, its lease lapses and another one
 * takes over at its next run.
 */
export class RetentionPurge {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PurgeRun> | undefined;

  constructor(private readonly options: RetentionPurgeOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Runs every `intervalMs` (default an hour); unref'd so it never holds the process. */
  start(): void {
    if (this.timer) return;
    const interval = this.options.intervalMs ?? HOUR_MS;
    this.timer = setInterval(() => void this.runOnce().catch((error: unknown) => this.options.logger.warn({ err: error }, 'retention purge failed')), interval);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    // Hand the purge over at once rather than when the lease lapses.
    await this.options.store.releaseLease(dataKeys.retentionLease(), this.options.nodeId).catch(() => undefined);
  }

  /** One run (no overlap on this node); returns whether this node ran it and how many rooms it deleted. */
  runOnce(): Promise<PurgeRun> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<PurgeRun> {
    const { store, rooms, retentionMs, nodeId, logger } = this.options;
    const leaseMs = this.options.leaseMs ?? 2 * (this.options.intervalMs ?? HOUR_MS);
    // The node holding the lease keeps it (renewed each run); the others skip until it lapses.
    const held = (await store.acquireLease(dataKeys.retentionLease(), nodeId, leaseMs)) || (await store.renewLease(dataKeys.retentionLease(), nodeId, leaseMs));
    if (!held) return { ran: false, purged: 0 };
    const cutoff = this.now() - retentionMs;
    let purged = 0;
    for (let batch = 0; batch < (this.options.maxBatches ?? 10); batch += 1) {
      const oldest = await quizLifecycle.retainedRooms(store, DELETE_BATCH);
      const due = oldest.filter((entry) => entry.score <= cutoff);
      for (const { member: roomId } of due) {
        try {
          if (await rooms.delete(roomId)) purged += 1;
          // Also when nothing of it was left (deleted by hand): the entry itself goes.
          await quizLifecycle.forgetRetained(store, roomId);
        } catch (error) {
          // A room being played again (it cannot be, past the retention, but never loop on it): look again later.
          if (!isAppError(error)) throw error;
          await quizLifecycle.retainAgain(store, roomId, this.now());
        }
      }
      if (due.length < DELETE_BATCH) break;
    }
    if (purged > 0) logger.info({ purged, retentionMs }, 'retention purge deleted old quiz room results');
    const { images: pictures, accountIds } = this.options;
    if (pictures?.queueEarlierUploads && accountIds) {
      const queued = await pictures.queueEarlierUploads(accountIds());
      if (queued > 0) logger.info({ queued }, 'retention purge queued quiz pictures uploaded before its queue existed');
    }
    const images = await this.purgeImages(cutoff);
    if (images > 0) logger.info({ images, retentionMs }, 'retention purge deleted old quiz pictures no quiz shows');
    return { ran: true, purged };
  }

  /** Pictures uploaded before `cutoff` that no quiz shows, a batch at a time (bounded like the rooms). */
  private async purgeImages(cutoff: number): Promise<number> {
    const { images } = this.options;
    if (!images) return 0;
    let purged = 0;
    for (let batch = 0; batch < (this.options.maxBatches ?? 10); batch += 1) {
      const step = await images.purgeUnused(cutoff, DELETE_BATCH);
      purged += step.purged;
      if (!step.more) break;
    }
    return purged;
  }
}
