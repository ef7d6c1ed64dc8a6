import { z } from 'zod';
import { AppError, isAppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Store } from '../store/index.js';
import { CourseClasses, courseOf, userHash } from './course-classes.js';
import { CourseRepository, type GradeState } from './course-repository.js';
import { DeepLinking } from './deep-linking.js';
import { registerDynamically, REGISTRATION_CODE_TTL_MS, RegistrationOptions } from './dynamic-registration.js';
import { GradePassback, type StudentScore } from './grade-passback.js';
import { LaunchValidator, type LoginParams, type VerifiedLaunch } from './launch-validator.js';
import { CLAIM, displayName, teaches } from './lti-claims.js';
import type { LtiPorts, MaterialOutline } from './lti-ports.js';
import { OneTimeRecords } from './one-time-records.js';
import { PlatformClient } from './platform-client.js';
import { PlatformKeySets, type KeySetOptions } from './platform-key-sets.js';
import { frameOriginsOf, type PlatformInput, type PlatformRecord } from './platform-record.js';
import { PlatformRepository, type LinkRecord } from './platform-repository.js';
import { ToolKeys } from './tool-keys.js';
import { ltiKeys } from './lti-keys.js';

/**
 * The LTI 1.3 tool: registrations, the launch and where it lands, Deep Linking, the course roster and grade
 * passback, put together over the store and the ports of the rest of lectern (see index.ts for the whole picture).
 */

/** Where a verified launch takes the browser (the HTTP side renders it as the landing page). */
export type Landing =
  | { kind: 'classroom'; session: { sessionId: string; token: string; nickname: string; classId: string; material: MaterialOutline }; examId?: string }
  | { kind: 'play'; room: { roomId: string; code: string; playerId: string; playerToken: string; nickname: string } }
  | { kind: 'quiz-wait'; ticket: string; title: string }
  | { kind: 'instructor'; accountId: string; path: string; signIn: string }
  | { kind: 'picker'; accountId: string; picker: string };

const QuizTicket = z.object({ quizId: z.string(), title: z.string(), name: z.string() });
const SignIn = z.object({ accountId: z.string(), path: z.string() });
const SIGN_IN_TTL_MS = 5 * 60_000;
const QUIZ_TICKET_TTL_MS = 2 * 60 * 60_000;

export interface LtiServiceOptions {
  store: Store;
  ports: LtiPorts;
  logger: Logger;
  nodeId: string;
  now?: () => number;
  fetch?: typeof fetch;
  keySets?: KeySetOptions;
  /** The current result of a student's exam for the gradebook (app.ts computes it from the exams). */
  scoreOf(examId: string, sessionId: string): Promise<StudentScore | null>;
  grades: { retryMs: number; maxAttempts: number; sweepMs: number };
}

const linkInvalid = (message: string) => new AppError(ErrorCode.LTI_LINK_INVALID, message);

export class LtiService {
  readonly platforms: PlatformRepository;
  readonly courses: CourseRepository;
  readonly toolKeys: ToolKeys;
  readonly client: PlatformClient;
  readonly validator: LaunchValidator;
  readonly classes: CourseClasses;
  readonly deepLinking: DeepLinking;
  readonly grades: GradePassback;
  private readonly codes: OneTimeRecords<RegistrationOptions>;
  private readonly tickets: OneTimeRecords<z.infer<typeof QuizTicket>>;
  private readonly signIns: OneTimeRecords<z.infer<typeof SignIn>>;
  private readonly now: () => number;
  private framing: { origins: string[]; at: number } | undefined;

  constructor(private readonly options: LtiServiceOptions) {
    const { store, logger, ports } = options;
    this.now = options.now ?? Date.now;
    this.platforms = new PlatformRepository(store, logger);
    this.courses = new CourseRepository(store, logger);
    this.toolKeys = new ToolKeys(store, logger, this.now);
    this.client = new PlatformClient({ store, toolKeys: this.toolKeys, logger, ...(options.fetch ? { fetch: options.fetch } : {}) });
    this.validator = new LaunchValidator({ store, platforms: this.platforms, keySets: new PlatformKeySets(options.keySets), now: this.now, logger });
    this.classes = new CourseClasses({ store, platforms: this.platforms, courses: this.courses, client: this.client, ports, now: this.now, logger });
    this.deepLinking = new DeepLinking({ store, platforms: this.platforms, classes: this.classes, ports, toolKeys: this.toolKeys, now: this.now, logger });
    this.grades = new GradePassback({
      store,
      courses: this.courses,
      platforms: this.platforms,
      client: this.client,
      scoreOf: options.scoreOf,
      nodeId: options.nodeId,
      now: this.now,
      ...options.grades,
      logger,
    });
    this.codes = new OneTimeRecords(store, ltiKeys.ltiRegistrationCode, RegistrationOptions, REGISTRATION_CODE_TTL_MS, logger);
    this.tickets = new OneTimeRecords(store, ltiKeys.ltiQuizTicket, QuizTicket, QUIZ_TICKET_TTL_MS, logger);
    this.signIns = new OneTimeRecords(store, ltiKeys.ltiSignIn, SignIn, SIGN_IN_TTL_MS, logger);
  }

