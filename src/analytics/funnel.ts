import type { FunnelStep, LectureFunnel } from '../protocol/wire/analytics.js';
import type { TranscriptItem } from '../protocol/wire/tutor.js';

/** What the funnel reads of one student: the roster's progress (chapter −1 before the lecture) and the transcript. */
export interface StudentProgress {
  chapter: number;
  state: string;
  transcript: readonly TranscriptItem[];
}

/**
 * How far the class got, chapter by chapter in lecture order. A student reached a chapter when the roster's current
 * chapter is it or a later one, when the lecture is finished, or when the transcript has anything in it (a student
 * whose progress write was lost still counts where they demonstrably were); completed it when they reached a later
 * chapter or finished. Hands are raise-hand dialogues closed in the chapter; remediated counts students with a bad
 * verdict on one of the chapter's questions (the tutor then walks them through subconcepts).
 */
export function lectureFunnel(chapters: readonly { index: number; title: string }[], students: readonly StudentProgress[]): LectureFunnel {
  const order = new Map(chapters.map((chapter, position) => [chapter.index, position]));
  const furthest = students.map((student) => {
    if (student.state === 'finished') return chapters.length;
    let position = order.get(student.chapter) ?? -1;
    for (const item of student.transcript) position = Math.max(position, order.get(item.chapter) ?? -1);
    return position;
  });
  const steps: FunnelStep[] = chapters.map((chapter, position) => {
    let hands = 0;
    let handStudents = 0;
    let remediated = 0;
    for (const student of students) {
      const questions = new Set<string>();
      let raised = 0;
      let bad = false;
      for (const item of student.transcript) {
        if (item.chapter !== chapter.index) continue;
        if (item.type === 'question') questions.add(item.questionId);
        else if (item.type === 'hand-closed') raised += 1;
        else if (item.type === 'verdict' && item.verdict === 'bad' && questions.has(item.questionId)) bad = true;
      }
      hands += raised;
      if (raised > 0) handStudents += 1;
      if (bad) remediated += 1;
    }
    return {
      chapter: chapter.index,
      title: chapter.title,
      reached: furthest.filter((at) => at >= position).length,
      completed: furthest.filter((at) => at > position).length,
      hands,
      handStudents,
      remediated,
    };
  });
  return { students: students.length, steps };
}
