import { EXAM_DEPTH_LABELS, EXAM_LEVEL_LABELS, type ExamMixSource } from '../protocol/wire/exams.js';
import { COMPLEXITY_LEVELS, TARGET_DEPTHS, type ComplexityLevel, type LearnerProfile, type QuestionType, type TargetDepth, type TopicEvidence } from './exam-types.js';

/**
 * Seed 000's planner, when the request gives only the count: the short-answer/descriptive balance chosen from the
 * learner profile (`Execute_Generator_PriorProfile(prev_userProfile, exam_type)` → plan), with the reason in Korean
 * for the plan. Pure arithmetic, the server decides (like the profile itself):
 *
 * - The profile's `preferred_question_types` first: only Short_Keyword (a Basic learner) is all short-answer, only
 *   Descriptive all descriptive.
 * - Otherwise the descriptive share follows the proficiency ({@link DESCRIPTIVE_SHARE}: Basic 20 %, Intermediate 40 %,
 *   Advanced 60 %), moved by the instructor's target depth (Basic Recall −20 points, Deep Understanding +20),
 *   rounded, and with two items or more each type keeps at least one.
 * - No profile at all: {@link DEFAULT_DESCRIPTIVE_SHARE}, and the reason says there was none.
 *
 * An instructor's class exam is planned from the class's aggregated profile ({@link classProfile}): the students'
 * mean proficiency, their most common target depth, the item types most of them prefer, and the topics weak (strong)
 * for most students, most shared first.
 */

export const DESCRIPTIVE_SHARE: Record<ComplexityLevel, number> = { Basic: 0.2, Intermediate: 0.4, Advanced: 0.6 };
const DEPTH_SHIFT: Record<TargetDepth, number> = { 'Basic Recall': -0.2, 'Conceptual Understanding': 0, 'Deep Understanding': 0.2 };
export const DEFAULT_DESCRIPTIVE_SHARE = 0.4;
const MAX_CLASS_TOPICS = 10;

export interface ExamMix {
  descriptive: number;
  source: ExamMixSource;
  /** Why this balance (Korean, for the plan's strategy and the instructor). */
  reason: string;
}

const TYPE_LABEL: Record<QuestionType, string> = { Short_Keyword: '단답형', Descriptive: '서술형' };

const split = (count: number, descriptive: number) => `단답형 ${count - descriptive}문항, 서술형 ${descriptive}문항`;

/** The balance of a request that gave only `count`, from `profile` (a student's, or a class's aggregate). */
export function chooseMix(count: number, profile: LearnerProfile | null, whose: { kind: 'student' } | { kind: 'class'; students: number }): ExamMix {
  const source: ExamMixSource = profile === null ? 'default' : whose.kind === 'class' ? 'class-profile' : 'profile';
  if (profile === null) {
    const descriptive = Math.round(count * DEFAULT_DESCRIPTIVE_SHARE);
    const who = whose.kind === 'class' ? '이 수업에는 아직 학습자 프로필이 없어' : '학습자 프로필이 없어';
    return { descriptive, source, reason: `${who} 기본 구성(서술형 약 ${DEFAULT_DESCRIPTIVE_SHARE * 100}%)으로 정함: ${split(count, descriptive)}.` };
  }
  const owner = whose.kind === 'class' ? `수업 학생 ${whose.students}명의 종합 프로필` : '학습자 프로필';
  const { proficiency_level: proficiency } = profile.user_status;
  const { target_depth: targetDepth } = profile.learning_goal;
  // The reason is shown to people (the exam pages): levels and depths in words, never their enum names.
  const level = EXAM_LEVEL_LABELS[proficiency];
  const depth = EXAM_DEPTH_LABELS[targetDepth];
  const preferred = profile.preferred_question_types;
  if (preferred.length === 1) {
    const only = preferred[0] as QuestionType;
    const descriptive = only === 'Descriptive' ? count : 0;
    return { descriptive, source, reason: `${owner}의 선호 문항 유형이 ${TYPE_LABEL[only]}뿐(숙련도 ${level})이라 모두 ${TYPE_LABEL[only]}으로 정함: ${split(count, descriptive)}.` };
  }
  const share = Math.min(1, Math.max(0, DESCRIPTIVE_SHARE[proficiency] + DEPTH_SHIFT[targetDepth]));
  let descriptive = Math.round(count * share);
  if (count >= 2) descriptive = Math.min(count - 1, Math.max(1, descriptive));
  const weak = profile.user_status.weak_topics.length;
  const weakNote = weak > 0 ? ` 약한 주제 ${weak}개를 계획에서 우선함.` : '';
  return {
    descriptive,
    source,
    reason: `${owner}의 숙련도 ${level}, 목표 깊이 ${depth}에 맞춰 서술형 비중을 ${Math.round(share * 100)}%로 정함: ${split(count, descriptive)}.${weakNote}`,
  };
}

/** The mix a request named itself. */
export function requestedMix(count: number, descriptive: number): ExamMix {
  return { descriptive, source: 'request', reason: `요청한 구성: ${split(count, descriptive)}.` };
}

/** The topics most students share on one side, most shared first, each with how many students. */
function sharedTopics(lists: readonly TopicEvidence[][], students: number): TopicEvidence[] {
  const counts = new Map<string, { topic: string; students: number }>();
  for (const list of lists) {
    const seen = new Set<string>();
    for (const { topic } of list) {
      const key = topic.normalize('NFKC').toLowerCase().trim();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      const entry = counts.get(key) ?? { topic, students: 0 };
      entry.students += 1;
      counts.set(key, entry);
    }
  }
  return [...counts.values()]
    .filter((entry) => entry.students * 2 >= students)
    .sort((left, right) => right.students - left.students)
    .slice(0, MAX_CLASS_TOPICS)
    .map((entry) => ({ topic: entry.topic, evidence: [`수업 학생 ${students}명 중 ${entry.students}명`] }));
}

/** The class's aggregated learner profile (see the module comment); null for a class with no student profile. */
export function classProfile(profiles: readonly LearnerProfile[], now: number): LearnerProfile | null {
  if (profiles.length === 0) return null;
  const rank = profiles.reduce((sum, profile) => sum + COMPLEXITY_LEVELS.indexOf(profile.user_status.proficiency_level), 0) / profiles.length;
  const proficiency = COMPLEXITY_LEVELS[Math.round(rank)] as ComplexityLevel;
  const depths = TARGET_DEPTHS.map((depth) => ({ depth, count: profiles.filter((profile) => profile.learning_goal.target_depth === depth).length }));
  const depth = depths.reduce((best, entry) => (entry.count > best.count ? entry : best)).depth;
  const withPreference = profiles.filter((profile) => profile.preferred_question_types.length > 0);
  const preferred = (['Short_Keyword', 'Descriptive'] as const).filter(
    (type) => withPreference.length > 0 && withPreference.filter((profile) => profile.preferred_question_types.includes(type)).length * 2 >= withPreference.length,
  );
  return {
    learning_goal: { target_depth: depth, description: '' },
    user_status: {
      proficiency_level: proficiency,
      weak_topics: sharedTopics(profiles.map((profile) => profile.user_status.weak_topics), profiles.length),
      strong_topics: sharedTopics(profiles.map((profile) => profile.user_status.strong_topics), profiles.length),
    },
    preferred_question_types: preferred,
    exams_taken: [],
    updated_at: now,
  };
}
