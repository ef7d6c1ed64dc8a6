import type { TranscriptItem } from '../protocol/wire/tutor.js';
import type { LearnerSignals } from './exam-types.js';

/**
 * What a student's lecture transcript says about them, for `Execute_Generator_PriorProfile`: each
 * comprehension question with the tutor's verdict and, for a bad one, the subconcepts the remediation went through
 * (the topics to work on) and the verdict on the question asked again after them; and what the student asked with a raised hand (the first thing they wrote in each hand
 * dialogue). Pure: the caller pages the transcript in.
 */
export function lectureSignals(items: readonly TranscriptItem[]): Pick<LearnerSignals, 'lectureVerdicts' | 'handTopics'> {
  const questions = new Map<string, string>();
  /** Re-ask id -> the parent question's verdict entry it closes. */
  const reasks = new Map<string, string>();
  const byParent = new Map<string, LearnerSignals['lectureVerdicts'][number]>();
  const concepts = new Map<string, string[]>();
  const lectureVerdicts: LearnerSignals['lectureVerdicts'] = [];
  const handTopics: string[] = [];
  /** Whether the current hand dialogue's first student text was taken (a dialogue ends with `hand-closed`). */
  let taken = false;
  for (const item of items) {
    switch (item.type) {
      case 'question':
        questions.set(item.questionId, item.text);
        break;
      case 'subquestion': {
        const list = concepts.get(item.parentQuestionId) ?? [];
        if (!list.includes(item.concept)) list.push(item.concept);
        concepts.set(item.parentQuestionId, list);
        break;
      }
      case 'reask':
        reasks.set(item.questionId, item.parentQuestionId);
        break;
      case 'verdict': {
        const parent = reasks.get(item.questionId);
        if (parent !== undefined) {
          // The parent question asked again after its remediation: whether the student now has it.
          const entry = byParent.get(parent);
          if (entry) entry.afterRemediation = item.verdict === 'good' ? 'good' : 'bad';
          break;
        }
        const question = questions.get(item.questionId);
        // A subquestion's verdict belongs to its parent's remediation, not to a question of its own.
        if (question === undefined) break;
        const entry = { question: question.slice(0, 500), verdict: item.verdict === 'good' ? ('good' as const) : ('bad' as const), concepts: [], ...(item.selfAssessed ? { selfAssessed: true as const } : {}) };
        lectureVerdicts.push(entry);
        byParent.set(item.questionId, entry);
        break;
      }
      case 'student':
        if (!taken) handTopics.push(item.text.trim().slice(0, 200));
        taken = true;
        break;
      case 'hand-closed':
        taken = false;
        break;
      default:
        break;
    }
  }
  // Remediated subconcepts attach to the bad verdict of the question they came from.
  const byQuestion = [...questions.entries()];
  for (const verdict of lectureVerdicts) {
    if (verdict.verdict !== 'bad') continue;
    const questionId = byQuestion.find(([, text]) => text.slice(0, 500) === verdict.question)?.[0];
    verdict.concepts = (questionId === undefined ? [] : (concepts.get(questionId) ?? [])).slice(0, 10);
  }
  return { lectureVerdicts: lectureVerdicts.slice(-50), handTopics: handTopics.filter((topic) => topic !== '').slice(-30) };
}
