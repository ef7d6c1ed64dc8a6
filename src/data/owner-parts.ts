/*
 * The ports through which data/ deletes what other features own: each owner deletes its own records (data/ only
 * orchestrates). Kept apart from data-lifecycle.ts so the deletion steps need not import the file that composes them.
 */

/** What deletion and export need of the LMS integration: a class's course record, members and passback states. */
export interface CourseParts {
  deleteForClass(classId: string): Promise<void>;
  /** The course of a class made for one (its id and title) and each student's LMS user id by session id; null otherwise. */
  exportForClass(classId: string): Promise<{ course: { contextId: string; title: string }; lmsUsers: Map<string, string> } | null>;
}

/** What deletion needs of the live exams: everything of a class (its exams, their students' data, profiles) or of a material. */
export interface ExamParts {
  deleteForClass(classId: string): Promise<void>;
  deleteForMaterial(materialId: string): Promise<void>;
  /** How many exams were made from the material. */
  countForMaterial(materialId: string): Promise<number>;
}
