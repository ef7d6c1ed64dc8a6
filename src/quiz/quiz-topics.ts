import { DOCUMENT_TYPES, LEVEL_OF_DIFFICULTY, type DocumentType, type Level, type RetrievalFilters, type Retriever } from '../retrieval/index.js';
import type { Difficulty, QuizTopicName } from '../protocol/quiz.js';

/**
 * What a quiz is about, as retrieval filters (seed 001, 기능 A): a `topic` picks a `document_type`, a difficulty a
 * `level`, a chapter a chapter. The topic map is configuration, not code: {@link SEED_TOPIC_MAP} is the seed's own
 * example (trade-practice topics); an instructor can also name any document type directly (`definition`,
 * `procedure`, …), and `general` means no document-type filter.
 */

export interface QuizTopic {
  documentType?: DocumentType;
  /** Retrieval query words for the topic (Korean and English cue words of its document type). */
  query: string;
}

export type TopicMap = Readonly<Record<string, QuizTopic>>;

/** Seed 001's example map (mistakes → common_mistake, …) plus `general`. */
export const SEED_TOPIC_MAP: TopicMap = {
  general: { query: '' },
  mistakes: { documentType: 'common_mistake', query: '흔한 실수 오해 주의 오류 mistake pitfall error' },
  negotiation: { documentType: 'negotiation_strategy', query: '협상 전략 전술 negotiation strategy' },
  country: { documentType: 'country_guideline', query: '국가 지역 규정 지침 country regulation' },
  documents: { documentType: 'error_checklist', query: '서류 점검 확인 체크리스트 checklist document' },
};

// The wire's topic names list every document type: a new type added to retrieval/metadata.ts fails to compile here
// until the protocol names it too.
const _everyTypeIsATopic: readonly QuizTopicName[] = DOCUMENT_TYPES;
void _everyTypeIsATopic;

/** The topic of a name: a map entry, else a document type named directly (its name is its query), else undefined. */
export function resolveTopic(name: string, map: TopicMap = SEED_TOPIC_MAP): QuizTopic | undefined {
  const mapped = map[name];
  if (mapped) return mapped;
  const type = DOCUMENT_TYPES.find((entry) => entry === name);
  return type === undefined ? undefined : { documentType: type, query: type.replaceAll('_', ' ') };
}

/** Seed 001: easy → beginner, medium → working, hard → manager; no difficulty → no level filter. */
export function levelOf(difficulty: Difficulty | undefined): Level | undefined {
  return difficulty === undefined ? undefined : LEVEL_OF_DIFFICULTY[difficulty];
}

/** The filters a quiz request asks for (before any relaxing). */
export function quizFilters(options: { chapter?: number | undefined; topic?: QuizTopic | undefined; difficulty?: Difficulty | undefined }): RetrievalFilters {
  const level = levelOf(options.difficulty);
  return {
    ...(options.chapter === undefined ? {} : { chapter: options.chapter }),
    ...(options.topic?.documentType === undefined ? {} : { documentType: options.topic.documentType }),
    ...(level === undefined ? {} : { level }),
  };
}

/** A topic a material can be quizzed on, and how many of its passages the topic's filter allows. */
export interface MaterialTopic {
  name: string;
  documentType: DocumentType | null;
  passages: number;
}

/**
 * The topics to offer for a material: `general` (every passage), then each topic of the map whose document type the
 * material has, then each document type it has, named directly. A topic the material has no passage of is not
 * offered: the seed's trade-practice names appear only for material that has such passages.
 */
export async function materialTopics(retriever: Pick<Retriever, 'passages'>, materialId: string, map: TopicMap = SEED_TOPIC_MAP): Promise<MaterialTopic[]> {
  const passages = await retriever.passages(materialId);
  const counts = new Map<DocumentType, number>();
  for (const passage of passages) counts.set(passage.documentType, (counts.get(passage.documentType) ?? 0) + 1);
  const topics: MaterialTopic[] = [{ name: 'general', documentType: null, passages: passages.length }];
  for (const [name, topic] of Object.entries(map)) {
    const count = topic.documentType === undefined ? 0 : (counts.get(topic.documentType) ?? 0);
    if (topic.documentType !== undefined && count > 0) topics.push({ name, documentType: topic.documentType, passages: count });
  }
  for (const type of DOCUMENT_TYPES) {
    const count = counts.get(type) ?? 0;
    if (count > 0 && !topics.some((topic) => topic.name === type)) topics.push({ name: type, documentType: type, passages: count });
  }
  return topics;
}