  start(): void {
    this.grades.start();
  }

  async stop(): Promise<void> {
    await this.grades.stop();
  }

  // ---- registrations (the admin's) ---------------------------------------------------------------------------------

  async register(input: PlatformInput, adminId: string, via: 'manual' | 'dynamic' = 'manual'): Promise<PlatformRecord> {
    const created = await this.platforms.create(input, { createdAt: this.now(), createdBy: adminId, via });
    if (!created) throw new AppError(ErrorCode.LTI_PLATFORM_EXISTS, `이미 등록된 LMS입니다 (issuer ${input.issuer}, client ID ${input.clientId}).`);
    this.framing = undefined;
    return created;
  }

  /** Changes a registration; its issuer and client id (how launches find it) stay. */
  async update(platformId: string, input: PlatformInput): Promise<PlatformRecord> {
    const current = await this.platforms.get(platformId);
    if (!current) throw platformNotFound();
    const next: PlatformRecord = { ...current, ...input, issuer: current.issuer, clientId: current.clientId };
    await this.platforms.update(next);
    this.framing = undefined;
    return next;
  }

  async remove(platformId: string): Promise<void> {
    if (!(await this.platforms.delete(platformId))) throw platformNotFound();
    this.framing = undefined;
  }

  /** A one-use code for a dynamic registration URL, valid 7 days. */
  async registrationCode(adminId: string, choice: { createInstructors: boolean; trustEmails: boolean }): Promise<{ code: string; expiresAt: number }> {
    const createdAt = this.now();
    const code = await this.codes.put({ createdBy: adminId, createdAt, ...choice });
    return { code, expiresAt: createdAt + REGISTRATION_CODE_TTL_MS };
  }

  /** Dynamic registration with an admin's code: the code is used only when the platform took lectern's registration. */
  async registerWithCode(code: string, request: { openidConfiguration: string; registrationToken: string | undefined }, toolBase: string): Promise<PlatformRecord> {
    const options = await this.codes.peek(code);
    if (!options) throw new AppError(ErrorCode.LTI_REGISTRATION_INVALID, '등록 주소의 코드가 올바르지 않거나 만료되었거나 이미 사용되었습니다. lectern 계정 페이지에서 새 등록 주소를 만들어 주세요.');
    const input = await registerDynamically(request, options, { base: toolBase }, { fetch: this.options.fetch ?? fetch, logger: this.options.logger });
    const created = await this.register(input, options.createdBy, 'dynamic');
    if (!(await this.codes.take(code))) {
      await this.platforms.delete(created.platformId);
      throw new AppError(ErrorCode.LTI_REGISTRATION_INVALID, '이 등록 주소는 방금 다른 등록에 사용되었습니다.');
    }
    return created;
  }

  /** Origins that may frame lectern's pages (CSP frame-ancestors): every registered platform's, cached 5 seconds. */
  async frameOrigins(): Promise<string[]> {
    if (this.framing && this.now() - this.framing.at < 5_000) return this.framing.origins;
    const origins = [...new Set((await this.platforms.list()).flatMap(frameOriginsOf))];
    this.framing = { origins, at: this.now() };
    return origins;
  }

  // ---- the launch --------------------------------------------------------------------------------------------------

  beginLogin(params: LoginParams, toolBase: string) {
    return this.validator.beginLogin(params, toolBase);
  }

