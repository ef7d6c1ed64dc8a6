/**
 * What the LTI tool needs of the rest of lectern, as small ports the composition root fills in (app.ts through
 * src/lti-wiring.ts): the LTI folder never imports the features it lands people in.
 */

export interface MaterialOutline {
  id: string;
  title: string;
  chapters: { index: number; title: string }[];
}

export interface ExamSummary {
  examId: string;
  accountId: string;
  materialId: string;
  title: string;
  /** The most points a student can get (the line item's scoreMaximum). */
  maxScore: number;
  publication: { classId: string; selfStudy: boolean; student?: string | undefined } | null;
}

export interface QuizSummary {
  quizId: string;
  accountId: string;
  classId: string;
  title: string;
}

export interface LtiPorts {
  /**
   * The instructor account of an LMS identity: the linked one, else (with `mayCreate`) one created for it, linked by
   * e-mail when `emailVerified`. Throws an AppError when there is none and none may be made.
   */
  instructorAccount(identity: { issuer: string; subject: string; email: string; emailVerified: boolean; name?: string | undefined }, mayCreate: boolean): Promise<string>;
  /** A new class of the account for a course (its material fixed); answers the class id. */
  createClass(accountId: string, name: string, materialId: string): Promise<string>;
  /** Deletes a class completely (a class made by a lost race of two first launches). */
  deleteClass(classId: string): Promise<void>;
  classExists(classId: string): Promise<boolean>;
  /** A student joins the class under `name` (made unique in the class when needed): their session and its token. */
  joinClass(classId: string, name: string): Promise<{ sessionId: string; token: string; nickname: string }>;
  /** A fresh session token for an existing class session, or null when the session is gone. */
  resumeSession(sessionId: string, classId: string): Promise<{ token: string; nickname: string } | null>;
  material(materialId: string): Promise<MaterialOutline | null>;
  /** Whether the account is an owner of the material (what a teacher may link). */
  ownsMaterial(accountId: string, materialId: string): Promise<boolean>;
  exam(examId: string): Promise<ExamSummary | null>;
  /** Publishes a draft exam of the account to a class: timed, or as self-study. */
  publishExam(examId: string, classId: string, mode: { timeLimitMinutes: number } | { selfStudy: true }): Promise<void>;
  quiz(quizId: string): Promise<QuizSummary | null>;
  /** The newest room of the quiz that still admits players, or null. */
  openRoom(quizId: string): Promise<{ roomId: string; code: string } | null>;
  joinRoom(code: string, name: string): Promise<{ roomId: string; playerId: string; playerToken: string; nickname: string }>;
  /** What a teacher may put into a course: their materials, quizzes and exams (newest first, a page of each). */
  choices(accountId: string): Promise<{ lectures: MaterialOutline[]; quizzes: QuizSummary[]; exams: ExamSummary[] }>;
}
