import type { z } from 'zod';
import { toWireError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { viewOf, type JobRecord, type JobRepository, type JobView } from './job-repository.js';
import { jobKeys } from './job-keys.js';

/**
 * Runs background jobs on whichever node takes them, and resumes them elsewhere when that node stops: a
 * job "survives a node restart on Redis, and can be cancelled".
 *
 * Every node polls the set of unfinished jobs; a job runs where its lease (jobKeys.jobLease) was taken, renewed every
 * third of its time. The handler saves a checkpoint (and the progress pages show) as it goes; a node that stops —
 * cleanly (it aborts its runs and releases their leases) or not (the lease lapses) — leaves the job active, and the
 * next node to take the lease runs the handler again from the saved checkpoint. Cancellation sets a flag any node
 * may set; the running node sees it at its next renewal (at once when the cancel reached that node) and aborts the
 * handler's signal; a job nobody runs is finished as cancelled by the node that was asked.
 */

export interface JobContext<C> {
  /** Aborted when the job is cancelled, or when this node stops (then another node resumes it). */
  signal: AbortSignal;
  /** Persists a checkpoint to resume from and/or the progress to show; every save reaches the job's watchers. */
  save(update: { checkpoint?: C; progress?: unknown }): Promise<void>;
}

export interface RunningJob<P, C> {
  jobId: string;
  accountId: string;
  params: P;
  /** The last saved checkpoint, or null on a first run. */
  checkpoint: C | null;
  /** 1 on the first run; more when the job was resumed. */
  runs: number;
}

export interface JobHandler<P, C, R> {
  kind: string;
  params: z.ZodType<P>;
  checkpoint: z.ZodType<C>;
  run(job: RunningJob<P, C>, context: JobContext<C>): Promise<R>;
}

/** A handler with its types checked at the boundary: what the runner holds for every kind. */
export interface RegisteredHandler {
  kind: string;
  run(job: JobRecord, context: JobContext<unknown>): Promise<unknown>;
}

/** Registers a handler: its params and checkpoints are parsed from the stored record with its own schemas. */
export function jobHandler<P, C, R>(handler: JobHandler<P, C, R>): RegisteredHandler {
  return {
    kind: handler.kind,
    run: (job, context) =>
      handler.run(
        {
          jobId: job.jobId,
          accountId: job.accountId,
          params: handler.params.parse(job.params),
          checkpoint: job.checkpoint === null ? null : handler.checkpoint.parse(job.checkpoint),
          runs: job.runs,
        },
        context as JobContext<C>,
      ),
  };
}

type StopReason = 'cancelled' | 'stopping' | 'lease-lost';

export interface JobRunnerOptions {
  repository: JobRepository;
  store: Store;
  nodeId: string;
  logger: Logger;
  handlers: readonly RegisteredHandler[];
  /** Every change of a job (status, progress), for its watchers (the `/jobs` namespace). */
  onChange?: ((view: JobView) => void) | undefined;
  /** Between two looks at the unfinished jobs (default 1 s). */
  pollMs?: number | undefined;
  /** How long a job's lease lasts without renewal (default 15 s): how soon another node resumes a dead node's job. */
  leaseMs?: number | undefined;
  /** Jobs one node runs at once (default 2). */
  concurrency?: number | undefined;
}

interface LocalRun {
  controller: AbortController;
  done: Promise<void>;
}

export class JobRunner {
  private readonly running = new Map<string, LocalRun>();
  private readonly handlers: Map<string, RegisteredHandler>;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.handlers = new Map(options.handlers.map((handler) => [handler.kind, handler]));
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 15_000;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.tick(), this.options.pollMs ?? 1_000);
    this.timer.unref();
    void this.tick();
  }

  /** Looks at the unfinished jobs once and starts the ones this node can take (no overlap with itself). */
  tick(): Promise<void> {
    this.ticking ??= this.look()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'job runner could not look at the jobs'))
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  /** Whether this node runs the job now. */
  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /**
   * Asks for a job's cancellation. A job running here stops at once; one running elsewhere at that node's next
   * lease renewal; one nobody runs is finished as cancelled now. Returns the job as it is after the request.
   */
  async cancel(jobId: string): Promise<JobRecord | null> {
    const { repository, store, nodeId } = this.options;
    const job = await repository.get(jobId);
    if (!job || job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled') return job;
    await repository.requestCancel(jobId);
    const local = this.running.get(jobId);
    if (local) {
      local.controller.abort('cancelled' satisfies StopReason);
      await local.done;
      return repository.get(jobId);
    }
    if (await store.acquireLease(jobKeys.jobLease(jobId), nodeId, this.leaseMs)) {
      try {
        const current = (await repository.get(jobId)) ?? job;
        return await this.finish({ ...current, status: 'cancelled' });
      } finally {
        await store.releaseLease(jobKeys.jobLease(jobId), nodeId);
      }
    }
    return repository.get(jobId);
  }

  /** Stops taking jobs and stops the ones running here, leaving them to be resumed by another node. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    for (const run of this.running.values()) run.controller.abort('stopping' satisfies StopReason);
    await Promise.all([...this.running.values()].map((run) => run.done));
  }

  private async look(): Promise<void> {
    const { repository, store, nodeId } = this.options;
    const room = (this.options.concurrency ?? 2) - this.running.size;
    if (room <= 0 || this.stopped) return;
    for (const jobId of await repository.active(50)) {
      if (this.running.size >= (this.options.concurrency ?? 2) || this.stopped) return;
      if (this.running.has(jobId)) continue;
      if (!(await store.acquireLease(jobKeys.jobLease(jobId), nodeId, this.leaseMs))) continue;
      const job = await repository.get(jobId);
      if (!job) {
        await repository.forget(jobId);
        await store.releaseLease(jobKeys.jobLease(jobId), nodeId);
        continue;
      }
      this.launch(job);
    }
  }

  private launch(job: JobRecord): void {
    const controller = new AbortController();
    const done = this.run(job, controller).finally(() => {
      this.running.delete(job.jobId);
    });
    this.running.set(job.jobId, { controller, done });
  }

  private async run(initial: JobRecord, controller: AbortController): Promise<void> {
    const { repository, store, nodeId, logger } = this.options;
    const lease = jobKeys.jobLease(initial.jobId);
    let job = initial;
    const renew = setInterval(() => {
      void (async () => {
        if (!(await store.renewLease(lease, nodeId, this.leaseMs))) controller.abort('lease-lost' satisfies StopReason);
        else if (await repository.cancelRequested(job.jobId)) controller.abort('cancelled' satisfies StopReason);
      })().catch((error: unknown) => logger.warn({ err: error, jobId: job.jobId }, 'job lease renewal failed'));
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    renew.unref();
    try {
      if (await repository.cancelRequested(job.jobId)) {
        await this.finish({ ...job, status: 'cancelled' });
        return;
      }
      const handler = this.handlers.get(job.kind);
      if (!handler) {
        await this.finish({ ...job, status: 'failed', error: { code: 'INTERNAL', message: '알 수 없는 작업입니다.' } });
        return;
      }
      job = await this.changed(await repository.write({ ...job, status: 'running', runs: job.runs + 1 }));
      const context: JobContext<unknown> = {
        signal: controller.signal,
        save: async (update) => {
          // A node that lost the job (or is stopping) writes nothing more: the node that resumes it owns the record.
          if (controller.signal.aborted && controller.signal.reason !== 'cancelled') return;
          job = await this.changed(
            await repository.write({
              ...job,
              ...(update.checkpoint === undefined ? {} : { checkpoint: update.checkpoint }),
              ...(update.progress === undefined ? {} : { progress: update.progress }),
            }),
          );
        },
      };
      try {
        const result = await handler.run(job, context);
        await this.finish({ ...job, status: 'succeeded', result: result ?? null });
      } catch (error) {
        const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
        if (reason === 'stopping' || reason === 'lease-lost') {
          logger.info({ jobId: job.jobId, reason }, 'job left for another node to resume');
          return;
        }
        if (reason === 'cancelled') {
          await this.finish({ ...job, status: 'cancelled' });
          return;
        }
        const { body } = toWireError(error);
        if (body.code === 'INTERNAL') logger.error({ err: error, jobId: job.jobId, kind: job.kind }, 'job failed');
        else logger.warn({ code: body.code, jobId: job.jobId, kind: job.kind }, 'job failed');
        await this.finish({ ...job, status: 'failed', error: body, result: resultOf(error) });
      }
    } finally {
      clearInterval(renew);
      await store.releaseLease(lease, nodeId).catch(() => undefined);
    }
  }

  private async finish(job: JobRecord): Promise<JobRecord> {
    return this.changed(await this.options.repository.finish(job));
  }

  private changed(job: JobRecord): JobRecord {
    try {
      this.options.onChange?.(viewOf(job));
    } catch (error) {
      this.options.logger.warn({ err: error, jobId: job.jobId }, 'job watcher failed');
    }
    return job;
  }
}

/** A failed job keeps the partial result its error carries (e.g. the problems that passed), if any. */
function resultOf(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && 'partialResult' in error) return (error as { partialResult: unknown }).partialResult ?? null;
  return null;
}
