import { createHash } from 'node:crypto';
import type { Logger } from '../kernel/index.js';
import { checkLectureQuestion, refusalsOf, type GuardReport } from '../guard/index.js';
import { screenQuestions } from './question-screen.js';
import type { LanguageModel } from '../llm/index.js';
import { toWireError } from '../kernel/index.js';
import { type Store } from '../store/index.js';
import { LECTURE_TASKS, lecturePrompts, renderLecturePrompt } from './lecture-prompts.js';
import { lectureKeys } from './lecture-keys.js';

/** What the generator needs from a material (MaterialService satisfies it). */
export interface LectureMaterialReader {
  /** null once the material is deleted: nothing more is generated for it. */
  get(materialId: string): Promise<unknown>;
  chapterText(materialId: string, index: number): Promise<string>;
  chapterPdf(materialId: string, index: number): Promise<Uint8Array>;
}

export interface LectureMaterial {
  id: string;
  title: string;
  chapters: readonly { index: number; title: string }[];
}

export interface LectureGeneratorOptions {
  store: Store;
  model: LanguageModel;
  materials: LectureMaterialReader;
  logger: Logger;
  /** Chapters generated in parallel per material on this node. */
  concurrency: number;
  /** Identifies this node as a lease owner. */
  nodeId: string;
  leaseMs?: number;
  /** How often interested materials are re-checked for chapters nobody is generating (a dead node's). */
  watchdogMs?: number;
  /** Where the item guard's refusals of lecture questions go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
}

const INTEREST_MS = 10 * 60_000;

/**
 * The Delegator's generation side: writes every chapter lecture of a material once, shared by every student and
 * node. A chapter's raw model text is appended to a store stream as it arrives (students tail it, so chapter 1
 * streams while later chapters are still being written). A lease makes generation single-flight across nodes; a
 * watchdog picks up chapters whose generating node died. A failed attempt keeps its text, and the next attempt
 * continues from it, so the stream is append-only and no student ever sees text change under them.
 */
export class LectureGenerator {
  private readonly leaseMs: number;
  private readonly running = new Set<string>();
  private readonly cacheKeys = new Map<string, string>();
  /** Chapters whose last attempt on this node failed (cache keys); ensure() retries them. */
  private readonly failed = new Set<string>();
  /** Materials students are on, and (QUOTA) the account the latest of them bills its lecture to. */
  private readonly interest = new Map<string, { material: LectureMaterial; until: number; billTo?: string | undefined }>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(private readonly options: LectureGeneratorOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.watchdog = setInterval(() => this.checkInterest(), options.watchdogMs ?? this.leaseMs / 2);
    this.watchdog.unref();
  }

  /** The cache key of a chapter: material, chapter, prompt version and model name. */
  cacheKey(materialId: string, chapter: number): string {
    // Asked on every step of every session: remembered, since none of its inputs change while the process runs.
    const memoKey = `${materialId}:${chapter}`;
    const known = this.cacheKeys.get(memoKey);
    if (known) return known;
    const prompts = lecturePrompts();
    const computed = createHash('sha256')
      .update([materialId, chapter, prompts.write.hash, prompts.continue.hash, this.modelName()].join('\n'))
      .digest('hex')
      .slice(0, 32);
    this.cacheKeys.set(memoKey, computed);
    return computed;
  }

  /**
   * Makes sure every chapter of the material is (being) generated, in chapter order with bounded parallelism.
   * Cheap and idempotent: call it whenever a student starts or resumes. `billTo` (QUOTA) is the account the
   * student's session is billed to: a chapter is written once for every student, at the cost of the account of the
   * latest one to ask (its daily model budget is checked before each chapter).
   */
  ensure(material: LectureMaterial, billTo?: string): void {
    this.interest.set(material.id, { material, until: Date.now() + INTEREST_MS, billTo });
    if (this.queues.has(material.id)) {
      // The run in progress has already passed the chapters that failed; a student resuming after a failure must
      // not wait for the whole run (or the watchdog) before the retry starts.
      for (const chapter of material.chapters) {
        if (this.failed.has(this.cacheKey(material.id, chapter.index))) void this.ensureChapter(material, chapter.index);
      }
      return;
    }
    const run = this.generateAll(material).finally(() => this.queues.delete(material.id));
    this.queues.set(material.id, run);
  }

  close(): void {
    clearInterval(this.watchdog);
  }

  private modelName(): string {
    return `${this.options.model.kind}:${this.options.model.modelName('generation')}`;
  }

