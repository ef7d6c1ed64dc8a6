import { randomUUID } from 'node:crypto';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { GuardReport } from '../guard/index.js';
import type { Retriever } from '../retrieval/index.js';
import type { LanguageModel } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';
import type { TokenSigner } from '../auth/index.js';
import { type Store } from '../store/index.js';
import { FeedHub } from './chapter-feed.js';
import { LectureGenerator, type LectureMaterial, type LectureMaterialReader } from './lecture-generator.js';
import { DEFAULT_SPEED, systemScheduler, type PacerEmitMeta, type PacerScheduler } from './pacer.js';
import { QaTutor } from './qa-tutor.js';
import { StudentAssistant, type MaterialSource } from './hand/student-assistant.js';
import { SessionActor, type SessionObserver, type SessionPort } from './session-actor.js';
import { SessionRepository, type InstructorReply } from './session-repository.js';
import { lectureKeys } from './lecture-keys.js';

/** What the lecture needs from the material catalogue (MaterialService satisfies it). */
export interface MaterialCatalog extends LectureMaterialReader, MaterialSource {
  get(id: string): Promise<LectureMaterial | null>;
}

export interface LectureServiceOptions {
  store: Store;
  model: LanguageModel;
  /** Where the item guard's refusals go (lecture questions, model answers, sub-concepts, raised-hand choices). */
  guard?: GuardReport | undefined;
  materials: MaterialCatalog;
  /** Where the raise-hand assistant finds its passages (the app's RetrievalService). */
  retriever: Retriever;
  signer: TokenSigner;
  logger: Logger;
  lectureConcurrency: number;
  pacerWindowMs?: number;
  nodeId?: string;
  scheduler?: PacerScheduler;
  observer?: SessionObserver;
  onDelta?: (meta: PacerEmitMeta) => void;
  /** Session driver lease; a node that died holding it blocks its sessions this long at most. */
  driverLeaseMs?: number;
  /**
   * How long a session whose last socket left stays driven here (display held, work in flight going on), so a
   * reload or a network drop continues seamlessly, mid-reply included.
   */
  graceMs?: number;
  generatorLeaseMs?: number;
  /** How long a class student's session is kept after its last write (RETENTION_DAYS); self-study sessions 7 days. */
  classSessionTtlMs?: number;
}

export const SESSION_TOKEN_TTL_MS = 24 * 60 * 60_000;

interface Attached {
  actor: SessionActor;
  sockets: number;
  renew: NodeJS.Timeout;
  /** Set while no socket is attached: when it fires, the actor is closed and the lease released. */
  grace?: NodeJS.Timeout;
}

/**
 * Sessions on this node: creates them, hands out tokens, and keeps one SessionActor per session that has a
 * socket here. A lease in the store makes the driver of a session unique across nodes; a node that reconnects a
 * session waits (bounded) for the previous driver to let go.
 */
export class LectureService {
  readonly repository: SessionRepository;
  readonly feeds: FeedHub;
  readonly generator: LectureGenerator;
  readonly tutor: QaTutor;
  readonly assistant: StudentAssistant;
  private readonly nodeId: string;
  private readonly attached = new Map<string, Attached>();
  private readonly attaching = new Map<string, Promise<Attached>>();
  private readonly driverLeaseMs: number;
  private readonly graceMs: number;
  /** Asks the other nodes to let go of a session they hold in grace (wired to socket.io's serverSideEmit). */
  private requestRelease: ((sessionId: string) => void) | undefined;
  private notifyInbox: ((sessionId: string) => void) | undefined;

