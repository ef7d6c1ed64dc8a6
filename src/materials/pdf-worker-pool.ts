import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../kernel/index.js';
import { DEFAULT_PDF_BUDGET, type PdfBudget } from './pdf-budget.js';
import type { PdfFailureKind } from './pdf-reader.js';
import type { ExtractedPdf, PageRange } from './types.js';

/**
 * Parsing and slicing PDFs is CPU work measured in seconds for large files, so it runs in worker threads and the
 * event loop keeps serving sockets meanwhile. The pool bounds how many parses run at once (a burst of uploads
 * queues instead of starving the process), keeps a warm worker for a while (pdf.js takes ~100 ms to load), and
 * enforces the time limit by terminating the worker — the only way to stop a parser stuck inside one call.
 *
 * Jobs wait in one queue per owner (the uploading account), served in turn: an owner has at most one job running,
 * and the next free worker goes to the waiting owner served longest ago (a newcomer first), so four hostile files
 * from one account take one worker while another instructor's upload takes the next. A worker whose job failed (a refused, broken
 * or timed-out file) is stopped, so what the parser held goes back to the system.
 */

export type WorkerRequest = { id: number } & JobInput;

/** `key` names the document (e.g. its hash): a slice job goes to the worker that just extracted the same key. */
type JobInput =
  | { type: 'extract'; bytes: Uint8Array; maxPages: number; budget: PdfBudget; key?: string }
  | { type: 'slice'; bytes: Uint8Array; ranges: PageRange[]; key?: string }
  /** Builds the Korean sample lecture (font shaping takes ~1 s of CPU: kept off the event loop too). */
  | { type: 'sample'; bytes: Uint8Array; key?: string };

export type WorkerResponse = (
  | { id: number; ok: true; type: 'extract'; extracted: ExtractedPdf }
  | { id: number; ok: true; type: 'slice'; slices: Uint8Array[] }
  | { id: number; ok: true; type: 'sample'; pdf: Uint8Array }
  | { id: number; ok: false; kind: PdfFailureKind; detail: string; pageCount?: number }
) & {
  /** What the PDF libraries complained about while reading (recoverable problems of the file). */
  warnings?: string[];
};

export type PdfJobFailureKind = PdfFailureKind | 'timeout' | 'busy';

/** Uploads waiting beyond this are refused with SERVER_BUSY: a burst queues, a flood does not pile up in memory. */
const DEFAULT_MAX_QUEUE = 32;
/** Jobs of one owner waiting at most; beyond, that owner's next job is refused ('busy'), nobody else's. */
const MAX_QUEUE_PER_OWNER = 8;
/** The lane of jobs that name no owner (the sample, re-cut slices). */
const NO_OWNER = '';

/** A PDF job that did not produce a result: the file's fault (kind) or the time limit ('timeout'). */
export class PdfJobError extends Error {
  constructor(
    readonly kind: PdfJobFailureKind,
    message: string,
    readonly pageCount?: number,
  ) {
    super(message);
    this.name = 'PdfJobError';
  }
}

export interface PdfWorkerPoolOptions {
  /** Wall-clock limit per job, from the moment a worker takes it (queue time is not counted). */
  timeoutMs: number;
  /** Parallel workers; defaults to min(2, cores). */
  size?: number;
  /** An idle worker is stopped after this long. */
  idleMs?: number;
  /** Jobs waiting for a worker at most; beyond that a job is refused at once ('busy') instead of waiting forever. */
  maxQueue?: number;
  logger?: Logger;
}

export interface PdfWorkerPool {
  /** `owner` (an account id) decides the job's queue; see the file comment. `budget`: DEFAULT_PDF_BUDGET unless given. */
  extract(bytes: Uint8Array, options: { maxPages: number; budget?: PdfBudget; key?: string; owner?: string }): Promise<ExtractedPdf>;
  slice(bytes: Uint8Array, ranges: PageRange[], options?: { key?: string; owner?: string }): Promise<Uint8Array[]>;
  sample(): Promise<Uint8Array>;
  /** Stops every worker; queued jobs are rejected. */
  close(): Promise<void>;
}