  private async generateAll(material: LectureMaterial): Promise<void> {
    const pending = [...material.chapters];
    const worker = async () => {
      for (let chapter = pending.shift(); chapter; chapter = pending.shift()) {
        await this.ensureChapter(material, chapter.index);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency) }, worker));
  }

  private checkInterest(): void {
    const now = Date.now();
    for (const [id, { material, until }] of this.interest) {
      if (until < now) this.interest.delete(id);
      else if (!this.queues.has(id)) {
        const run = this.generateAll(material).finally(() => this.queues.delete(id));
        this.queues.set(id, run);
      }
    }
  }

  /** Generates (or continues) one chapter unless it is done or another node holds its lease. Never throws. */
  async ensureChapter(material: LectureMaterial, chapter: number): Promise<void> {
    const { store, logger, nodeId } = this.options;
    const cacheKey = this.cacheKey(material.id, chapter);
    if (this.running.has(cacheKey)) return;
    this.running.add(cacheKey);
    let renew: NodeJS.Timeout | undefined;
    let generating = false;
    const abort = new AbortController();
    try {
      if ((await store.get(lectureKeys.lectureStatus(cacheKey))) === 'done') return;
      // A deleted material (data/) gets nothing more: the watchdog's interest would otherwise write its lectures back.
      if ((await this.options.materials.get(material.id)) === null) {
        this.interest.delete(material.id);
        return;
      }
      // Recorded before any of the chapter's keys is written, so a material's deletion finds every lecture of it.
      await this.recordLectureKey(material.id, cacheKey);
      if (!(await store.acquireLease(lectureKeys.lectureLock(cacheKey), nodeId, this.leaseMs))) return;
      generating = true;
      this.failed.delete(cacheKey);
      renew = setInterval(() => {
        store.renewLease(lectureKeys.lectureLock(cacheKey), nodeId, this.leaseMs).then(
          (held) => {
            if (!held) abort.abort(new Error('lease lost'));
          },
          () => undefined, // a store blip: the next renewal decides
        );
      }, this.leaseMs / 3);
      // Another node may have finished between our status check and the lease.
      if ((await store.get(lectureKeys.lectureStatus(cacheKey))) === 'done') return;
      await this.generate(material, chapter, cacheKey, abort.signal);
    } catch (error) {
      logger.warn({ err: error, materialId: material.id, chapter }, 'lecture generation failed');
      this.failed.add(cacheKey);
      const { body } = toWireError(error);
      await store
        .xadd(lectureKeys.lectureText(cacheKey), { e: 'failed', code: body.code, message: body.message })
        .catch(() => undefined);
    } finally {
      if (renew) clearInterval(renew);
      await store.releaseLease(lectureKeys.lectureLock(cacheKey), nodeId).catch(() => undefined);
      // Deleted while it was being written (its lease was deleted too, so the renewal aborted it): what this attempt
      // wrote since is removed here, on whichever node wrote it.
      if (generating) await this.dropIfDeleted(material.id, cacheKey).catch(() => undefined);
      this.running.delete(cacheKey);
    }
  }

  private async dropIfDeleted(materialId: string, cacheKey: string): Promise<void> {
    if ((await this.options.materials.get(materialId)) !== null) return;
    await this.options.store.del(lectureKeys.lectureText(cacheKey), lectureKeys.lectureStatus(cacheKey), lectureKeys.materialLectures(materialId));
  }

  /**
   * Adds the cache key to the material's lecture index unless it is there (the score keeps the first use). Asked each
   * time, not remembered: a material deleted and uploaded again (same bytes, same id) must be recorded again.
   */
  private async recordLectureKey(materialId: string, cacheKey: string): Promise<void> {
    const { store } = this.options;
    if ((await store.zscore(lectureKeys.materialLectures(materialId), cacheKey)) === null) {
      await store.zadd(lectureKeys.materialLectures(materialId), Date.now(), cacheKey);
    }
  }

  /** The account a chapter of the material is billed to now (QUOTA), as an attribution field. */
  private billing(materialId: string): { accountId?: string } {
    const billTo = this.interest.get(materialId)?.billTo;
    return billTo === undefined ? {} : { accountId: billTo };
  }

  private async generate(material: LectureMaterial, chapter: number, cacheKey: string, signal: AbortSignal) {
    const { store, model, materials } = this.options;
    const streamKey = lectureKeys.lectureText(cacheKey);
    const previous = await store.xread(streamKey, '0');
    const prefix = previous.map((entry) => entry.fields.t ?? '').join('');
    if (previous.at(-1)?.fields.e === 'failed') await store.xadd(streamKey, { e: 'attempt' });

    const info = material.chapters.find((candidate) => candidate.index === chapter);
    const text = await materials.chapterText(material.id, chapter);
    const input = { materialTitle: material.title, title: info?.title ?? '', text, prefix };
    const prompts = lecturePrompts();
    const continuing = prefix.length > 0;
    const prompt = renderLecturePrompt(input);
    const files =
      model.capabilities.pdfInput ? [{ mimeType: 'application/pdf', data: await materials.chapterPdf(material.id, chapter) }] : [];

    const stream = model.streamText({
      task: continuing ? LECTURE_TASKS.continue : LECTURE_TASKS.write,
      input,
      prompt,
      system: prompts.system.render({}),
      role: 'generation',
      temperature: 0.4,
      files,
      signal,
      attribution: { materialId: material.id, ...this.billing(material.id) },
    });

    // Write-behind batching: whatever arrives while one append is in flight goes out as the next single append.
    let buffer = '';
    let writing: Promise<void> | undefined;
    let writeFailure: unknown;
    const flush = async () => {
      while (buffer.length > 0) {
        const piece = buffer;
        buffer = '';
        await store.xadd(streamKey, { t: piece });
      }
    };
    // Every `[질문]` passes the item guard before a student can read it; a refused one is dropped from the lecture.
    const accept = (question: string): boolean => {
      const refusals = checkLectureQuestion(question);
      if (refusals.length > 0) this.options.guard?.refused(refusalsOf(LECTURE_TASKS.write, question, refusals, { materialId: material.id, ...this.billing(material.id) }));
      return refusals.length === 0;
    };
    for await (const delta of screenQuestions(stream, accept)) {
      if (writeFailure !== undefined) throw writeFailure;
      buffer += delta;
      writing ??= flush()
        .catch((error: unknown) => {
          writeFailure = error;
        })
        .finally(() => {
          writing = undefined;
        });
    }
    await writing;
    if (writeFailure !== undefined) throw writeFailure;
    await flush();
    await stream.result;
    await store.set(lectureKeys.lectureStatus(cacheKey), 'done');
    await store.xadd(streamKey, { e: 'done' });
  }
}
