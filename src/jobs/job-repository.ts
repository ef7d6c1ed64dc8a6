import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { readJsonRecord, RETENTION, type Store } from '../store/index.js';
import { jobKeys } from './job-keys.js';

/**
 * Background jobs in the store: one JSON record per job, written only by the node holding the job's lease (so a
 * read-modify-write never races another writer), and the durable set of unfinished jobs every node's runner reads.
 * Cancellation is a separate flag key anyone may set; the running node reads it. A record lives RETENTION.jobMs
 * after its last write; what a job produces that a user keeps is stored by the job's kind (e.g. a problem set).
 */

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JobRecord = z.object({
  jobId: z.string(),
  kind: z.string(),
  /** The account that owns the job and what it makes (and pays for its model calls). */
  accountId: z.string(),
  /**
   * Who started it: the owner, or a student of one of the owner's classes (a self-study exam billed to the
   * instructor). The owner's job tokens end with the owner's sessions (a password reset or change); a student's
   * do not, so a teacher's sign-out never cuts a student's progress view. Absent on records made before: the owner.
   */
  startedBy: z.enum(['owner', 'student']).optional(),
  status: z.enum(JOB_STATUSES),
  params: z.unknown(),
  /** What the job's handler saved to resume from after a restart (null before its first save). */
  checkpoint: z.unknown(),
  /** The last progress the handler reported, for pages (its shape is the kind's). */
  progress: z.unknown(),
  result: z.unknown(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** How many times a node started running it (more than 1: it was resumed after a node stopped). */
  runs: z.number().int().min(0),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type JobRecord = z.infer<typeof JobRecord>;

/** A job as its owner sees it (pages and the `/jobs` namespace): the record without its checkpoint. */
export type JobView = Omit<JobRecord, 'checkpoint'>;

export const viewOf = ({ checkpoint: _checkpoint, ...view }: JobRecord): JobView => view;

export class JobRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  async create(kind: string, accountId: string, params: unknown, startedBy: 'owner' | 'student' = 'owner'): Promise<JobRecord> {
    const at = this.now();
    const job: JobRecord = {
      jobId: randomUUID().replaceAll('-', ''),
      kind,
      accountId,
      startedBy,
      status: 'queued',
      params,
      checkpoint: null,
      progress: null,
      result: null,
      error: null,
      runs: 0,
      createdAt: at,
      updatedAt: at,
    };
    // The record first, then the active entry: a runner never finds an id without its record.
    await this.write(job);
    await this.store.zadd(jobKeys.activeJobs(), at, job.jobId);
    return job;
  }

  async get(jobId: string): Promise<JobRecord | null> {
    if (!/^[0-9a-f]{32}$/.test(jobId)) return null;
    return readJsonRecord(await this.store.get(jobKeys.job(jobId)), JobRecord, { key: jobKeys.job(jobId), logger: this.logger });
  }

  /** Writes the job as it is now (only the lease holder calls this). */
  async write(job: JobRecord): Promise<JobRecord> {
    const written = { ...job, updatedAt: this.now() };
    await this.store.set(jobKeys.job(job.jobId), JSON.stringify(written), { ttlMs: RETENTION.jobMs });
    return written;
  }

  /** A finished job leaves the active set; its record stays until it expires. */
  async finish(job: JobRecord): Promise<JobRecord> {
    const written = await this.write(job);
    await this.store.zrem(jobKeys.activeJobs(), job.jobId);
    await this.store.del(jobKeys.jobCancel(job.jobId));
    return written;
  }

  /** Unfinished job ids, oldest first (at most `limit`). */
  async active(limit: number): Promise<string[]> {
    return (await this.store.zrange(jobKeys.activeJobs(), 0, limit - 1)).map((entry) => entry.member);
  }

  /** Drops an active entry whose record is gone (expired or deleted). */
  async forget(jobId: string): Promise<void> {
    await this.store.zrem(jobKeys.activeJobs(), jobId);
  }

  async requestCancel(jobId: string): Promise<void> {
    await this.store.set(jobKeys.jobCancel(jobId), '1', { ttlMs: RETENTION.jobMs });
  }

  async cancelRequested(jobId: string): Promise<boolean> {
    return this.store.exists(jobKeys.jobCancel(jobId));
  }
}
