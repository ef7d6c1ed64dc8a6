import { randomInt, randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import { JOIN_CODE_ALPHABET, type ClassInfo, type CreateClassBody, type JoinClassBody } from '../protocol/classroom.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { PageRequest } from '../protocol/page.js';
import type { ClassMonitor } from './class-monitor.js';
import type { ClassRepository } from './class-repository.js';
import type { TokenSigner } from '../auth/index.js';

/** Instructors keep one token for a whole course week; a leaked one only ever opens its own class. */
export const INSTRUCTOR_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
const CODE_LENGTH = 6;
/** 25^6 ≈ 2.4e8 codes: a collision is rare, several in a row mean something is wrong. */
const CODE_ATTEMPTS = 20;

export interface ClassServiceOptions {
  repository: ClassRepository;
  monitor: ClassMonitor;
  signer: TokenSigner;
  /** Creates the student's tutoring session (LectureService satisfies it). */
  sessions: {
    createSession(input: { materialId: string; nickname: string; classId?: string }): Promise<{ sessionId: string; token: string }>;
  };
  /** Checks a class's material exists when the class is created (MaterialService satisfies it). */
  materials: { get(id: string): Promise<object | null> };
  now?: () => number;
}

export interface JoinedClass {
  sessionId: string;
  token: string;
  classId: string;
  materialId: string;
}

const classNotFound = () => new AppError(ErrorCode.CLASS_NOT_FOUND, '수업을 찾을 수 없습니다. 참여 코드를 확인해 주세요.', { status: 404 });

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

  async create(body: CreateClassBody): Promise<{ classId: string; code: string; instructorToken: string }> {
    const { repository, materials, signer } = this.options;
    if (body.materialId !== undefined && !(await materials.get(body.materialId))) {
      throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료를 찾을 수 없습니다.', { status: 404 });
    }
    const classId = randomUUID();
    let code: string | undefined;
    for (let attempt = 0; attempt < CODE_ATTEMPTS && code === undefined; attempt += 1) {
      const candidate = newJoinCode();
      if (await repository.reserveCode(candidate, classId)) code = candidate;
    }
    if (code === undefined) throw new Error('no free join code after several attempts');
    await repository.createClass({ id: classId, name: body.name, code, materialId: body.materialId ?? null, createdAt: this.now() });
    const instructorToken = signer.sign({ kind: 'instructor', sub: classId }, INSTRUCTOR_TOKEN_TTL_MS);
    return { classId, code, instructorToken };
  }

  /**
   * A student joins with the class code: the class's material (or, for a class without one, the student's
   * choice), a nickname unique in the class ignoring case and width, and a session token bound to the class.
   */
  async join(code: string, body: JoinClassBody): Promise<JoinedClass> {
    const { repository, sessions, monitor } = this.options;
    const found = await repository.findByCode(code);
    if (!found) throw classNotFound();
    const materialId = found.materialId ?? body.materialId;
    if (materialId === undefined) {
      throw new AppError(ErrorCode.MATERIAL_REQUIRED, '이 수업에는 정해진 강의 자료가 없습니다. materialId를 보내 주세요.', {
        status: 400,
      });
    }
    // Reserve first, so two students racing for one nickname cannot both get it.
    const reservation = `pending:${randomUUID()}`;
    if (!(await repository.reserveNickname(found.id, body.nickname, reservation))) {
      throw new AppError(ErrorCode.NICKNAME_TAKEN, '이 수업에서 이미 쓰이는 닉네임입니다. 다른 닉네임을 골라 주세요.', {
        status: 409,
      });
    }
    let created: { sessionId: string; token: string };
    try {
      created = await sessions.createSession({ materialId, nickname: body.nickname, classId: found.id });
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
    const base = { classId, name: found.name, code: found.code, materialId: found.materialId, createdAt: found.createdAt };
    if (!page) return { ...base, students: await repository.roster(classId) };
    const { items, nextCursor } = await repository.rosterPage(classId, page);
    return { ...base, students: items, nextCursor };
  }
}
