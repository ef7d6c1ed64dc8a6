import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { LanguageModel } from '../llm/model.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { TokenSigner } from '../classroom/tokens.js';
import type { Store } from '../store/store.js';
import { keys } from '../store/keys.js';
import { FeedHub } from './chapter-feed.js';
import { LectureGenerator, type LectureMaterial, type LectureMaterialReader } from './lecture-generator.js';
import { DEFAULT_SPEED, systemScheduler, type PacerEmitMeta, type PacerScheduler } from './pacer.js';
import { QaTutor } from './qa-tutor.js';
import { SessionActor, type SessionObserver, type SessionPort } from './session-actor.js';
import { SessionRepository } from './session-repository.js';

/** What the lecture needs from the material catalogue (MaterialService satisfies it). */
export interface MaterialCatalog extends LectureMaterialReader {
  get(id: string): Promise<LectureMaterial | null>;
}

export interface LectureServiceOptions {
  store: Store;
  model: LanguageModel;
  materials: MaterialCatalog;
  signer: TokenSigner;
  logger: Logger;
  lectureConcurrency: number;
  nodeId?: string;
  scheduler?: PacerScheduler;
  observer?: SessionObserver;
  onDelta?: (meta: PacerEmitMeta) => void;
  /** Session driver lease; a node that died holding it blocks its sessions this long at most. */
  driverLeaseMs?: number;
  generatorLeaseMs?: number;
}

export const SESSION_TOKEN_TTL_MS = 24 * 60 * 60_000;

interface Attached {
  actor: SessionActor;
  sockets: number;
  renew: NodeJS.Timeout;
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
  private readonly nodeId: string;
  private readonly attached = new Map<string, Attached>();
  private readonly attaching = new Map<string, Promise<Attached>>();
  private readonly driverLeaseMs: number;

  constructor(private readonly options: LectureServiceOptions) {
    this.nodeId = options.nodeId ?? randomUUID();
    this.repository = new SessionRepository(options.store);
    this.feeds = new FeedHub(options.store, options.logger);
    this.generator = new LectureGenerator({
      store: options.store,
      model: options.model,
      materials: options.materials,
      logger: options.logger,
      concurrency: options.lectureConcurrency,
      nodeId: this.nodeId,
      ...(options.generatorLeaseMs ? { leaseMs: options.generatorLeaseMs } : {}),
    });
    this.tutor = new QaTutor(options.model);
    this.driverLeaseMs = options.driverLeaseMs ?? 5_000;
  }

  async createSession(input: { materialId: string; nickname: string; classId?: string }): Promise<{ sessionId: string; token: string }> {
    const material = await this.options.materials.get(input.materialId);
    if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료를 찾을 수 없습니다.', { status: 404 });
    const sessionId = randomUUID();
    await this.repository.create(
      {
        id: sessionId,
        materialId: material.id,
        nickname: input.nickname,
        createdAt: Date.now(),
        ...(input.classId ? { classId: input.classId } : {}),
      },
      DEFAULT_SPEED,
    );
    // Start writing the lecture now: by the time the student presses start, chapter 1 is under way.
    this.generator.ensure(material);
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
    this.attached.delete(sessionId);
    clearInterval(entry.renew);
    await entry.actor.close();
    await this.options.store.releaseLease(keys.sessionDriver(sessionId), this.nodeId).catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all([...this.attached.keys()].map((id) => this.detach(id)));
    this.generator.close();
    this.feeds.close();
  }

  private async createActor(sessionId: string, port: SessionPort): Promise<Attached> {
    const { store, logger } = this.options;
    await this.takeDriverLease(sessionId);
    const renew = setInterval(() => {
      store.renewLease(keys.sessionDriver(sessionId), this.nodeId, this.driverLeaseMs).catch(() => undefined);
    }, this.driverLeaseMs / 3);
    renew.unref();
    try {
      const record = await this.repository.load(sessionId);
      if (!record) throw new AppError(ErrorCode.SESSION_NOT_FOUND, '세션을 찾을 수 없습니다.', { status: 404 });
      const material = await this.options.materials.get(record.profile.materialId);
      if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료를 찾을 수 없습니다.', { status: 404 });
      await this.repository.touch(sessionId);
      const actor = new SessionActor(
        {
          store,
          repository: this.repository,
          generator: this.generator,
          feeds: this.feeds,
          tutor: this.tutor,
          material,
          scheduler: this.options.scheduler ?? systemScheduler,
          logger: logger.child({ sessionId }),
          port,
          ...(this.options.observer ? { observer: this.options.observer } : {}),
          ...(this.options.onDelta ? { onDelta: this.options.onDelta } : {}),
        },
        record,
      );
      return { actor, sockets: 1, renew };
    } catch (error) {
      clearInterval(renew);
      await store.releaseLease(keys.sessionDriver(sessionId), this.nodeId).catch(() => undefined);
      throw error;
    }
  }

  /** Waits (bounded) for another node's driver of this session to let go. */
  private async takeDriverLease(sessionId: string): Promise<void> {
    const deadline = Date.now() + this.driverLeaseMs + 1_000;
    for (;;) {
      if (await this.options.store.acquireLease(keys.sessionDriver(sessionId), this.nodeId, this.driverLeaseMs)) return;
      if (Date.now() > deadline) {
        throw new AppError(ErrorCode.SESSION_BUSY, '이 세션은 다른 곳에서 진행 중입니다. 잠시 후 다시 연결해 주세요.', {
          status: 409,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