  /** Verifies the launch and decides where it lands (see {@link Landing}). */
  async launch(form: { idToken: string | undefined; state: string | undefined }, browserState: string | undefined): Promise<Landing> {
    const launch = await this.validator.verify(form, browserState);
    const { payload } = launch;
    if (payload[CLAIM.messageType] === 'LtiDeepLinkingRequest') return this.deepLinkingLanding(launch);
    const teacher = teaches(payload[CLAIM.roles]);
    const linkId = payload[CLAIM.custom]?.lectern_link;
    const link = typeof linkId === 'string' && linkId.length > 0 ? await this.platforms.link(linkId) : null;
    if (typeof linkId === 'string' && (!link || link.platformId !== launch.platform.platformId)) {
      throw linkInvalid('이 링크가 가리키는 lectern 자료를 찾을 수 없습니다. 선생님께 링크를 다시 넣어 달라고 말씀해 주세요.');
    }
    if (teacher) return this.instructorLanding(launch, link);
    if (!link) throw linkInvalid('이 링크에는 lectern의 강의, 퀴즈 또는 시험이 연결되어 있지 않습니다. 선생님께 링크를 다시 넣어 달라고 말씀해 주세요.');
    return this.studentLanding(launch, link);
  }

  /** A student waiting for a quiz room: the room to play once one is open, else `waiting`. */
  async quizTicket(ticket: string): Promise<Landing | { kind: 'waiting'; title: string }> {
    const waiting = await this.tickets.peek(ticket);
    if (!waiting) throw linkInvalid('퀴즈 대기 시간이 지났습니다. LMS에서 다시 열어 주세요.');
    const room = await this.options.ports.openRoom(waiting.quizId);
    if (!room) return { kind: 'waiting', title: waiting.title };
    if (!(await this.tickets.take(ticket))) throw linkInvalid('이 퀴즈 대기는 이미 끝났습니다. LMS에서 다시 열어 주세요.');
    const joined = await this.options.ports.joinRoom(room.code, waiting.name);
    return { kind: 'play', room: { ...joined, code: room.code } };
  }

  /**
   * A teacher's launch in a browser that keeps no cookie in the LMS's frame: the landing page offers a new window that
   * signs in with this one-use code (5 minutes) and opens the same page. Answers the account and where to go.
   */
  takeSignIn(code: string): Promise<{ accountId: string; path: string } | null> {
    return this.signIns.take(code);
  }

  private async instructorAt(accountId: string, path: string): Promise<Landing> {
    return { kind: 'instructor', accountId, path, signIn: await this.signIns.put({ accountId, path }) };
  }

  private async deepLinkingLanding({ platform, payload }: VerifiedLaunch): Promise<Landing> {
    if (!teaches(payload[CLAIM.roles])) throw new AppError(ErrorCode.FORBIDDEN, '강좌에 lectern 자료를 넣는 일은 선생님만 할 수 있습니다.');
    const settings = payload[CLAIM.deepLinkingSettings];
    if (!settings) throw new AppError(ErrorCode.LTI_MESSAGE_INVALID, '딥 링크 요청에 deep_linking_settings 값이 없습니다.');
    if (!settings.accept_types.includes('ltiResourceLink')) {
      throw new AppError(ErrorCode.LTI_MESSAGE_INVALID, '이 LMS 요청은 lectern이 넣을 수 있는 링크(ltiResourceLink)를 받지 않습니다.');
    }
    const accountId = await this.instructor(platform, payload);
    const picker = await this.deepLinking.open({
      platformId: platform.platformId,
      deploymentId: payload[CLAIM.deploymentId],
      accountId,
      returnUrl: settings.deep_link_return_url,
      ...(settings.data === undefined ? {} : { data: settings.data }),
      acceptMultiple: settings.accept_multiple ?? true,
      course: courseOf(payload),
    });
    return { kind: 'picker', accountId, picker };
  }

  private async instructorLanding({ platform, payload }: VerifiedLaunch, link: LinkRecord | null): Promise<Landing> {
    const accountId = await this.instructor(platform, payload);
    if (!link || link.accountId !== accountId) return this.instructorAt(accountId, '/dashboard.html');
    if (link.kind === 'quiz') {
      const quiz = await this.options.ports.quiz(link.resourceId);
      return this.instructorAt(accountId, quiz ? `/host.html?quiz=${encodeURIComponent(quiz.quizId)}&class=${encodeURIComponent(quiz.classId)}` : '/dashboard.html');
    }
    const course = await this.courseFor(platform, payload, link);
    // The roster is read in the background: the teacher's page opens at once, the students appear as it arrives.
    void this.classes.syncRoster(course.classId).catch((error: unknown) => this.options.logger.warn({ err: error, classId: course.classId }, 'lti roster read failed'));
    const path = link.kind === 'exam' ? `/host.html?exam=${encodeURIComponent(link.resourceId)}` : `/monitor.html?class=${encodeURIComponent(course.classId)}`;
    return this.instructorAt(accountId, path);
  }

