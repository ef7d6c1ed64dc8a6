import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '../kernel/index.js';
import {
  JOIN_CODE_ALPHABET,
  TRANSCRIPT_PAGE_DEFAULT,
  type ClassInfo,
  type CreateClassBody,
  type JoinClassBody,
  type TranscriptPage,
} from '../protocol/classroom.js';
import type { ClassSummary, RosterChoices } from '../protocol/wire/classroom.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { PageRequest } from '../protocol/page.js';
import type { ClassMonitor } from './class-monitor.js';
import { foldNickname, type ClassRepository } from './class-repository.js';
import type { TokenSigner } from '../auth/index.js';

/**
 * A class instructor token lasts a school day: signing in (or `GET /api/classes/:id` with the account) issues a fresh
 * one, and a leaked one only ever opens its own class, and only while its account is active.
 */
export const INSTRUCTOR_TOKEN_TTL_MS = 12 * 60 * 60_000;
const CODE_LENGTH = 6;
/** 25^6 ≈ 2.4e8 codes: a collision is rare, several in a row mean something is wrong. */
const CODE_ATTEMPTS = 20;

export interface ClassServiceOptions {
  repository: ClassRepository;
  monitor: ClassMonitor;
  signer: TokenSigner;
  /** Creates the student's tutoring session (LectureService satisfies it). */
  sessions: {
    createSession(input: { materialId: string; nickname: string; classId?: string; billTo?: string | undefined }): Promise<{ sessionId: string; token: string }>;
    /** Leaves the instructor's reply for the session's driver, which numbers and sends it (see LectureService). */
    sendInstructorReply(sessionId: string, reply: { text: string; sentAt: number }): Promise<void>;
    transcriptPage(sessionId: string, cursor: string | undefined, limit: number): Promise<{ items: TranscriptItem[]; nextCursor: string | null }>;
  };
  /** Checks a class's material exists when the class is created (MaterialService satisfies it). */
  materials: { get(id: string): Promise<object | null> };
  /**
   * Who owns a class (OwnershipRepository satisfies it): a student's session bills its model calls to the class's
   * instructor, whose MODEL_DAILY_TOKENS budget it spends. Without it (or for a class nobody owns) nobody is billed.
   */
  owners?: { ownerOf(kind: 'class', id: string): Promise<string | null> };
  now?: () => number;
}

export interface CreatedClass {
  classId: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  instructorToken: string;
}


export interface JoinedClass {
  sessionId: string;
  token: string;
  classId: string;
  materialId: string;
}

const classClosed = () =>
  new AppError(ErrorCode.CLASS_CLOSED);
/** One answer for "not in your class" and "no such session", so an instructor cannot probe other classes. */
const notYourStudent = () => new AppError(ErrorCode.FORBIDDEN, '이 수업의 학생이 아닙니다.');

const notOnRoster = () => new AppError(ErrorCode.NOT_ON_ROSTER);
const classNotFound = () => new AppError(ErrorCode.CLASS_NOT_FOUND);

