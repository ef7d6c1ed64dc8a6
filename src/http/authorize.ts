import type { Request, Response } from 'express';
import type { TokenPayload, TokenSigner } from '../auth/index.js';
import { httpStatusOf } from '../boundary/index.js';
import { AppError } from '../kernel/index.js';
import { classNotFound, roomNotFound, type CredentialChecks, type OwnershipRepository } from '../ownership/index.js';
import type { Quiz } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { bearerToken, signedBearer } from './bearer.js';
import { optionalAccount, requireAccount, type Principal } from './principal.js';

export interface AuthorizeDeps {
  signer: TokenSigner;
  ownership: OwnershipRepository;
  checks: CredentialChecks;
  quizzes: { get(quizId: string): Promise<Quiz | null> };
  /** A room's class and quiz, live or from its results (null: no such room). */
  roomOf(roomId: string): Promise<{ classId: string; quizId?: string | undefined } | null>;
  /** The material a class uses (null: none or no such class). */
  classMaterial(classId: string): Promise<string | null>;
  /** The material a tutoring session studies (null: no such session). */
  sessionMaterial(sessionId: string): Promise<string | null>;
  /** The built-in sample's id: readable by everyone, never deleted. */
  sampleId(): Promise<string>;
  /** A room's player (null: none by that id); a kicked player is no member any more. */
  roomPlayer?(roomId: string, playerId: string): Promise<{ kicked?: boolean | undefined } | null>;
}

/** Who was let in: an account (the owner) or a signed token of the thing itself. */
export type Grant = { via: 'account'; accountId: string } | { via: 'token'; accountId: string; token: TokenPayload };

const quizNotFound = () => new AppError(ErrorCode.QUIZ_NOT_FOUND);
export const materialNotFound = () => new AppError(ErrorCode.MATERIAL_NOT_FOUND);

/** requireAccount, with `WWW-Authenticate: Bearer` on a 401 (as every bearer route answers). */
function signedIn(response: Response): Principal {
  try {
    return requireAccount(response);
  } catch (error) {
    if (error instanceof AppError && httpStatusOf(error) === 401) response.set('WWW-Authenticate', 'Bearer');
    throw error;
  }
}

/** The code the material routes (and their deletion) always answered for a material that is not there. */
const materialGone = () => new AppError(ErrorCode.NOT_FOUND, '해당 자료를 찾을 수 없습니다.');


/**
 * The one authorisation function per resource kind (ownership). Every route of classes, quizzes, rooms and
 * materials calls one of them first. Another account's thing answers 404 exactly like a missing one (no probing),
 * a signed token of the wrong kind 403, no credential 401. An account is always asked through requireAccount /
 * optionalAccount, so a cookie without its CSRF proof is refused (403 CSRF_INVALID).
 */
export class Authorizer {
  constructor(private readonly deps: AuthorizeDeps) {}

  /** The class's owner account, or that class's instructor token (checked: scope, owner, account active). */
  async authorizeClass(request: Request, response: Response, classId: string): Promise<Grant> {
    if (signedBearer(request)) {
      const token = bearerToken(this.deps.signer, request, response, ['instructor']);
      if (token.sub !== classId) throw classNotFound();
      const accountId = await this.deps.checks.classToken(token);
      return { via: 'token', accountId, token };
    }
    const principal = signedIn(response);
    if ((await this.deps.ownership.ownerOf('class', classId)) !== principal.accountId) throw classNotFound();
    return { via: 'account', accountId: principal.accountId };
  }

  /**
   * The caller of a route that works for "my things": an account, or a class instructor token (checked) that stands
   * for its class's owner within that class.
   */
  async accountOrClassToken(request: Request, response: Response): Promise<Grant & { classId?: string }> {
    if (signedBearer(request)) {
      const token = bearerToken(this.deps.signer, request, response, ['instructor']);
      const accountId = await this.deps.checks.classToken(token);
      return { via: 'token', accountId, token, classId: token.sub };
    }
    return { via: 'account', accountId: signedIn(response).accountId };
  }

