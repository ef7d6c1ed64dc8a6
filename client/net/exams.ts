/**
 * Exams (issue 15, seed 000) over HTTP, as the pages call them (docs/PROTOCOL.md, "Exams"): the instructor's routes
 * with the account's cookie (and CSRF token, through `apiJson`), a class student's with the class session token as
 * bearer. The reply shapes are the wire's; the seed's objects come from src/exams as types only.
 */
import type { ComplexityLevel, EvaluationItem, ExamPlan, ExamProblem, ExamRequest, FeedbackReport, GradeStatus, LearnerProfile, ResultStatus, TargetDepth, ValidatorComplaint } from '../../src/exams/index.js';
import { apiJson } from './http.js';

export type { ComplexityLevel, EvaluationItem, ExamProblem, FeedbackReport, GradeStatus, LearnerProfile, ResultStatus, TargetDepth, ValidatorComplaint };

/** The `progress` of an `exam-generation` job on `/jobs`. */
export interface ExamJobProgress {
  stage: 'plan' | 'round' | 'done';
  round: number;
  maxRounds: number;
  planned?: number;
  items: { id: number; ok: boolean; message?: string }[];
}

/** The `result` of an `exam-generation` job. */
export interface ExamJobResult {
  examId: string;
  valid: boolean;
  rounds: number;
}

export type ExamStatus = 'draft' | 'published' | 'closed';

export interface Publication {
  classId: string;
  timeLimitMinutes: number;
  publishedAt: number;
  deadline: number;
}

export interface ExamListing {
  examId: string;
  materialId: string;
  title: string;
  count: number;
  status: ExamStatus;
  createdAt: number;
  classId?: string;
  deadline?: number;
}

/** `GET /api/exams/:examId`: the instructor's whole exam. */
export interface ExamDetail {
  examId: string;
  materialId: string;
  title?: string;
  status: ExamStatus;
  request: ExamRequest;
  plan: ExamPlan;
  problems: ExamProblem[];
  complaints: ValidatorComplaint[];
  valid: boolean;
  rounds: number;
  publication: Publication | null;
}

export interface Override {
  status: ResultStatus;
  reason: string;
  by: string;
  at: number;
  /** The status it replaced. */
  from: GradeStatus;
}

export type ResultItem = EvaluationItem & { overridden?: Override | undefined };

export interface RegradeRequest {
  questionId: number;
  comment: string;
  at: number;
  status: 'pending' | 'done';
}

export interface StudentResult {
  sessionId: string;
  nickname: string;
  submittedAt: number | null;
  score: number;
  maxScore: number;
  /** Some item is still `Ungraded` (grading retried in the background). */
  pending: boolean;
  items: ResultItem[];
  regrades: RegradeRequest[];
  report: FeedbackReport | null;
}

export interface ItemDistribution {
  question_id: number;
  counts: Record<GradeStatus, number>;
  misconceptions: string[];
}

/** `GET /api/exams/:examId/results`. */
export interface ExamResults {
  examId: string;
  deadline: number;
  closed: boolean;
  students: StudentResult[];
  items: ItemDistribution[];
}

/** A class student's view of the open exams (`GET /api/class-exams`). */
export interface ClassExamListing {
  examId: string;
  title: string;
  count: number;
  deadline: number;
  state: 'open' | 'submitted' | 'closed';
}

/** `GET /api/class-exams/:examId`: questions only, never answers or keywords. */
export interface ClassExam {
  examId: string;
  title: string;
  serverNow: number;
  deadline: number;
  problems: { id: number; type: ExamProblem['type']; question_content: string }[];
  drafts: Record<string, string>;
  submitted: Record<string, true>;
  submittedAll: boolean;
}

