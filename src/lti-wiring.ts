import type { AccountService, TokenSigner } from './auth/index.js';
import type { ClassRepository, ClassService } from './classroom/index.js';
import type { DataLifecycle } from './data/index.js';
import { AppError, isAppError } from './kernel/index.js';
import { resultItems, scoreOf, type ExamRecord, type ExamService, type ScoreWeights } from './exams/index.js';
import type { ExamSummary, LtiPorts, MaterialOutline, QuizSummary, StudentScore } from './lti/index.js';
import type { MaterialService } from './materials/index.js';
import type { OwnershipRepository } from './ownership/index.js';
import { ErrorCode } from './protocol/wire/error-codes.js';
import type { QuizRepository, RoomService } from './quiz/index.js';
import { type Store } from './store/index.js';
import { classKeys } from './classroom/index.js';

/**
 * The LTI tool's ports (src/lti/lti-ports.ts) over lectern's features, and the exam score the gradebook gets: put
 * together once, for app.ts. The LTI folder never imports classes, exams or quizzes; this file is where they meet.
 */

/** A class session token's life (LectureService issues the same). */
const SESSION_TOKEN_TTL_MS = 24 * 60 * 60_000;
/** Names tried when an LMS name is taken in a class or room by another person: "이름 (2)" … */
const NAME_SUFFIXES = 20;
const LIST = { limit: 100 };

export interface LtiWiringDeps {
  store: Store;
  accounts: AccountService;
  classes: ClassService;
  classRepository: ClassRepository;
  ownership: OwnershipRepository;
  data: DataLifecycle;
  signer: TokenSigner;
  materials: MaterialService;
  exams: ExamService;
  quizzes: QuizRepository;
  rooms: RoomService;
  weights: ScoreWeights;
}

