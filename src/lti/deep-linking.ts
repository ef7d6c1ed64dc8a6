import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Store } from '../store/index.js';
import type { CourseClasses } from './course-classes.js';
import { CLAIM } from './lti-claims.js';
import type { ExamSummary, LtiPorts, MaterialOutline, QuizSummary } from './lti-ports.js';
import { OneTimeRecords } from './one-time-records.js';
import { courseKey, type LinkRecord, type PlatformRepository } from './platform-repository.js';
import type { ToolKeys } from './tool-keys.js';
import { ltiKeys } from './lti-keys.js';

/**
 * Deep Linking 2.0: a teacher, in the LMS, picks what of theirs becomes a link in the course — a material's lecture,
 * a quiz (its live room) or an exam — on lectern's picker page, and lectern posts back a signed
 * `LtiDeepLinkingResponse` whose content items are resource links to `/lti/launch` with a `lectern_link` custom
 * parameter naming a link record. An exam's item carries a line item, so the LMS makes its gradebook column bound
 * to the link. The request lives an hour (`lti:deep-link:{sha256}`) and is answered once.
 */

export const DeepLinkRequest = z.object({
  platformId: z.string(),
  deploymentId: z.string(),
  accountId: z.string(),
  returnUrl: z.string(),
  data: z.string().optional(),
  acceptMultiple: z.boolean(),
  course: z.object({ id: z.string(), title: z.string() }),
});
export type DeepLinkRequest = z.infer<typeof DeepLinkRequest>;

export const DEEP_LINK_TTL_MS = 60 * 60_000;

/** One choice of the picker; an exam not published yet is published to the course's class as asked. */
export const DeepLinkChoice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lecture'), id: z.string().min(1).max(100) }),
  z.object({ kind: z.literal('quiz'), id: z.string().min(1).max(100) }),
  z.object({
    kind: z.literal('exam'),
    id: z.string().min(1).max(100),
    publish: z.union([z.object({ timeLimitMinutes: z.number().int().min(1).max(600) }), z.object({ selfStudy: z.literal(true) })]).optional(),
  }),
]);
export type DeepLinkChoice = z.infer<typeof DeepLinkChoice>;
export const DeepLinkAnswer = z.object({ choices: z.array(DeepLinkChoice).max(20) });

/** What the picker shows: the teacher's things, and per exam whether (and how) it can be linked to this course. */
export interface PickerView {
  course: string;
  acceptMultiple: boolean;
  lectures: MaterialOutline[];
  quizzes: QuizSummary[];
  exams: (Pick<ExamSummary, 'examId' | 'title' | 'materialId'> & { state: 'draft' | 'this-course' | 'elsewhere' })[];
}

export interface DeepLinkingOptions {
  store: Store;
  platforms: PlatformRepository;
  classes: CourseClasses;
  ports: LtiPorts;
  toolKeys: ToolKeys;
  now: () => number;
  logger: Logger;
}

const expired = () => new AppError(ErrorCode.LTI_LINK_REQUEST_NOT_FOUND);
const cannotLink = (message: string) => new AppError(ErrorCode.LTI_CHOICE_INVALID, message);

export class DeepLinking {
  private readonly requests: OneTimeRecords<DeepLinkRequest>;

  constructor(private readonly options: DeepLinkingOptions) {
    this.requests = new OneTimeRecords(options.store, ltiKeys.ltiDeepLink, DeepLinkRequest, DEEP_LINK_TTL_MS, options.logger);
  }

  /** Keeps a verified deep linking request for the picker; answers the picker's secret. */
  open(request: DeepLinkRequest): Promise<string> {
    return this.requests.put(request);
  }

  async view(secret: string): Promise<PickerView> {
    const request = await this.requests.peek(secret);
    if (!request) throw expired();
    const { lectures, quizzes, exams } = await this.options.ports.choices(request.accountId);
    const classOf = await this.courseClasses(request, exams);
    return {
      course: request.course.title,
      acceptMultiple: request.acceptMultiple,
      lectures,
      quizzes,
      exams: exams.map(({ examId, title, materialId, publication }) => ({
        examId,
        title,
        materialId,
        state: !publication ? 'draft' : publication.classId === classOf.get(materialId) && publication.student === undefined ? 'this-course' : 'elsewhere',
      })),
    };
  }

