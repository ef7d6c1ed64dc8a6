import type { ClassAnalyticsReply, MasteryEvidenceReply } from '../protocol/wire/analytics.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';
import { lectureFunnel } from './funnel.js';
import { analyseExam, analyseRoom, type ExamResultsInput, type RoomResultsInput } from './item-analysis.js';
import { masteryMap, withoutEvidence, type StudentEvidence } from './mastery.js';

/**
 * An exam as the analytics read it: its results and the chapters it was asked to cover (none: the whole material).
 * `selfStudy`: one student's own self-study exam, evidence of that student's mastery (their learner profile counts
 * it) but no assessment of the class, so it has no item analysis.
 */
export type ClassExamInput = Omit<ExamResultsInput, 'students'> & {
  chapters: readonly number[] | undefined;
  selfStudy?: boolean;
  students: readonly { sessionId: string; items: readonly { question_id: number; result_status: string; question_content: string }[] }[];
};

/** Where the analytics read from: the records the classroom, lecture, quiz rooms and exams already keep. */
export interface AnalyticsSources {
  /** The class (null: none) with its whole roster and each student's lecture progress. */
  classInfo(classId: string): Promise<{ name: string; materialId: string | null; students: { sessionId: string; nickname: string; chapter: number; state: string }[] } | null>;
  /** The material's chapters in lecture order. */
  chapters(materialId: string): Promise<{ index: number; title: string }[]>;
  /** The student's lecture transcript, oldest first (bounded by the source). */
  transcript(classId: string, sessionId: string): Promise<TranscriptItem[]>;
  /**
   * A reader of the class's students' first answers to quiz items, self-study, the class's quizzes and shared math
   * problems alike (the learner profile's quiz evidence that names a chapter), oldest first, with the chapter's title
   * as topic. One reader per request: what every student shares (the class's quizzes) is read once for all of them.
   */
  quizAnswers(classId: string): (sessionId: string) => Promise<StudentEvidence['quizAnswers']>;
  /** Stored results of the class's newest quiz rooms. */
  rooms(classId: string): Promise<RoomResultsInput[]>;
  /** Results of the class's newest exams: those published to the whole class, and students' own self-study ones. */
  exams(classId: string): Promise<ClassExamInput[]>;
}

/** Each student's graded exam items, looked up by session (one index over every exam, not a scan per student). */
function studentExams(exams: readonly ClassExamInput[]): (sessionId: string) => StudentEvidence['exams'] {
  const bySession = new Map<string, StudentEvidence['exams'][number][]>();
  for (const exam of exams) {
    for (const result of exam.students) {
      const list = bySession.get(result.sessionId) ?? [];
      list.push({ title: exam.title, chapters: exam.chapters, items: result.items.map((item) => ({ question: item.question_content, status: item.result_status })) });
      bySession.set(result.sessionId, list);
    }
  }
  return (sessionId) => bySession.get(sessionId) ?? [];
}

export interface ClassAnalyticsOptions {
  sources: AnalyticsSources;
  now?: () => number;
}

/** Students read per class: every fact of a student is a few store reads, so a class beyond this is cut. */
export const MAX_ANALYTICS_STUDENTS = 500;
/** Students read at once: each reads its transcript pages, the class's self-study index and its quiz answers, so not all together. */
const STUDENTS_AT_ONCE = 8;

/** `work` over `items` with at most `limit` running at a time; results in the items' order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The 분석 view of one class, computed on request from stored facts (nothing of it is stored, so it is never stale
 * and needs no deletion of its own). The caller has checked that the asker is the class's instructor.
 */
export class ClassAnalytics {
  private readonly now: () => number;

  constructor(private readonly options: ClassAnalyticsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Null when there is no such class. */
  async forClass(classId: string): Promise<ClassAnalyticsReply | null> {
    const { sources } = this.options;
    const info = await sources.classInfo(classId);
    if (!info) return null;
    const roster = info.students.slice(0, MAX_ANALYTICS_STUDENTS);
    const [chapters, rooms, exams] = await Promise.all([this.chapters(info.materialId), sources.rooms(classId), sources.exams(classId)]);
    const answersOf = sources.quizAnswers(classId);
    const perStudent = await mapBounded(roster, STUDENTS_AT_ONCE, async (student) => {
      const [transcript, quizAnswers] = await Promise.all([sources.transcript(classId, student.sessionId), answersOf(student.sessionId)]);
      return { student, transcript, quizAnswers };
    });
    const examsOf = studentExams(exams);
    const evidence: StudentEvidence[] = perStudent.map(({ student, transcript, quizAnswers }) => ({
      sessionId: student.sessionId,
      nickname: student.nickname,
      transcript,
      quizAnswers,
      exams: examsOf(student.sessionId),
    }));
    const assessments = [...rooms.map(analyseRoom), ...exams.filter((exam) => !exam.selfStudy).map(analyseExam)].sort((left, right) => right.at - left.at);
    return {
      classId,
      name: info.name,
      generatedAt: this.now(),
      assessments,
      mastery: withoutEvidence(masteryMap(chapters, evidence, { evidence: false })),
      funnel: lectureFunnel(
        chapters,
        perStudent.map(({ student, transcript }) => ({ chapter: student.chapter, state: student.state, transcript })),
      ),
    };
  }

  /**
   * One cell of the mastery map with its facts: the student's own records only (and the class's exams). Null when
   * the class, the student in it or the column does not exist.
   */
  async evidence(classId: string, sessionId: string, chapter: number): Promise<MasteryEvidenceReply | null> {
    const { sources } = this.options;
    const info = await sources.classInfo(classId);
    const student = info?.students.find((entry) => entry.sessionId === sessionId);
    if (!info || !student) return null;
    const [chapters, exams, transcript, quizAnswers] = await Promise.all([
      this.chapters(info.materialId),
      sources.exams(classId),
      sources.transcript(classId, sessionId),
      sources.quizAnswers(classId)(sessionId),
    ]);
    const map = masteryMap(chapters, [{ sessionId, nickname: student.nickname, transcript, quizAnswers, exams: studentExams(exams)(sessionId) }]);
    const column = map.chapters.findIndex((entry) => entry.index === chapter);
    const cell = map.students[0]?.cells[column];
    if (column < 0 || !cell) return null;
    return { sessionId, nickname: student.nickname, chapter: map.chapters[column]!, mastery: cell.mastery, evidence: cell.evidence };
  }

  private chapters(materialId: string | null): Promise<{ index: number; title: string }[]> {
    return materialId === null ? Promise.resolve([]) : this.options.sources.chapters(materialId);
  }
}
