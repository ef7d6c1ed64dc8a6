import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { classLifecycle } from '../classroom/index.js';
import { lectureLifecycle } from '../lecture/index.js';
import type { Store } from '../store/index.js';
import { ClassDeletion, type SessionDrivers } from './class-deletion.js';
import { ClassExporter } from './class-export.js';
import { MaterialDeletion, type MaterialParts, type RetrievalParts } from './material-deletion.js';
import { QuizDeletion, type QuizImageParts } from './quiz-deletion.js';
import type { QuotaReleases } from './quota-releases.js';
import { RetentionPurge } from './retention-purge.js';
import type { CourseParts, ExamParts } from './owner-parts.js';
import { RoomDeletion } from './room-deletion.js';
import { safeJson } from './safe-json.js';

const SessionProfile = z.object({ materialId: z.string(), classId: z.string().optional(), billTo: z.string().optional() });

export interface DataLifecycleOptions {
  store: Store;
  materials: MaterialParts;
  retrieval: RetrievalParts;
  sessions: SessionDrivers;
  logger: Logger;
  nodeId: string;
  retentionDays: number;
  now?: () => number;
  /** told what was deleted, so what an account or class holds counts back down (src/quota/ satisfies it). */
  quotas?: QuotaReleases;
  /** Live exams (src/exams/ satisfies it): deleted with their class and with their material. */
  exams?: ExamParts;
  /** Uploaded quiz pictures (src/quiz/ satisfies it): a picture goes with the last quiz that shows it. */
  images?: QuizImageParts;
  /** Every account's id (src/auth/ lists them): the purge finds pictures uploaded before its queue in their lists. */
  accountIds?: () => AsyncIterable<string>;
  /** What an LMS course keeps of its class (src/lti/ satisfies it): deleted with the class. */
  courses?: CourseParts;
}

/** Deletion, retention and export of what the store holds, put together once (app.ts). */
export class DataLifecycle {
  readonly rooms: RoomDeletion;
  readonly quizzes: QuizDeletion;
  readonly classes: ClassDeletion;
  readonly materials: MaterialDeletion;
  readonly exporter: ClassExporter;
  readonly purge: RetentionPurge;

  constructor(private readonly options: DataLifecycleOptions) {
    const { store, logger } = options;
    this.rooms = new RoomDeletion(store);
    this.quizzes = new QuizDeletion(store, options.quotas, options.images);
    this.classes = new ClassDeletion(store, this.quizzes, this.rooms, options.sessions, options.quotas, options.exams, options.courses, options.images);
    this.materials = new MaterialDeletion(store, options.materials, options.retrieval, options.quotas, options.exams);
    this.exporter = new ClassExporter(store, logger, options.courses);
    this.purge = new RetentionPurge({
      store,
      rooms: this.rooms,
      images: options.images,
      accountIds: options.accountIds,
      retentionMs: options.retentionDays * 24 * 60 * 60_000,
      nodeId: options.nodeId,
      logger,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** The material a class uses; null when it uses none or there is no such class (the material deletion guard). */
  async classMaterial(classId: string): Promise<string | null> {
    return classLifecycle.material(this.options.store, classId);
  }
  /** The material a tutoring session studies; null when there is no such session (authorizeMaterialRead). */
  /** A tutoring session's material, class and paying account (the self-study API's student scope); null: no such session. */
  async sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null> {
    const raw = await lectureLifecycle.profile(this.options.store, sessionId);
    if (raw === null) return null;
    const parsed = SessionProfile.safeParse(safeJson(raw));
    return parsed.success ? parsed.data : null;
  }
  async sessionMaterial(sessionId: string): Promise<string | null> {
    const raw = await lectureLifecycle.profile(this.options.store, sessionId);
    if (raw === null) return null;
    const parsed = SessionProfile.safeParse(safeJson(raw));
    return parsed.success ? parsed.data.materialId : null;
  }

}