/** The pool {@link createPdfWorkerPool} makes, which also tells what it is doing (tests, diagnostics). */
export interface ObservablePdfWorkerPool extends PdfWorkerPool {
  /** The owner of each running job, waiting jobs per owner, and live workers (busy or warm). */
  activity(): { running: string[]; waiting: Record<string, number>; workers: number };
}

interface Job {
  input: JobInput;
  owner: string;
  resolve: (response: WorkerResponse & { ok: true }) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker | null;
  busy: boolean;
  /** The document key of this worker's last job. */
  lastKey: string | undefined;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * From src (tsx, vitest) the worker file is TypeScript, which a bare worker thread cannot load: bootstrap it
 * through tsx's programmatic import. From dist it is plain JavaScript.
 */
function spawnWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: 1024 } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pdf-worker.js', import.meta.url), options);
  const workerUrl = new URL('./pdf-worker.ts', import.meta.url).href;
  const tsxApi = pathToFileURL(tsxEsmApiPath()).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(workerUrl)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** tsx's ESM API file, read from its exports map (require.resolve would pick the CommonJS build). */
function tsxEsmApiPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    exports?: Record<string, { import?: { default?: string } | string }>;
  };
  const entry = manifest.exports?.['./esm/api']?.import;
  const relative = typeof entry === 'string' ? entry : (entry?.default ?? './dist/esm/api/index.mjs');
  return path.join(path.dirname(packageJson), relative);
}

