import { z } from 'zod';
import { DOCUMENT_TYPE_NAMES } from '../protocol/wire/quiz.js';

/**
 * What a passage is (`document_type`) and who it is for (`level`): the metadata seed 001 filters its retrieval on.
 * The type names are the wire protocol's (`DOCUMENT_TYPE_NAMES`, which the quiz topics extend); their meanings and
 * schemas are here.
 */
export const DOCUMENT_TYPES = DOCUMENT_TYPE_NAMES;
export const DocumentTypeSchema = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

/** What each type means, for the analyst agent's prompt and for people. */
export const DOCUMENT_TYPE_MEANINGS: Readonly<Record<DocumentType, string>> = {
  definition: '용어나 개념의 정의 (… is defined as, …란 …이다)',
  explanation: '개념이나 원리의 설명 (다른 유형에 해당하지 않는 본문)',
  example: '예시, 계산 예, 예제 (for example, 예를 들어)',
  common_mistake: '흔한 실수, 오해, 주의할 점 (mistake, pitfall, 주의, 오류)',
  procedure: '순서가 있는 절차나 단계 (step 1, 먼저 … 다음에 …)',
  error_checklist: '확인할 항목이나 오류 점검 목록 (checklist, 체크리스트, 점검 항목)',
  case: '실제 사례, 사례 연구 (case study, A사의 사례)',
  guideline: '권고, 지침, 모범 관행 (should, recommended, 권장, 지침)',
  country_guideline: '특정 국가나 지역에 관한 지침 (미국에서는, in the EU)',
  negotiation_strategy: '협상 전략이나 전술 (negotiation, 협상)',
};

export const LEVELS = ['beginner', 'working', 'manager'] as const;
export const LevelSchema = z.enum(LEVELS);
export type Level = z.infer<typeof LevelSchema>;

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** Seed 001: easy → beginner, medium → working, hard → manager. */
export const LEVEL_OF_DIFFICULTY: Readonly<Record<Difficulty, Level>> = { easy: 'beginner', medium: 'working', hard: 'manager' };