/** An LMS name as a lectern nickname: NFC, printable, at most 20 characters with room for a " (n)" suffix. */
export function lmsNickname(name: string, suffix: number): string {
  const tail = suffix > 1 ? ` (${suffix})` : '';
  const cleaned = name.normalize('NFC').replace(/[\p{Cc}\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/gu, '').trim();
  const base = cleaned.length > 0 ? cleaned : '학생';
  return `${base.slice(0, 20 - tail.length).trim()}${tail}`;
}

/** Tries a name, then "name (2)", "name (3)"… while another person holds it. */
async function underFreeName<T>(name: string, attempt: (nickname: string) => Promise<T>): Promise<T> {
  for (let suffix = 1; ; suffix += 1) {
    try {
      return await attempt(lmsNickname(name, suffix));
    } catch (error) {
      if (!(isAppError(error) && error.code === ErrorCode.NICKNAME_TAKEN) || suffix >= NAME_SUFFIXES) throw error;
    }
  }
}

export function ltiPorts(deps: LtiWiringDeps): LtiPorts {
  const { accounts, classes, classRepository, ownership, data, signer, materials, exams, quizzes, rooms } = deps;
  const outline = async (materialId: string): Promise<MaterialOutline | null> => {
    const material = await materials.get(materialId);
    return material ? { id: material.id, title: material.title, chapters: material.chapters.map(({ index, title }) => ({ index, title })) } : null;
  };
  const examSummary = async (exam: ExamRecord): Promise<ExamSummary> => {
    const publication = await exams.repository.publication(exam.examId);
    return {
      examId: exam.examId,
      accountId: exam.accountId,
      materialId: exam.materialId,
      title: exam.title,
      maxScore: exam.problems.length * Math.max(deps.weights.Correct, deps.weights.Partial_Correct, deps.weights.Incorrect),
      publication: publication ? { classId: publication.classId, selfStudy: publication.selfStudy === true, student: publication.student } : null,
    };
  };
  const quizSummary = async (quizId: string): Promise<QuizSummary | null> => {
    const quiz = await quizzes.get(quizId);
    const accountId = await ownership.ownerOf('quiz', quizId);
    return quiz && accountId ? { quizId, accountId, classId: quiz.classId, title: quiz.title } : null;
  };
  return {
    async instructorAccount(identity, mayCreate) {
      return (await accounts.signInWithIdentity(identity, { mayCreate })).accountId;
    },
    async createClass(accountId, name, materialId) {
      const created = await classes.create({ name: name.slice(0, 60), materialId }, accountId);
      await ownership.setOwner('class', created.classId, accountId, created.createdAt);
      return created.classId;
    },
    async deleteClass(classId) {
      await data.classes.delete(classId);
    },
    classExists: (classId) => deps.store.exists(classKeys.classRecord(classId)),
    async joinClass(classId, name) {
      const { code } = await classes.info(classId, { limit: 1 });
      const joined = await underFreeName(name, async (nickname) => ({ ...(await classes.join(code, { nickname })), nickname }));
      return { sessionId: joined.sessionId, token: joined.token, nickname: joined.nickname };
    },
    async resumeSession(sessionId, classId) {
      const profile = await data.sessionProfile(sessionId);
      const entry = await classRepository.student(classId, sessionId);
      if (profile?.classId !== classId || !entry) return null;
      return { token: signer.sign({ kind: 'session', sub: sessionId, scope: classId }, SESSION_TOKEN_TTL_MS), nickname: entry.nickname };
    },
    material: outline,
    ownsMaterial: (accountId, materialId) => ownership.ownsMaterial(materialId, accountId),
    async exam(examId) {
      const exam = await exams.repository.get(examId);
      return exam ? examSummary(exam) : null;
    },
    async publishExam(examId, classId, mode) {
      const exam = await exams.repository.get(examId);
      if (!exam) throw new AppError(ErrorCode.EXAM_NOT_FOUND);
      if ('selfStudy' in mode) await exams.publishSelfStudy(exam, classId);
      else await exams.publish(exam, classId, mode.timeLimitMinutes);
    },
    quiz: quizSummary,
    async openRoom(quizId) {
      const { members } = await ownership.quizRoomsPage(quizId, { limit: 20 });
      for (const roomId of members) {
        const phase = await rooms.repository.phase(roomId);
        if (!phase || phase.phase === 'ended' || phase.phase === 'podium') continue;
        const meta = await rooms.meta(roomId).catch(() => null);
        if (meta) return { roomId, code: meta.code };
      }
      return null;
    },
    async joinRoom(code, name) {
      return underFreeName(name, async (nickname) => ({ ...(await rooms.join(code, nickname)), nickname }));
    },
    async choices(accountId) {
      const [materialIds, quizIds, examList] = await Promise.all([
        ownership.page(accountId, 'material', LIST),
        ownership.page(accountId, 'quiz', LIST),
        exams.list(accountId, undefined, LIST),
      ]);
      const lectures = (await Promise.all(materialIds.members.map(outline))).filter((entry): entry is MaterialOutline => entry !== null);
      const quizList = (await Promise.all(quizIds.members.map(quizSummary))).filter((entry): entry is QuizSummary => entry !== null);
      const examRecords = await Promise.all(examList.exams.map((entry) => exams.repository.get(entry.examId)));
      const examSummaries = await Promise.all(examRecords.filter((exam): exam is ExamRecord => exam !== null).map(examSummary));
      return { lectures, quizzes: quizList, exams: examSummaries.filter((exam) => exam.publication?.student === undefined) };
    },
  };
}

/**
 * A student's exam result for the gradebook: the effective statuses (overrides over grades) and the score with the
 * configured weights, on the exam's own line item, or for a student's own self-study exam on the class's one
 * "혼자 보는 시험" column (the newest such exam's score stands). Null when the exam or the student's answers are gone.
 */
export function examScore(exams: ExamService, weights: ScoreWeights) {
  return async (examId: string, sessionId: string): Promise<StudentScore | null> => {
    const [exam, publication] = await Promise.all([exams.repository.get(examId), exams.repository.publication(examId)]);
    if (!exam || !publication) return null;
    const [submission, grades, overrides] = await Promise.all([
      exams.repository.submissions(examId, sessionId),
      exams.repository.grades(examId, sessionId),
      exams.repository.overrides(examId, sessionId),
    ]);
    if (submission.items.size === 0) return null;
    const items = resultItems(exam, { submitted: submission.items, grades, overrides });
    const { score, maxScore } = scoreOf(items, weights);
    const ownSelfStudy = publication.student !== undefined;
    return {
      score,
      maxScore,
      items,
      lineItem: ownSelfStudy
        ? { key: 'self-study', label: '혼자 보는 시험 (lectern)', resourceId: `lectern-self-study:${publication.classId}` }
        : { key: examId, label: exam.title.slice(0, 250), resourceId: `lectern-exam:${examId}` },
    };
  };
}