export function createPdfWorkerPool(options: PdfWorkerPoolOptions): ObservablePdfWorkerPool {
  const size = Math.max(1, options.size ?? Math.min(2, availableParallelism()));
  const idleMs = options.idleMs ?? 30_000;
  const slots: Slot[] = Array.from({ length: size }, () => ({ worker: null, busy: false, lastKey: undefined, idleTimer: null }));
  /** Waiting jobs per owner; the owners with waiting jobs in the order their first one arrived. */
  const lanes = new Map<string, Job[]>();
  const turns: string[] = [];
  const running = new Map<string, number>();
  /** When each owner with a job running or waiting last had one started (a serial number; never: absent). */
  const lastStarted = new Map<string, number>();
  let started = 0;
  let waiting = 0;
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  let nextId = 1;
  let closed = false;

  const stop = (slot: Slot) => {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const worker = slot.worker;
    slot.worker = null;
    if (worker) void worker.terminate();
  };

  /**
   * The next job: of the owners with nothing running, the one whose last job started longest ago (one never served
   * first, then by arrival), its oldest waiting job, taken out of its queue.
   */
  const nextJob = (): Job | undefined => {
    let chosen = -1;
    for (let index = 0; index < turns.length; index += 1) {
      const owner = turns[index] as string;
      if (running.get(owner)) continue;
      if (chosen < 0 || (lastStarted.get(owner) ?? -1) < (lastStarted.get(turns[chosen] as string) ?? -1)) chosen = index;
    }
    if (chosen < 0) return undefined;
    const owner = turns[chosen] as string;
    const lane = lanes.get(owner) ?? [];
    const job = lane.shift();
    if (lane.length === 0) {
      lanes.delete(owner);
      turns.splice(chosen, 1);
    }
    if (!job) return undefined;
    waiting -= 1;
    started += 1;
    lastStarted.set(owner, started);
    return job;
  };

  const dispatch = () => {
    for (;;) {
      const idle = slots.filter((slot) => !slot.busy);
      if (idle.length === 0) return;
      const job = nextJob();
      if (!job) return;
      const slot = idle.find((candidate) => job.input.key !== undefined && candidate.lastKey === job.input.key) ?? (idle[0] as Slot);
      run(slot, job);
    }
  };

  const run = (slot: Slot, job: Job) => {
    slot.busy = true;
    running.set(job.owner, (running.get(job.owner) ?? 0) + 1);
    slot.lastKey = job.input.key;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (!slot.worker) {
      const spawned = spawnWorker();
      // A worker that dies between jobs must not be handed the next one.
      spawned.once('exit', () => {
        if (slot.worker === spawned) slot.worker = null;
      });
      slot.worker = spawned;
    }
    const worker = slot.worker;
    worker.ref();
    const id = nextId++;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      slot.busy = false;
      const left = (running.get(job.owner) ?? 1) - 1;
      if (left > 0) running.set(job.owner, left);
      else running.delete(job.owner);
      // An owner with nothing left is forgotten: its next upload is served like a newcomer's.
      if (left <= 0 && !lanes.has(job.owner)) lastStarted.delete(job.owner);
      if (slot.worker === worker) {
        worker.unref();
        slot.idleTimer = setTimeout(() => stop(slot), idleMs);
        slot.idleTimer.unref();
      }
      outcome();
      dispatch();
    };
    const fail = (error: Error, kill: boolean) =>
      finish(() => {
        if (kill && slot.worker === worker) stop(slot);
        job.reject(error);
      });
    const onMessage = (response: WorkerResponse) => {
      if (response.id !== id) return;
      if (response.warnings) options.logger?.debug({ warnings: response.warnings }, 'pdf parser warnings');
      if (response.ok) finish(() => job.resolve(response));
      // The worker may hold what the file made it allocate: a fresh one serves the next job.
      else fail(new PdfJobError(response.kind, response.detail, response.pageCount), true);
    };
    const onError = (error: Error) => {
      // A crash (e.g. the heap limit) is the file's doing; the worker is gone, a fresh one serves the next job.
      options.logger?.warn({ err: error }, 'pdf worker crashed');
      fail(new PdfJobError('corrupt', `worker crashed: ${error.message}`), true);
    };
    const onExit = (code: number) => fail(new PdfJobError('corrupt', `worker exited with code ${code}`), true);
    const timer = setTimeout(() => fail(new PdfJobError('timeout', `over ${options.timeoutMs} ms`), true), options.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // The worker gets its own copy, transferred rather than cloned; the caller keeps its bytes.
    const bytes = new Uint8Array(job.input.bytes);
    const request: WorkerRequest = { ...job.input, bytes, id };
    worker.postMessage(request, [bytes.buffer]);
  };

  const submit = (input: JobInput, owner = NO_OWNER) =>
    new Promise<WorkerResponse & { ok: true }>((resolve, reject) => {
      if (closed) {
        reject(new Error('pdf worker pool is closed'));
        return;
      }
      const lane = lanes.get(owner) ?? [];
      if (waiting >= maxQueue || lane.length >= Math.min(MAX_QUEUE_PER_OWNER, maxQueue)) {
        reject(new PdfJobError('busy', `pdf worker queue is full (${waiting} jobs waiting, ${lane.length} of this owner)`));
        return;
      }
      if (lane.length === 0) {
        lanes.set(owner, lane);
        turns.push(owner);
      }
      lane.push({ input, owner, resolve, reject });
      waiting += 1;
      dispatch();
    });

  return {
    async extract(bytes, { maxPages, budget = DEFAULT_PDF_BUDGET, key, owner }) {
      const response = await submit({ type: 'extract', bytes, maxPages, budget, ...(key === undefined ? {} : { key }) }, owner);
      if (response.type !== 'extract') throw new Error('pdf worker answered the wrong job type');
      return response.extracted;
    },
    async slice(bytes, ranges, options = {}) {
      const { key, owner } = options;
      const response = await submit({ type: 'slice', bytes, ranges, ...(key === undefined ? {} : { key }) }, owner);
      if (response.type !== 'slice') throw new Error('pdf worker answered the wrong job type');
      return response.slices;
    },
    async sample() {
      const response = await submit({ type: 'sample', bytes: new Uint8Array(0) });
      if (response.type !== 'sample') throw new Error('pdf worker answered the wrong job type');
      return response.pdf;
    },
    activity() {
      return {
        running: [...running].flatMap(([owner, count]) => Array.from({ length: count }, () => owner)),
        waiting: Object.fromEntries([...lanes].map(([owner, lane]) => [owner, lane.length])),
        workers: slots.filter((slot) => slot.worker !== null).length,
      };
    },
    async close() {
      closed = true;
      for (const lane of lanes.values()) for (const job of lane.splice(0)) job.reject(new Error('pdf worker pool is closed'));
      lanes.clear();
      turns.length = 0;
      lastStarted.clear();
      waiting = 0;
      const workers = slots.map((slot) => slot.worker).filter((worker): worker is Worker => worker !== null);
      for (const slot of slots) {
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
        slot.worker = null;
      }
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