export function newJoinCode(): string {
  let code = '';
  for (let index = 0; index < CODE_LENGTH; index += 1) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

/** Classes: creation with a unique join code and an instructor token, students joining by code, the roster. */
export class ClassService {
  private readonly now: () => number;

  constructor(private readonly options: ClassServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A new class of the account `ownerId` (the caller records the ownership and has checked the account may use the
   * material). The instructor token's scope is the owner: every use checks that account still owns the class.
   */
  async create(body: CreateClassBody, ownerId: string): Promise<CreatedClass> {
    const { repository, materials } = this.options;
    if (body.materialId !== undefined && !(await materials.get(body.materialId))) {
      throw new AppError(ErrorCode.MATERIAL_NOT_FOUND);
    }
    const classId = randomUUID();
    const code = await this.reserveNewCode(classId);
    const createdAt = this.now();
    // The names first, so a roster class never admits anyone before its list exists.
    if (body.roster) await repository.setRosterNames(classId, body.roster);
    await repository.createClass({
      id: classId,
      name: body.name,
      code,
      materialId: body.materialId ?? null,
      createdAt,
      rosterRequired: body.roster !== undefined,
    });
    return { classId, name: body.name, code, materialId: body.materialId ?? null, createdAt, instructorToken: this.instructorToken(classId, ownerId) };
  }

  /** A fresh instructor token of the class for its owner account. */
  instructorToken(classId: string, ownerId: string): string {
    return this.options.signer.sign({ kind: 'instructor', sub: classId, scope: ownerId }, INSTRUCTOR_TOKEN_TTL_MS);
  }

  /** List entries of classes ("내 수업"), in the order asked; classes that no longer exist are skipped. */
  async summaries(classIds: readonly string[]): Promise<ClassSummary[]> {
    const { repository } = this.options;
    const found: ClassSummary[] = [];
    for (const classId of classIds) {
      const record = await repository.getClass(classId);
      if (!record) continue;
      const { name, code, materialId, createdAt } = record;
      found.push({ classId, name, code, materialId, createdAt, closed: record.closedAt !== undefined, studentCount: await repository.studentCount(classId) });
    }
    return found;
  }

  /**
   * A student joins with the class code: the class's material (or, for a class without one, the student's
   * choice), a nickname unique in the class ignoring case and width, and a session token bound to the class.
   */
  async join(code: string, body: JoinClassBody): Promise<JoinedClass> {
    const { repository, sessions, monitor } = this.options;
    const found = await repository.findByCode(code);
    if (!found) throw classNotFound();
    if (found.closedAt !== undefined) throw classClosed();
    // A roster class admits only its names, each spelled as the instructor wrote it.
    const nickname = found.rosterRequired ? await this.rosterName(found.id, body.nickname) : body.nickname;
    body = { ...body, nickname };
    const materialId = found.materialId ?? body.materialId;
    if (materialId === undefined) {
      throw new AppError(ErrorCode.MATERIAL_REQUIRED, '이 수업에는 정해진 강의 자료가 없습니다. materialId를 보내 주세요.');
    }
    // Reserve first, so two students racing for one nickname cannot both get it.
    const reservation = `pending:${randomUUID()}`;
    if (!(await repository.reserveNickname(found.id, body.nickname, reservation))) {
      const message = found.rosterRequired
        ? '이 이름으로 이미 다른 기기에서 참여했습니다. 처음 참여한 기기에서 계속하거나 선생님께 이름을 풀어 달라고 말씀해 주세요.'
        : '이 수업에서 이미 쓰이는 닉네임입니다. 다른 닉네임을 골라 주세요.';
      throw new AppError(ErrorCode.NICKNAME_TAKEN, message);
    }
    let created: { sessionId: string; token: string };
    try {
      const billTo = (await this.options.owners?.ownerOf('class', found.id)) ?? undefined;
      created = await sessions.createSession({ materialId, nickname: body.nickname, classId: found.id, billTo });
    } catch (error) {
      await repository.releaseNickname(found.id, body.nickname).catch(() => undefined);
      throw error;
    }
    await repository.addStudent(found.id, { sessionId: created.sessionId, nickname: body.nickname, joinedAt: this.now() });
    await monitor.studentJoined(found.id, created.sessionId);
    return { ...created, classId: found.id, materialId };
  }

  /**
   * The class and its roster, for its instructor (the caller has checked the token): the whole roster, or with
   * `page` one page of it and the cursor of the next.
   */
  async info(classId: string, page?: PageRequest): Promise<ClassInfo> {
    const { repository } = this.options;
    const found = await repository.getClass(classId);
    if (!found) throw classNotFound();
    const base = {
      classId,
      name: found.name,
      code: found.code,
      materialId: found.materialId,
      createdAt: found.createdAt,
      closedAt: found.closedAt ?? null,
    };
    if (!page) return { ...base, students: await repository.roster(classId) };
    const { items, nextCursor } = await repository.rosterPage(classId, page);
    return { ...base, students: items, nextCursor };
  }

  /**
   * Ends the class: its join code admits no one from now on (410 CLASS_CLOSED), connected students get
   * `class:closed`, every instructor tab sees it. Students already in the class keep their sessions (their review
   * and the instructor's transcripts stay). Closing again is harmless and answers the first close's time.
   */
  async close(classId: string): Promise<{ closedAt: number }> {
    const { repository, monitor } = this.options;
    if (!(await repository.getClass(classId))) throw classNotFound();
    const closedAt = await repository.close(classId, this.now());
    monitor.classClosed(classId, closedAt);
    return { closedAt };
  }

  /** The roster's spelling of `nickname`, or 400 NOT_ON_ROSTER. */
  private async rosterName(classId: string, nickname: string): Promise<string> {
    const name = (await this.options.repository.rosterNames(classId)).get(foldNickname(nickname));
    if (name === undefined) throw notOnRoster();
    return name;
  }

  /**
   * What a student sees after typing a class code: the class's name and, for a roster class, its names with the ones
   * already taken marked (a taken name belongs to the device that joined with it).
   */
  async rosterChoices(code: string): Promise<RosterChoices> {
    const { repository } = this.options;
    const found = await repository.findByCode(code);
    if (!found) throw classNotFound();
    if (found.closedAt !== undefined) throw classClosed();
    if (!found.rosterRequired) return { className: found.name, names: null };
    const names = [...(await repository.rosterNames(found.id)).values()];
    const taken = await repository.namesTaken(found.id, names);
    return { className: found.name, names: names.map((name, index) => ({ name, taken: taken[index] ?? false })) };
  }

  /** Replaces a class's roster (a class without one becomes a roster class); students already in keep their names. */
  async setRoster(classId: string, names: readonly string[]): Promise<{ names: string[] }> {
    const { repository } = this.options;
    if (!(await repository.getClass(classId))) throw classNotFound();
    await repository.setRosterNames(classId, names);
    return { names: [...names] };
  }

  /**
   * Frees a roster name its student can no longer use (a lost or changed device): the student joins again under it
   * as a new session; the old session stays in the roster for the record.
   */
  async releaseRosterName(classId: string, name: string): Promise<{ released: boolean }> {
    const { repository } = this.options;
    const found = await repository.getClass(classId);
    if (!found) throw classNotFound();
    const written = (await repository.rosterNames(classId)).get(foldNickname(name));
    if (!found.rosterRequired || written === undefined) throw notOnRoster();
    const [taken] = await repository.namesTaken(classId, [written]);
    if (taken) await repository.releaseNickname(classId, written);
    return { released: taken === true };
  }

  /** A new join code, reserved uniquely like at creation; the old one stops working at once. Not for a closed class. */
  async rotateCode(classId: string): Promise<{ code: string }> {
    const { repository, monitor } = this.options;
    const found = await repository.getClass(classId);
    if (!found) throw classNotFound();
    if (found.closedAt !== undefined) throw classClosed();
    const code = await this.reserveNewCode(classId);
    await repository.replaceCode(classId, found.code, code);
    monitor.codeRotated(classId, code);
    return { code };
  }

  /** A page of a student's transcript, for an instructor of the student's class only. */
  async transcript(classId: string, request: { sessionId: string; cursor?: string | undefined; limit?: number | undefined }): Promise<TranscriptPage> {
    const { repository, sessions } = this.options;
    const student = await repository.student(classId, request.sessionId);
    if (!student) throw notYourStudent();
    const page = await sessions.transcriptPage(request.sessionId, request.cursor, request.limit ?? TRANSCRIPT_PAGE_DEFAULT);
    return { sessionId: request.sessionId, nickname: student.nickname, ...page };
  }

  /**
   * The instructor answers a raised hand directly. The reply joins the student's raise-hand dialogue as a numbered
   * session event (kept in the log and transcript, so a reconnect or reload shows it); the dialogue's own state does
   * not change. The hand is marked answered for every instructor tab.
   */
  async replyToHand(classId: string, sessionId: string, text: string): Promise<{ at: number }> {
    const { repository, sessions, monitor } = this.options;
    const entry = await repository.student(classId, sessionId);
    if (!entry) throw notYourStudent();
    if (!entry.hand) throw new AppError(ErrorCode.HAND_NOT_RAISED, '이 학생은 손을 들고 있지 않습니다.');
    const at = this.now();
    await sessions.sendInstructorReply(sessionId, { text, sentAt: at });
    await repository.update(classId, sessionId, { handAnswered: true });
    monitor.handAnswered(classId, sessionId, text, at);
    return { at };
  }

  private async reserveNewCode(classId: string): Promise<string> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const candidate = newJoinCode();
      if (await this.options.repository.reserveCode(candidate, classId)) return candidate;
    }
    throw new Error('no free join code after several attempts');
  }
}
