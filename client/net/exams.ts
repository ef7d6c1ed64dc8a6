/**
 * Exams (seed 000) over HTTP, as the pages call them (docs/PROTOCOL.md, "HTTP routes"): the instructor's routes
 * with the account's cookie (and CSRF token, through `apiJson`), a class student's with the class session token as
 * bearer. The reply shapes are the wire's (src/protocol/wire/exams.ts, jobs.ts).
 */
import type {
  ExamAnswerGroupsReply,
  ExamGroupGradeReply,
  ClassExamReply,
  ClassExamResultReply,
  ClassExamsReply,
  ExamComplexity,
  ExamDetailReply,
  ExamDraftReply,
  ExamEvaluationItem,
  ExamFeedbackReport,
  ExamGradeStatus,
  ExamItemSummary,
  ExamJobProgress,
  ExamJobResult,
  ExamLearnerProfile,
  ExamListEntry,
  ExamListReply,
  ExamOverrideReply,
  ExamProblemView,
  ExamProfileReply,
  ExamProgressReply,
  ExamPublicationView,
  ExamQuestionType,
  ExamRegradeView,
  ExamResultItem,
  ExamResultsReply,
  ExamResultStatus,
  ExamStartReply,
  ExamStatus,
  ExamStudentResult,
  ExamSubmitReply,
  ExamTargetDepth,
  JobState,
  SelfStudyExamStartReply,
} from '../../src/protocol/wire/index.js';
import { EXAM_DEPTH_LABELS, EXAM_LEVEL_LABELS, EXAM_STATUS_LABELS } from '../../src/protocol/wire/exams.js';
import { apiJson } from './http.js';

// The wire's names, as the pages use them.
export type { ExamJobProgress, ExamJobResult, ExamStatus };
export type ComplexityLevel = ExamComplexity;
export type EvaluationItem = ExamEvaluationItem;
export type ExamProblem = ExamProblemView;
export type FeedbackReport = ExamFeedbackReport;
export type GradeStatus = ExamGradeStatus;
export type LearnerProfile = ExamLearnerProfile;
export type ResultStatus = ExamResultStatus;
export type TargetDepth = ExamTargetDepth;
export type Publication = ExamPublicationView;
export type ExamListing = ExamListEntry;
export type ExamDetail = ExamDetailReply;
export type ResultItem = ExamResultItem;
export type RegradeRequest = ExamRegradeView;
export type StudentResult = ExamStudentResult;
export type ItemDistribution = ExamItemSummary;
export type ExamResults = ExamResultsReply;
export type ClassExamListing = ClassExamsReply['exams'][number];
export type ClassExam = ClassExamReply;
export type ClassExamResult = ClassExamResultReply;

/** `POST /api/materials/:id/exams` (202): the job, its `/jobs` token and the short-answer/descriptive balance planned. */
export type StartedExamJob = ExamStartReply;

/**
 * What is asked for (seed 000 step 2): `count` 1–20, how many `Descriptive` (left out: the planner chooses from the
 * learner profile and the reply's `mix.reason` says why), difficulty, chapters; an instructor's exam may name the
 * class whose aggregated profile it is planned from.
 */