/** `GET /api/class-exams/:examId/result`. */
export interface ClassExamResult {
  status: 'pending' | 'graded';
  score: number;
  maxScore: number;
  log: { evaluation_items: ResultItem[] };
  report: FeedbackReport | null;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const at = (examId: string) => `/api/exams/${encodeURIComponent(examId)}`;
const classAt = (examId: string) => `/api/class-exams/${encodeURIComponent(examId)}`;

// ---- the instructor (account cookie) ---------------------------------------------------------------------------

/** Starts the generation job: 202 with the job (and, like math problems, its `/jobs` token). */
export function startExam(materialId: string, request: ExamRequest): Promise<{ jobId?: string; job?: { jobId: string }; jobToken?: string }> {
  return apiJson(`/api/materials/${encodeURIComponent(materialId)}/exams`, { method: 'POST', body: request, fallback: '시험 만들기를 시작하지 못했습니다.' });
}

export const listExams = (materialId?: string) =>
  apiJson<{ exams: ExamListing[]; nextCursor: string | null }>(`/api/exams?${new URLSearchParams({ limit: '50', ...(materialId ? { materialId } : {}) })}`);

export const getExam = (examId: string) => apiJson<ExamDetail>(at(examId), { fallback: '시험을 불러오지 못했습니다.' });

export function patchProblem(examId: string, id: number, patch: Partial<Pick<ExamProblem, 'question_content' | 'model_answer' | 'key_keywords' | 'intent_diagnosis'>>): Promise<ExamProblem> {
  return apiJson<ExamProblem>(`${at(examId)}/problems/${id}`, { method: 'PATCH', body: patch, fallback: '문항을 저장하지 못했습니다.' });
}

export const publishExam = (examId: string, classId: string, timeLimitMinutes: number) =>
  apiJson<{ publication: Publication }>(`${at(examId)}/publish`, { method: 'POST', body: { classId, timeLimitMinutes }, fallback: '시험을 게시하지 못했습니다.' });

export const examResults = (examId: string) => apiJson<ExamResults>(`${at(examId)}/results`, { fallback: '결과를 불러오지 못했습니다.' });

export const resultsDownload = (examId: string, format: 'csv' | 'json') => `${at(examId)}/results.${format}`;

export function overrideItem(examId: string, sessionId: string, questionId: number, status: ResultStatus, reason: string): Promise<object> {
  const path = `${at(examId)}/students/${encodeURIComponent(sessionId)}/items/${questionId}/override`;
  return apiJson<object>(path, { method: 'POST', body: { status, reason }, fallback: '판정을 바꾸지 못했습니다.' });
}

const profileAt = (classId: string, sessionId: string) => `/api/classes/${encodeURIComponent(classId)}/students/${encodeURIComponent(sessionId)}/profile`;

export const studentProfile = (classId: string, sessionId: string) => apiJson<{ profile: LearnerProfile }>(profileAt(classId, sessionId), { fallback: '학습 프로필을 불러오지 못했습니다.' });

export const setLearningGoal = (classId: string, sessionId: string, goal: { target_depth: TargetDepth; description: string }) =>
  apiJson<{ profile: LearnerProfile }>(profileAt(classId, sessionId), { method: 'PATCH', body: goal, fallback: '학습 목표를 저장하지 못했습니다.' });

// ---- a class student (session token) -----------------------------------------------------------------------------

export const classExams = (token: string) => apiJson<{ serverNow: number; exams: ClassExamListing[] }>('/api/class-exams', { headers: bearer(token), fallback: '시험 목록을 불러오지 못했습니다.' });

export const classExam = (token: string, examId: string) => apiJson<ClassExam>(classAt(examId), { headers: bearer(token), fallback: '시험을 불러오지 못했습니다.' });

export const saveDrafts = (token: string, examId: string, answers: Record<string, string>) =>
  apiJson<{ savedAt: number; serverNow: number }>(`${classAt(examId)}/draft`, { method: 'PUT', headers: bearer(token), body: { answers }, fallback: '답안을 저장하지 못했습니다.' });

export const submitExam = (token: string, examId: string, questionIds?: number[]) =>
  apiJson<{ submitted: Record<string, true>; submittedAll: boolean }>(`${classAt(examId)}/submit`, {
    method: 'POST',
    headers: bearer(token),
    body: questionIds ? { questionIds } : {},
    fallback: '제출하지 못했습니다.',
  });

export const classExamResult = (token: string, examId: string) => apiJson<ClassExamResult>(`${classAt(examId)}/result`, { headers: bearer(token), fallback: '결과를 불러오지 못했습니다.' });

export const requestRegrade = (token: string, examId: string, questionId: number, comment: string) =>
  apiJson<{ request: RegradeRequest }>(`${classAt(examId)}/regrade`, { method: 'POST', headers: bearer(token), body: { questionId, comment }, fallback: '재채점을 요청하지 못했습니다.' });

export const myProfile = (token: string) => apiJson<{ profile: LearnerProfile }>('/api/class-exams/profile', { headers: bearer(token), fallback: '학습 프로필을 불러오지 못했습니다.' });

// ---- words the pages share ---------------------------------------------------------------------------------------

export const STATUS_LABELS: Record<GradeStatus, string> = { Correct: '정답', Partial_Correct: '부분 정답', Incorrect: '오답', Ungraded: '채점 중' };
export const TYPE_LABELS: Record<ExamProblem['type'], string> = { Short_Keyword: '단답형', Descriptive: '서술형' };
export const LEVEL_LABELS: Record<ComplexityLevel, string> = { Basic: '기초', Intermediate: '중급', Advanced: '심화' };
export const DEPTH_LABELS: Record<TargetDepth, string> = { 'Basic Recall': '기본 암기', 'Conceptual Understanding': '개념 이해', 'Deep Understanding': '깊은 이해' };