  private async studentLanding({ platform, payload }: VerifiedLaunch, link: LinkRecord): Promise<Landing> {
    const name = displayName(payload) ?? `학생 ${payload.sub.slice(-4)}`;
    if (link.kind === 'quiz') {
      const quiz = await this.options.ports.quiz(link.resourceId);
      if (!quiz) throw linkInvalid('이 링크의 퀴즈가 삭제되었습니다. 선생님께 말씀해 주세요.');
      const room = await this.options.ports.openRoom(quiz.quizId);
      if (!room) return { kind: 'quiz-wait', ticket: await this.tickets.put({ quizId: quiz.quizId, title: quiz.title, name }), title: quiz.title };
      const joined = await this.options.ports.joinRoom(room.code, name);
      return { kind: 'play', room: { ...joined, code: room.code } };
    }
    const course = await this.courseFor(platform, payload, link);
    const material = await this.options.ports.material(course.materialId);
    if (!material) throw linkInvalid('이 링크의 강의 자료가 삭제되었습니다. 선생님께 말씀해 주세요.');
    if (link.kind === 'exam') {
      const exam = await this.options.ports.exam(link.resourceId);
      if (!exam?.publication || exam.publication.classId !== course.classId) throw linkInvalid('이 링크의 시험을 찾을 수 없거나 이 강좌에 게시되지 않았습니다. 선생님께 말씀해 주세요.');
    }
    const seat = await this.classes.student(platform, course, payload);
    return {
      kind: 'classroom',
      session: { ...seat, classId: course.classId, material },
      ...(link.kind === 'exam' ? { examId: link.resourceId } : {}),
    };
  }

  /** The course class of a lecture or exam link (made when missing), with the launch's service URLs noted. */
  private async courseFor(platform: PlatformRecord, payload: VerifiedLaunch['payload'], link: LinkRecord) {
    if (link.materialId === null) throw linkInvalid('이 링크에는 강의 자료가 없습니다.');
    const material = await this.options.ports.material(link.materialId);
    if (!material) throw linkInvalid('이 링크의 강의 자료가 삭제되었습니다. 선생님께 말씀해 주세요.');
    const course = await this.classes.ensure(platform, courseOf(payload), link.accountId, material);
    return this.classes.noteServices(course, payload);
  }

  /** The lectern account of a teaching LMS user (created on the first launch when the registration allows it). */
  private async instructor(platform: PlatformRecord, payload: VerifiedLaunch['payload']): Promise<string> {
    const given = payload.email?.trim().toLowerCase();
    const email = given && /^[^\s@]+@[^\s@]+$/.test(given) ? given : `lti-${userHash(platform, payload.sub).slice(0, 16)}@lti.invalid`;
    try {
      return await this.options.ports.instructorAccount(
        { issuer: `lti:${platform.issuer}`, subject: payload.sub, email, emailVerified: platform.trustEmails && email === given, name: displayName(payload) ?? undefined },
        platform.createInstructors,
      );
    } catch (error) {
      if (isAppError(error) && error.code === ErrorCode.EMAIL_TAKEN) {
        throw new AppError(
          ErrorCode.LTI_INSTRUCTOR_UNKNOWN,
          `lectern에 같은 이메일(${email})의 계정이 이미 있습니다. 관리자가 이 LMS 등록에서 "LMS 이메일로 기존 계정 연결"을 켜면 그 계정으로 들어옵니다.`,
        );
      }
      if (isAppError(error) && error.code === ErrorCode.SIGNUP_CLOSED) {
        throw new AppError(ErrorCode.LTI_INSTRUCTOR_UNKNOWN, '이 LMS 계정과 연결된 lectern 강사 계정이 없고, 이 LMS 등록은 강사 계정을 새로 만들지 않습니다. lectern 관리자에게 문의해 주세요.');
      }
      throw error;
    }
  }

  // ---- grades and classes ------------------------------------------------------------------------------------------

  /** The passback states of an exam in its class, or null when the class is not an LMS course's. */
  async gradeStatus(classId: string, examId: string): Promise<{ course: string; states: Map<string, GradeState> } | null> {
    const course = await this.courses.course(classId);
    if (!course) return null;
    return { course: course.contextTitle, states: await this.courses.gradeStates(classId, examId) };
  }

  /** Data lifecycle: everything LTI kept for a class that is being deleted. */
  async deleteForClass(classId: string): Promise<void> {
    await this.courses.deleteForClass(classId, (course) => this.platforms.forgetCourseClass(course.platformId, course.courseKey, classId));
  }

}

const platformNotFound = () => new AppError(ErrorCode.NOT_FOUND, '등록된 LMS를 찾을 수 없습니다.');