  constructor(private readonly options: LectureServiceOptions) {
    this.nodeId = options.nodeId ?? randomUUID();
    this.repository = new SessionRepository(options.store, options.logger, options.classSessionTtlMs);
    this.feeds = new FeedHub(options.store, options.logger);
    this.generator = new LectureGenerator({
      store: options.store,
      model: options.model,
      materials: options.materials,
      logger: options.logger,
      concurrency: options.lectureConcurrency,
      nodeId: this.nodeId,
      ...(options.generatorLeaseMs ? { leaseMs: options.generatorLeaseMs } : {}),
      guard: options.guard,
    });
    this.assistant = new StudentAssistant({ model: options.model, materials: options.materials, retriever: options.retriever, logger: options.logger, guard: options.guard });
    // The tutor finds the material's passages the way the raise-hand assistant does (chapter first, text fallback).
    // A question is asked in its chapter right after the chapter taught it: that chapter's passages come first.
    this.tutor = new QaTutor(options.model, (request) => this.assistant.retrieve({ ...request, chapterFirst: 'always' }), options.guard);
    this.driverLeaseMs = options.driverLeaseMs ?? 5_000;
    this.graceMs = options.graceMs ?? 30_000;
  }

  /** Wires how this node asks the others to release a session (see `release`). */
  onReleaseRequest(request: (sessionId: string) => void): void {
    this.requestRelease = request;
  }

  /** Wires how this node tells the others that a session's inbox has mail (see `sendInstructorReply`). */
  onInboxPost(notify: (sessionId: string) => void): void {
    this.notifyInbox = notify;
  }

  /**
   * An instructor's direct reply to the student's raised hand. It is left in the session's inbox in the store, then
   * the session's driver is told: this node's actor, or (through `onInboxPost`) another node's. With no driver
   * anywhere, the next node to attach the session delivers it, so a student who comes back later still gets it.
   */
  async sendInstructorReply(sessionId: string, reply: InstructorReply): Promise<void> {
    await this.repository.postInstructorReply(sessionId, reply);
    await this.deliverInbox(sessionId);
    this.notifyInbox?.(sessionId);
  }

  /** One page of a session's transcript, oldest first (the instructor's view of a student; no model answers in it). */
  transcriptPage(sessionId: string, cursor: string | undefined, limit: number): Promise<{ items: TranscriptItem[]; nextCursor: string | null }> {
    return this.repository.transcriptPage(sessionId, cursor, limit);
  }

  /** Delivers the session's waiting instructor replies if this node drives it (nothing otherwise). */
  async deliverInbox(sessionId: string): Promise<void> {
    const entry = this.attached.get(sessionId) ?? (await this.attaching.get(sessionId)?.catch(() => undefined));
    await entry?.actor.deliverInstructorReplies();
  }

  /** Another node wants to drive this session: let go now if no socket of it is here. */
  async release(sessionId: string): Promise<void> {
    const entry = this.attached.get(sessionId);
    if (entry && entry.sockets === 0) await this.finish(sessionId, entry);
  }