  /** The quiz for its owner account, or for the instructor token of the quiz's class. */
  async authorizeQuiz(request: Request, response: Response, quizId: string): Promise<{ quiz: Quiz; grant: Grant }> {
    const grant = await this.accountOrClassToken(request, response);
    const quiz = await this.deps.quizzes.get(quizId);
    if (!quiz) throw quizNotFound();
    const owner = await this.deps.ownership.ownerOf('quiz', quizId);
    const allowed = grant.via === 'account' ? owner === grant.accountId : quiz.classId === grant.classId && owner === grant.accountId;
    if (!allowed) throw quizNotFound();
    return { quiz, grant };
  }

  /**
   * The room for its owner account, the instructor token of its class, or (with `host`, for results) the room's
   * own host token.
   */
  async authorizeRoom(request: Request, response: Response, roomId: string, options: { host?: boolean } = {}): Promise<Grant> {
    if (signedBearer(request)) {
      const token = bearerToken(this.deps.signer, request, response, options.host ? ['instructor', 'host'] : ['instructor']);
      const room = await this.deps.roomOf(roomId);
      if (token.kind === 'host') {
        if (token.sub !== roomId || !room) throw roomNotFound();
        return { via: 'token', accountId: await this.deps.checks.hostToken(token), token };
      }
      const accountId = await this.deps.checks.classToken(token);
      if (!room || room.classId !== token.sub || (await this.deps.ownership.ownerOf('room', roomId)) !== accountId) throw roomNotFound();
      return { via: 'token', accountId, token };
    }
    const principal = signedIn(response);
    if ((await this.deps.ownership.ownerOf('room', roomId)) !== principal.accountId) throw roomNotFound();
    return { via: 'account', accountId: principal.accountId };
  }

  /**
   * Someone in the room: one of its players (their player token, signed with the room as scope; not kicked), its host
   * token, or whoever authorizeRoom lets in (the owner account, its class's instructor token). Anything else 404.
   */
  async authorizeRoomMember(request: Request, response: Response, roomId: string): Promise<void> {
    if (signedBearer(request)) {
      const token = bearerToken(this.deps.signer, request, response, ['player', 'host', 'instructor']);
      if (token.kind === 'player') {
        const player = token.scope === roomId ? await this.deps.roomPlayer?.(roomId, token.sub) : null;
        if (!player) throw roomNotFound();
        if (player.kicked) throw new AppError(ErrorCode.KICKED);
        return;
      }
    }
    await this.authorizeRoom(request, response, roomId, { host: true });
  }

  /**
   * Reading a material: the built-in sample for everyone; an owner account; a student's session token whose session
   * studies it; a class instructor token whose class uses it. Anything else 404.
   */
  async authorizeMaterialRead(request: Request, response: Response, materialId: string, notFound: () => AppError = materialNotFound): Promise<void> {
    if (signedBearer(request)) {
      const token = bearerToken(this.deps.signer, request, response, ['session', 'instructor']);
      if (token.kind === 'session') {
        if ((await this.deps.sessionMaterial(token.sub)) === materialId) return;
      } else {
        await this.deps.checks.classToken(token);
        if ((await this.deps.classMaterial(token.sub)) === materialId) return;
      }
      if (materialId === (await this.deps.sampleId())) return;
      throw notFound();
    }
    const principal = optionalAccount(response);
    if (materialId === (await this.deps.sampleId())) return;
    if (principal && (await this.deps.ownership.ownsMaterial(materialId, principal.accountId))) return;
    throw notFound();
  }

  /**
   * A tutoring session outside any class: the built-in sample for everyone, and for an account a material it owns
   * ("강의 미리 보기"). Anything else 404 MATERIAL_NOT_FOUND, so an anonymous caller never starts a model call on
   * someone's upload.
   */
  async authorizeSessionMaterial(response: Response, materialId: string): Promise<void> {
    // The sample before asking who calls: a signed-in instructor trying the student page needs no CSRF proof for it.
    if (materialId === (await this.deps.sampleId())) return;
    const principal = optionalAccount(response);
    if (principal && (await this.deps.ownership.ownsMaterial(materialId, principal.accountId))) return;
    throw materialNotFound();
  }

  /** Changing or deleting a material: an owner account only. */
  async authorizeMaterialWrite(request: Request, response: Response, materialId: string): Promise<Principal> {
    if (signedBearer(request)) bearerToken(this.deps.signer, request, response, []);
    const principal = signedIn(response);
    if (!(await this.deps.ownership.ownsMaterial(materialId, principal.accountId))) throw materialGone();
    return principal;
  }
}