  /**
   * Answers the request once with the chosen items (none: the teacher cancelled): makes the links (and the course's
   * classes, and publishes draft exams as asked), then signs the response for the platform. Answers where to post
   * it and the JWT (the page posts `JWT` there as a form).
   */
  async respond(secret: string, choices: readonly DeepLinkChoice[], toolBase: string): Promise<{ returnUrl: string; jwt: string }> {
    const { platforms, ports, toolKeys, now } = this.options;
    const request = await this.requests.peek(secret);
    if (!request) throw expired();
    const platform = await platforms.get(request.platformId);
    if (!platform) throw new AppError(ErrorCode.LTI_PLATFORM_UNKNOWN, '이 LMS의 등록이 삭제되었습니다.');
    if (!request.acceptMultiple && choices.length > 1) throw cannotLink('이 LMS 요청은 한 번에 하나만 넣을 수 있습니다.');

    // Every choice is checked before anything is made, so a refused one leaves nothing half done.
    const resolved: { choice: DeepLinkChoice; title: string; materialId: string | null; exam?: ExamSummary }[] = [];
    for (const choice of choices) {
      if (choice.kind === 'lecture') {
        const material = (await ports.ownsMaterial(request.accountId, choice.id)) ? await ports.material(choice.id) : null;
        if (!material) throw cannotLink('내 자료에 없는 강의는 넣을 수 없습니다.');
        resolved.push({ choice, title: material.title, materialId: material.id });
      } else if (choice.kind === 'quiz') {
        const quiz = await ports.quiz(choice.id);
        if (!quiz || quiz.accountId !== request.accountId) throw cannotLink('내 퀴즈가 아닌 퀴즈는 넣을 수 없습니다.');
        resolved.push({ choice, title: quiz.title, materialId: null });
      } else {
        const exam = await ports.exam(choice.id);
        if (!exam || exam.accountId !== request.accountId) throw cannotLink('내 시험이 아닌 시험은 넣을 수 없습니다.');
        if (!exam.publication && !choice.publish) throw cannotLink(`"${exam.title}"은 아직 게시하지 않은 시험입니다. 제한 시간이나 혼자 보는 시험을 골라 주세요.`);
        resolved.push({ choice, title: exam.title, materialId: exam.materialId, exam });
      }
    }
    const items: Record<string, unknown>[] = [];
    for (const { choice, title, materialId, exam } of resolved) {
      if (materialId !== null) {
        const material = await ports.material(materialId);
        if (!material) throw cannotLink('강의 자료를 찾을 수 없습니다.');
        const course = await this.options.classes.ensure(platform, request.course, request.accountId, material);
        if (exam) await this.placeExam(exam, course.classId, choice);
      }
      const link: LinkRecord = {
        linkId: randomUUID(),
        platformId: platform.platformId,
        kind: choice.kind,
        resourceId: choice.id,
        materialId,
        title,
        accountId: request.accountId,
        createdAt: now(),
      };
      await platforms.saveLink(link);
      items.push({
        type: 'ltiResourceLink',
        title: `${KIND_LABEL[choice.kind]} ${title}`.slice(0, 250),
        url: `${toolBase}/lti/launch`,
        custom: { lectern_link: link.linkId },
        ...(exam ? { lineItem: { scoreMaximum: exam.maxScore, label: title.slice(0, 250), resourceId: `lectern-exam:${exam.examId}`, tag: 'lectern' } } : {}),
      });
    }
    if (!(await this.requests.take(secret))) throw expired();
    const jwt = await toolKeys.sign(
      {
        iss: platform.clientId,
        aud: platform.issuer,
        nonce: randomBytes(16).toString('base64url'),
        [CLAIM.messageType]: 'LtiDeepLinkingResponse',
        [CLAIM.version]: '1.3.0',
        [CLAIM.deploymentId]: request.deploymentId,
        [CLAIM.contentItems]: items,
        ...(request.data === undefined ? {} : { [CLAIM.deepLinkingData]: request.data }),
        ...(items.length > 0 ? { [CLAIM.deepLinkingMessage]: `lectern에서 ${items.length}개를 넣었습니다.` } : {}),
      },
      5 * 60,
    );
    return { returnUrl: request.returnUrl, jwt };
  }

  /** An exam goes to the course's class: published there now as asked, or already published there. */
  private async placeExam(exam: ExamSummary, classId: string, choice: DeepLinkChoice): Promise<void> {
    if (exam.publication) {
      if (exam.publication.classId !== classId || exam.publication.student !== undefined) {
        throw cannotLink(`"${exam.title}"은 다른 수업에 게시된 시험이라 이 강좌에 넣을 수 없습니다.`);
      }
      return;
    }
    if (choice.kind !== 'exam' || !choice.publish) return;
    await this.options.ports.publishExam(exam.examId, classId, 'selfStudy' in choice.publish ? { selfStudy: true } : { timeLimitMinutes: choice.publish.timeLimitMinutes });
  }

  /** For the picker: the class each of the exams' materials has in this course already (none yet: absent). */
  private async courseClasses(request: DeepLinkRequest, exams: readonly ExamSummary[]): Promise<Map<string, string>> {
    const { platforms } = this.options;
    const found = new Map<string, string>();
    for (const materialId of new Set(exams.map((exam) => exam.materialId))) {
      const classId = await platforms.courseClass(request.platformId, courseKey(request.course.id, request.accountId, materialId));
      if (classId !== null) found.set(materialId, classId);
    }
    return found;
  }
}

const KIND_LABEL: Record<DeepLinkChoice['kind'], string> = { lecture: '[강의]', quiz: '[퀴즈]', exam: '[시험]' };
