// A learner profile as the classroom ("나의 학습 프로필") and the monitor show it: proficiency, the
// learning goal, weak and strong topics each with the evidence it was concluded from, preferred item types. Topics
// and evidence are model and student text: textContent only.
import type { ExamLearnerProfile as LearnerProfile } from '../../src/protocol/wire/index.js';
import { element } from './dom.js';

const LEVELS: Record<LearnerProfile['user_status']['proficiency_level'], string> = { Basic: '기초', Intermediate: '중급', Advanced: '심화' };
const DEPTHS: Record<LearnerProfile['learning_goal']['target_depth'], string> = {
  'Basic Recall': '기본 암기',
  'Conceptual Understanding': '개념 이해',
  'Deep Understanding': '깊은 이해',
};
const TYPES: Record<LearnerProfile['preferred_question_types'][number], string> = { Short_Keyword: '단답형', Descriptive: '서술형' };

export const depthLabel = (depth: LearnerProfile['learning_goal']['target_depth']) => DEPTHS[depth];
export const DEPTH_CHOICES = Object.entries(DEPTHS) as [LearnerProfile['learning_goal']['target_depth'], string][];

function topicList(title: string, testId: string, topics: LearnerProfile['user_status']['weak_topics'], empty: string): HTMLElement {
  return element(
    'section',
    { className: 'profile-topics', 'data-testid': testId },
    element('h4', { text: title }),
    topics.length === 0
      ? element('p', { className: 'muted', text: empty })
      : element(
          'ul',
          {},
          ...topics.map((topic) =>
            element(
              'li',
              { 'data-testid': 'profile-topic' },
              element('strong', { text: topic.topic }),
              topic.evidence.length > 0 ? element('ul', { className: 'profile-evidence muted' }, ...topic.evidence.map((line) => element('li', { text: line }))) : null,
            ),
          ),
        ),
  );
}

/** The profile's parts (the caller puts them under its own heading). */
export function learnerProfileView(profile: LearnerProfile): HTMLElement {
  const status = profile.user_status;
  const goal = profile.learning_goal;
  const preferred = profile.preferred_question_types.map((type) => TYPES[type]).join(', ');
  return element(
    'div',
    { className: 'learner-profile', 'data-testid': 'learner-profile' },
    element(
      'dl',
      { className: 'profile-facts' },
      element('dt', { text: '수준' }),
      element('dd', { 'data-testid': 'profile-level', text: LEVELS[status.proficiency_level] }),
      element('dt', { text: '학습 목표' }),
      element('dd', { 'data-testid': 'profile-goal', text: goal.description ? `${DEPTHS[goal.target_depth]} · ${goal.description}` : DEPTHS[goal.target_depth] }),
      element('dt', { text: '선호 유형' }),
      element('dd', { text: preferred || '아직 없음' }),
      element('dt', { text: '반영된 시험' }),
      element('dd', { text: `${profile.exams_taken.length}회` }),
    ),
    topicList('보완할 주제', 'profile-weak', status.weak_topics, '아직 찾은 약한 주제가 없어요.'),
    topicList('잘하는 주제', 'profile-strong', status.strong_topics, '아직 찾은 강한 주제가 없어요.'),
  );
}