export interface ExamRequestBody {
  count: number;
  descriptive?: number;
  difficulty?: ExamComplexity;
  chapters?: number[];
  classId?: string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const at = (examId: string) => `/api/exams/${encodeURIComponent(examId)}`;
const classAt = (examId: string) => `/api/class-exams/${encodeURIComponent(examId)}`;

// ---- the instructor (account cookie) ---------------------------------------------------------------------------

/** Starts the generation job: 202 with the job (and, like math problems, its `/jobs` token). */
export function startExam(materialId: string, request: ExamRequestBody): Promise<StartedExamJob> {
  return apiJson<StartedExamJob>(`/api/materials/${encodeURIComponent(materialId)}/exams`, { method: 'POST', body: request, fallback: '시험 만들기를 시작하지 못했습니다.' });
}

export const listExams = (materialId?: string) =>
  apiJson<ExamListReply>(`/api/exams?${new URLSearchParams({ limit: '50', ...(materialId ? { materialId } : {}) })}`);

export const getExam = (examId: string) => apiJson<ExamDetail>(at(examId), { fallback: '시험을 불러오지 못했습니다.' });

export function patchProblem(examId: string, id: number, patch: Partial<Pick<ExamProblem, 'question_content' | 'model_answer' | 'key_keywords' | 'intent_diagnosis'>>): Promise<ExamProblem> {
  return apiJson<ExamProblem>(`${at(examId)}/problems/${id}`, { method: 'PATCH', body: patch, fallback: '문항을 저장하지 못했습니다.' });
}

/** 지적 확인: the item's validator complaints read and accepted as they are (they no longer hold publishing back). */
export const acceptItem = (examId: string, id: number) =>
  apiJson<ExamDetail>(`${at(examId)}/problems/${id}/accept`, { method: 'POST', body: {}, fallback: '지적을 확인하지 못했습니다.' });

export const publishExam = (examId: string, classId: string, timeLimitMinutes: number) =>
  apiJson<{ publication: Publication }>(`${at(examId)}/publish`, { method: 'POST', body: { classId, timeLimitMinutes }, fallback: '시험을 게시하지 못했습니다.' });

/** 혼자 보는 시험으로 열기: published to the class with no time limit; each student's result at their own submission. */
export const openAsSelfStudy = (examId: string, classId: string) =>
  apiJson<{ publication: Publication }>(`${at(examId)}/publish`, { method: 'POST', body: { classId, selfStudy: true }, fallback: '시험을 열지 못했습니다.' });

/** A self-study exam's deadline (the server keeps the largest safe integer: it has none). */
export const hasNoDeadline = (deadline: number | undefined): boolean => deadline !== undefined && deadline >= Number.MAX_SAFE_INTEGER;

/** 시험 종료: the deadline becomes the server's now; drafts are submitted and graded, results revealed. */
export const endExam = (examId: string) => apiJson<{ publication: Publication }>(`${at(examId)}/end`, { method: 'POST', fallback: '시험을 끝내지 못했습니다.' });

/** The monitor's 시험 진행 table now (no answer text). */
export const examProgress = (examId: string) => apiJson<ExamProgressReply>(`${at(examId)}/progress`, { fallback: '시험 진행 상황을 불러오지 못했습니다.' });

export const examResults = (examId: string) => apiJson<ExamResults>(`${at(examId)}/results`, { fallback: '결과를 불러오지 못했습니다.' });

export const resultsDownload = (examId: string, format: 'csv' | 'json') => `${at(examId)}/results.${format}`;
/**
 * The teacher decided the item's status or changed the grader's (`from` is the grader's, `to` the teacher's): its
 * feedback is then the teacher's decision, which the page says in its review line.
 */
export const decidedByTeacher = (from: string | undefined, to: string): boolean => from !== undefined && from !== to;

/** The teacher's overrides and group grades as labelled JSON Lines (GET …/decisions.jsonl, owner only). */
export const decisionsDownload = (examId: string) => `${at(examId)}/decisions.jsonl`;

export function overrideItem(examId: string, sessionId: string, questionId: number, status: ResultStatus, reason: string): Promise<ExamOverrideReply> {
  const path = `${at(examId)}/students/${encodeURIComponent(sessionId)}/items/${questionId}/override`;
  return apiJson<ExamOverrideReply>(path, { method: 'POST', body: { status, reason }, fallback: '판정을 바꾸지 못했습니다.' });
}

export type AnswerGroups = ExamAnswerGroupsReply;
export type AnswerGroup = ExamAnswerGroupsReply['groups'][number];

const itemAt = (examId: string, questionId: number) => `${at(examId)}/items/${questionId}`;

/** One item's answers grouped by meaning (those waiting for review first). */
export const answerGroups = (examId: string, questionId: number) => apiJson<AnswerGroups>(`${itemAt(examId, questionId)}/groups`, { fallback: '답안 묶음을 불러오지 못했습니다.' });

/** One status and reason for a whole group (refused with EXAM_GROUP_NOT_FOUND when the group changed meanwhile). */
export const gradeGroup = (examId: string, questionId: number, groupId: string, status: ResultStatus, reason: string) =>
  apiJson<ExamGroupGradeReply>(`${itemAt(examId, questionId)}/groups/${encodeURIComponent(groupId)}/grade`, { method: 'POST', body: { status, reason }, fallback: '묶음을 채점하지 못했습니다.' });

/** Moves a student's answer out of its group (or back in); the item's groups as they are then. */
export const moveAnswer = (examId: string, questionId: number, sessionId: string, direction: 'move-out' | 'move-in') =>
  apiJson<AnswerGroups>(`${itemAt(examId, questionId)}/answers/${encodeURIComponent(sessionId)}/${direction}`, { method: 'POST', fallback: '답안을 옮기지 못했습니다.' });

const profileAt = (classId: string, sessionId: string) => `/api/classes/${encodeURIComponent(classId)}/students/${encodeURIComponent(sessionId)}/profile`;

export const studentProfile = (classId: string, sessionId: string) => apiJson<ExamProfileReply>(profileAt(classId, sessionId), { fallback: '학습 프로필을 불러오지 못했습니다.' });

export const setLearningGoal = (classId: string, sessionId: string, goal: { target_depth: TargetDepth; description: string }) =>
  apiJson<ExamProfileReply>(profileAt(classId, sessionId), { method: 'PATCH', body: goal, fallback: '학습 목표를 저장하지 못했습니다.' });

// ---- a class student (session token) -----------------------------------------------------------------------------

export const classExams = (token: string) => apiJson<ClassExamsReply>('/api/class-exams', { headers: bearer(token), fallback: '시험 목록을 불러오지 못했습니다.' });

export const classExam = (token: string, examId: string) => apiJson<ClassExam>(classAt(examId), { headers: bearer(token), fallback: '시험을 불러오지 못했습니다.' });

export const saveDrafts = (token: string, examId: string, answers: Record<string, string>) =>
  apiJson<ExamDraftReply>(`${classAt(examId)}/draft`, { method: 'PUT', headers: bearer(token), body: { answers }, fallback: '답안을 저장하지 못했습니다.' });

export const submitExam = (token: string, examId: string, questionIds?: number[]) =>
  apiJson<ExamSubmitReply>(`${classAt(examId)}/submit`, {
    method: 'POST',
    headers: bearer(token),
    body: questionIds ? { questionIds } : {},
    fallback: '제출하지 못했습니다.',
  });

export const classExamResult = (token: string, examId: string) => apiJson<ClassExamResult>(`${classAt(examId)}/result`, { headers: bearer(token), fallback: '결과를 불러오지 못했습니다.' });

export const requestRegrade = (token: string, examId: string, questionId: number, comment: string) =>
  apiJson<{ request: ExamRegradeView }>(`${classAt(examId)}/regrade`, { method: 'POST', headers: bearer(token), body: { questionId, comment }, fallback: '재채점을 요청하지 못했습니다.' });

/** 혼자 시험 보기: the student's own exam on their class's material (202: the generation job). */
export const startSelfStudyExam = (token: string, request: ExamRequestBody) =>
  apiJson<SelfStudyExamStartReply>('/api/class-exams/self-study', { method: 'POST', headers: bearer(token), body: request, fallback: '혼자 볼 시험을 만들지 못했습니다.' });

/** The self-study exam's generation job, polled while it runs. */
export const selfStudyJob = (token: string, jobId: string) =>
  apiJson<{ job: JobState }>(`/api/class-exams/self-study/jobs/${encodeURIComponent(jobId)}`, { headers: bearer(token), fallback: '시험을 만드는 상황을 불러오지 못했습니다.' });

export const myProfile = (token: string) => apiJson<ExamProfileReply>('/api/class-exams/profile', { headers: bearer(token), fallback: '학습 프로필을 불러오지 못했습니다.' });

// ---- words the pages share ---------------------------------------------------------------------------------------

/** The server's labels (one table, src/protocol/wire/exams.ts). */
export const STATUS_LABELS: Record<GradeStatus, string> = EXAM_STATUS_LABELS;
export const TYPE_LABELS: Record<ExamQuestionType, string> = { Short_Keyword: '단답형', Descriptive: '서술형' };
export const LEVEL_LABELS: Record<ComplexityLevel, string> = EXAM_LEVEL_LABELS;
export const DEPTH_LABELS: Record<TargetDepth, string> = EXAM_DEPTH_LABELS;

/** A title without the "(N문항)" a generated exam's title ends with: the pages say the count themselves, once. */
export const bareExamTitle = (title: string): string => title.replace(/\s*\(\d+문항\)\s*$/u, '') || title;

/** `제목 (N문항)` or `제목 (N문항 · 혼자 보는 시험)`: the count and the kind said once, whatever the title holds. */
export function examLabel(title: string, count: number, selfStudy = false): string {
  const bare = bareExamTitle(title);
  const kind = selfStudy && !bare.includes('혼자 보는 시험') ? ' · 혼자 보는 시험' : '';
  return `${bare} (${count}문항${kind})`;
}
