import { z } from 'zod';
import type { OfflineTasks } from '../../llm/index.js';
import { keyTerms, withParticle } from '../../text/index.js';
import { LECTURE_TASKS } from '../lecture-prompts.js';
import { pickModelAnswer } from '../model-answer.js';
import { judgeOfflineAnswer, studentConcepts } from './offline-judge.js';
import { writeOfflineLecture } from './offline-lecture.js';
import { offlineSubconcepts } from './offline-subconcepts.js';
import { TUTOR_TASKS } from '../qa-tutor.js';

/**
 * The offline model's answers for the lecture agents: extractive and deterministic, built from the structured
 * input each agent passes (never from the prompt text).
 */
const LectureInput = z.object({ title: z.string(), text: z.string(), prefix: z.string().default('') });
const QuestionInput = z.object({ question: z.string(), lecture: z.string(), passages: z.array(z.string()).default([]) });
const JudgeInput = z.object({ question: z.string(), modelAnswer: z.string(), answer: z.string(), lecture: z.string().optional() });
const SupplementInput = z.object({ question: z.string(), lecture: z.string(), modelAnswer: z.string(), answer: z.string() });
const RemedialInput = z.object({ concept: z.string(), explanation: z.string(), question: z.string(), answer: z.string() });

/** `'term'` followed by the particle that fits the term (not the quote mark). */
function quoted(term: string, pair: '을/를' | '이/가'): string {
  return `'${term}'${withParticle(term, pair).slice(term.length)}`;
}

export const lectureOfflineTasks: OfflineTasks = {
  [LECTURE_TASKS.write]: {
    text: (input) => writeOfflineLecture(LectureInput.parse(input)),
  },
  [LECTURE_TASKS.continue]: {
    // The offline lecture is deterministic, so continuing means writing it again and skipping what was sent.
    text: (input) => {
      const { title, text, prefix } = LectureInput.parse(input);
      const full = writeOfflineLecture({ title, text });
      return full.startsWith(prefix) ? full.slice(prefix.length) : '';
    },
  },
  [TUTOR_TASKS.modelAnswer]: {
    object: (input) => {
      const { question, lecture, passages } = QuestionInput.parse(input);
      // The lecture the student heard first (the offline lecture is the material's own sentences), then the
      // retrieved passages (they reach other chapters), the question itself only when neither has a sentence.
      const modelAnswer = pickModelAnswer(question, lecture) || pickModelAnswer(question, passages.join('\n')) || question;
      const keyPoints = studentConcepts(keyTerms(modelAnswer, 10), '', modelAnswer, 5);
      return { modelAnswer, keyPoints: keyPoints.length > 0 ? keyPoints : [modelAnswer.slice(0, 40)] };
    },
  },
  [TUTOR_TASKS.judge]: {
    object: (input) => {
      const { question, modelAnswer, answer, lecture } = JudgeInput.parse(input);
      const judgement = judgeOfflineAnswer({ question, modelAnswer, answer, ...(lecture === undefined ? {} : { lecture }) });
      return { verdict: judgement.verdict, feedback: judgement.feedback };
    },
  },
  [TUTOR_TASKS.subconcepts]: {
    object: (input) => {
      const { question, lecture } = QuestionInput.parse(input);
      return { subconcepts: offlineSubconcepts({ question, passage: lecture }) };
    },
  },
  [TUTOR_TASKS.supplement]: {
    text: (input) => {
      const { question, modelAnswer } = SupplementInput.parse(input);
      // Shown after the verdict: the model answer the student was judged against, and the ideas it joins.
      const terms = studentConcepts(keyTerms(modelAnswer, 10), question, modelAnswer, 3);
      const focus = terms.length > 1 ? `핵심은 ${quoted(terms.join("', '"), '이/가')} 어떻게 연결되는지입니다. ` : '';
      return `**정리해 볼까요?** 모범 답안은 이렇습니다.\n\n${modelAnswer}\n\n${focus}이 점을 기억하면서 강의를 이어가겠습니다.\n`;
    },
  },
  [TUTOR_TASKS.remedial]: {
    text: (input) => {
      const { concept, explanation } = RemedialInput.parse(input);
      return `${quoted(concept, '을/를')} 다시 한 번 살펴볼게요.\n\n${explanation}\n\n이 내용을 떠올리며 다음 질문으로 넘어가 봅시다.\n`;
    },
  },
};
