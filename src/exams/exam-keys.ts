import { storeKey as key } from '../store/index.js';

/**
 * The live exams' store keys: exams, their students' drafts, submissions, grades and reports, the class learner
 * profiles and the lists the sweeps read. Durable (no TTL); deleted with the exam, its class or its material.
 */
export const examKeys = {
  /** An exam (JSON: owner account, material, request, plan, problems, complaints, valid, rounds, createdAt). */
  exam: (examId: string) => key('exam', examId),
  /** An exam's publication (JSON: classId, timeLimitMinutes, publishedAt, deadline), SET NX: published once. */
  examPublication: (examId: string) => key('exam', examId, 'publication'),
  /** Set NX once by the node that closes the exam at its deadline (auto-submits the drafts, starts the grading). */
  examClosed: (examId: string) => key('exam', examId, 'closed'),
  /** The students who opened or answered a published exam (sorted set of session ids by first touch). */
  examStudents: (examId: string) => key('exam', examId, 'students'),
  /**
   * The teacher's changes to an exam's answers, append-only (stream: action override | move-out | move-in, sessionId,
   * questionId, by, at, from, to, reason, groupId?).
   */
  examAudit: (examId: string) => key('exam', examId, 'audit'),
  /** The answers to one item the teacher moved out of their group (hash: session id -> when); deleted with the exam. */
  examDetached: (examId: string, questionId: number) => key('exam', examId, 'detached', String(questionId)),
  /** A student's autosaved drafts (hash: question id -> JSON {text, savedAt}; last write wins). */
  examDrafts: (examId: string, sessionId: string) => key('exam', examId, 'drafts', sessionId),
  /** A student's submissions (hash, HSETNX: question id -> JSON {text, at}; `all` -> ms of the whole submission). */
  examSubmitted: (examId: string, sessionId: string) => key('exam', examId, 'submitted', sessionId),
  /** A student's grades (hash: question id -> JSON EvaluationItem, rewritten by a retry or a regrade). */
  examGrades: (examId: string, sessionId: string) => key('exam', examId, 'grades', sessionId),
  /** A student's current overrides (hash: question id -> JSON {status, reason, by, at, from}); the trail is examAudit. */
  examOverrides: (examId: string, sessionId: string) => key('exam', examId, 'overrides', sessionId),
  /** A student's regrade requests (hash, HSETNX: question id -> JSON {comment, at, status, from?, to?}). */
  examRegrades: (examId: string, sessionId: string) => key('exam', examId, 'regrades', sessionId),
  /** A student's feedback report (JSON FeedbackReport). */
  examReport: (examId: string, sessionId: string) => key('exam', examId, 'report', sessionId),
  /**
   * A student's grading state (hash: `claimed` and `finalised` first times, `attempts`, `state` pending|graded,
   * `changes` after the first grading, `done:{step}` the revision each post-grading step finished for, staged values).
   */
  examGrading: (examId: string, sessionId: string) => key('exam', examId, 'grading', sessionId),
  /** Lease of the node working on a student's grading (expires: another node takes over when it lapses). */
  examGradingLease: (examId: string, sessionId: string) => key('exam', examId, 'grading-lease', sessionId),
  /** An account's exams (sorted set by creation time), all and per material: its lists. */
  accountExams: (accountId: string, materialId?: string) => (materialId === undefined ? key('account', accountId, 'exams') : key('account', accountId, 'exams', materialId)),
  /** Every exam made from a material, so its deletion finds them (sorted set by creation time). */
  materialExams: (materialId: string) => key('material', materialId, 'exams'),
  /** The exams published to a class (sorted set by publication time): its students' list, and its deletion. */
  classExams: (classId: string) => key('class', classId, 'exams'),
  /** A class student's learner profile (JSON LearnerProfile). */
  classProfile: (classId: string, sessionId: string) => key('class', classId, 'profile', sessionId),
  /** The class students with a stored learner profile (sorted set by last update), so the class's deletion finds them. */
  classProfiles: (classId: string) => key('class', classId, 'profiles'),
  /** Published exams not closed yet (sorted set of exam ids scored by deadline): every node's sweep closes them. */
  examsOpen: () => key('exams', 'open'),
  /** Students whose grading is not finished (sorted set of `{examId}|{sessionId}` by when to look again): retries. */
  examsPending: () => key('exams', 'pending'),
  /**
   * Exams with gradings started and not known to be finished (sorted set of exam ids by when to check them): the
   * sweep's backstop, which finds a half-finished student on no pending list.
   */
  examsGrading: () => key('exams', 'grading'),
};