  /** `billTo` (QUOTA): the account paying for the session's model calls (its lecture, answers, hand dialogue). */
  async createSession(input: {
    materialId: string;
    nickname: string;
    classId?: string;
    billTo?: string | undefined;
  }): Promise<{ sessionId: string; token: string }> {
    const material = await this.options.materials.get(input.materialId);
    if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND);
    const sessionId = randomUUID();
    await this.repository.create(
      {
        id: sessionId,
        materialId: material.id,
        nickname: input.nickname,
        createdAt: Date.now(),
        ...(input.classId ? { classId: input.classId } : {}),
        ...(input.billTo ? { billTo: input.billTo } : {}),
      },
      DEFAULT_SPEED,
    );
    // Start writing the lecture now: by the time the student presses start, chapter 1 is under way.
    this.generator.ensure(material, input.billTo);
    const token = this.options.signer.sign(
      { kind: 'session', sub: sessionId, ...(input.classId ? { scope: input.classId } : {}) },
      SESSION_TOKEN_TTL_MS,
    );
    return { sessionId, token };
  }

  /** Attaches a socket's session on this node, creating its actor (and taking the driver lease) if needed. */
  async attach(sessionId: string, port: SessionPort): Promise<SessionActor> {
    const existing = this.attached.get(sessionId);
    if (existing) {
      existing.sockets += 1;
      if (existing.grace) clearTimeout(existing.grace);
      delete existing.grace;
      return existing.actor;
    }
    let pending = this.attaching.get(sessionId);
    if (!pending) {
      pending = this.createActor(sessionId, port).finally(() => this.attaching.delete(sessionId));
      this.attaching.set(sessionId, pending);
      const entry = await pending;
      this.attached.set(sessionId, entry);
      return entry.actor;
    }
    const entry = await pending;
    entry.sockets += 1;
    return entry.actor;
  }

  async detach(sessionId: string): Promise<void> {
    const entry = this.attached.get(sessionId);
    if (!entry) return;
    entry.sockets -= 1;
    if (entry.sockets > 0) return;
    entry.actor.suspend();
    entry.grace = setTimeout(() => void this.finish(sessionId, entry), this.graceMs);
    entry.grace.unref();
  }

  /**
   * Stops driving the session on this node now (actor closed, lease released), whether or not sockets are attached:
   * its data is being deleted (data/), and a live actor or lease renewal would write its keys again.
   */
  async end(sessionId: string): Promise<void> {
    const entry = this.attached.get(sessionId);
    if (entry) await this.finish(sessionId, entry);
  }

  private async finish(sessionId: string, entry: Attached): Promise<void> {
    if (this.attached.get(sessionId) !== entry) return;
    this.attached.delete(sessionId);
    if (entry.grace) clearTimeout(entry.grace);
    clearInterval(entry.renew);
    await entry.actor.close();
    await this.options.store.releaseLease(lectureKeys.sessionDriver(sessionId), this.nodeId).catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all([...this.attached.entries()].map(([id, entry]) => this.finish(id, entry)));
    this.generator.close();
    this.feeds.close();
  }

  private async createActor(sessionId: string, port: SessionPort): Promise<Attached> {
    const { store, logger } = this.options;
    await this.takeDriverLease(sessionId);
    const lease = lectureKeys.sessionDriver(sessionId);
    const renew = setInterval(() => {
      // A lease that expired while the store was away is taken again (if nobody else took it meanwhile).
      store
        .renewLease(lease, this.nodeId, this.driverLeaseMs)
        .then((held) => held || store.acquireLease(lease, this.nodeId, this.driverLeaseMs))
        .catch(() => undefined);
    }, this.driverLeaseMs / 3);
    renew.unref();
    try {
      const record = await this.repository.load(sessionId);
      if (!record) throw new AppError(ErrorCode.SESSION_NOT_FOUND, '세션을 찾을 수 없습니다.');
      const material = await this.options.materials.get(record.profile.materialId);
      if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND);
      await this.repository.touch(sessionId);
      const actor = new SessionActor(
        {
          store,
          repository: this.repository,
          generator: this.generator,
          feeds: this.feeds,
          tutor: this.tutor,
          assistant: this.assistant,
          material,
          scheduler: this.options.scheduler ?? systemScheduler,
          ...(this.options.pacerWindowMs ? { pacerWindowMs: this.options.pacerWindowMs } : {}),
          logger: logger.child({ sessionId }),
          port,
          ...(this.options.observer ? { observer: this.options.observer } : {}),
          ...(this.options.onDelta ? { onDelta: this.options.onDelta } : {}),
        },
        record,
      );
      // Replies an instructor left while no node drove the session.
      void actor.deliverInstructorReplies();
      return { actor, sockets: 1, renew };
    } catch (error) {
      clearInterval(renew);
      await store.releaseLease(lectureKeys.sessionDriver(sessionId), this.nodeId).catch(() => undefined);
      throw error;
    }
  }

  /** Waits (bounded) for another node's driver of this session to let go. */
  private async takeDriverLease(sessionId: string): Promise<void> {
    const deadline = Date.now() + this.driverLeaseMs + 1_000;
    for (let attempt = 0; ; attempt += 1) {
      if (await this.options.store.acquireLease(lectureKeys.sessionDriver(sessionId), this.nodeId, this.driverLeaseMs)) return;
      if (attempt === 0) this.requestRelease?.(sessionId);
      if (Date.now() > deadline) {
        throw new AppError(ErrorCode.SESSION_BUSY, '이 세션은 다른 곳에서 진행 중입니다. 잠시 후 다시 연결해 주세요.');
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
