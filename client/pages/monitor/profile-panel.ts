// A student's learner profile on the monitor (GET /api/classes/:id/students/:sessionId/profile) with the
// instructor's learning-goal editor (target depth and their own words; PATCH the same path). Topics and evidence are
// model text: set as text only.
import { setLearningGoal, studentProfile, type LearnerProfile, type TargetDepth } from '../../net/exams.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { DEPTH_CHOICES, learnerProfileView } from '../../ui/learner-profile.js';
import { requestFailure } from '../../net/http.js';

const panel = $('profile-panel');
const title = $('profile-title');
const body = $('profile-body');

export class ProfilePanel {
  private openFor: string | null = null;

  constructor(private readonly classId: () => string | null) {
    $('profile-close').addEventListener('click', () => this.close());
  }

  close(): void {
    this.openFor = null;
    panel.hidden = true;
    body.replaceChildren();
  }

  async open(sessionId: string, nickname: string): Promise<void> {
    const classId = this.classId();
    if (!classId) return;
    this.openFor = sessionId;
    panel.hidden = false;
    title.textContent = `${nickname} 학생의 학습 프로필`;
    body.replaceChildren(element('p', { className: 'muted', text: '불러오는 중…' }));
    try {
      const { profile } = await studentProfile(classId, sessionId);
      if (this.openFor === sessionId) this.render(classId, sessionId, profile);
    } catch (error) {
      if (this.openFor === sessionId) body.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
    }
    panel.scrollIntoView({ block: 'nearest' });
  }

  private render(classId: string, sessionId: string, profile: LearnerProfile): void {
    const depth = element('select', { id: 'goal-depth', 'data-testid': 'goal-depth' }, ...DEPTH_CHOICES.map(([value, label]) => element('option', { value, text: label })));
    depth.value = profile.learning_goal.target_depth;
    const description = element('input', { id: 'goal-description', type: 'text', maxLength: 500, value: profile.learning_goal.description, placeholder: '예: 분산과 표준편차의 차이를 설명할 수 있기', 'data-testid': 'goal-description' });
    const save = element('button', { type: 'button', 'data-testid': 'goal-save', text: '학습 목표 저장' });
    const note = element('p', { className: 'muted', role: 'status', 'data-testid': 'goal-note' });
    save.addEventListener('click', () => {
      void whileBusy(save, '저장하는 중…', async () => {
        try {
          const { profile: stored } = await setLearningGoal(classId, sessionId, { target_depth: depth.value as TargetDepth, description: description.value.trim() });
          if (this.openFor !== sessionId) return;
          this.render(classId, sessionId, stored);
          body.querySelector('[data-testid=goal-note]')?.replaceChildren('학습 목표를 저장했습니다. 다음 시험부터 반영됩니다.');
        } catch (error) {
          note.textContent = requestFailure(error);
        }
      });
    });
    body.replaceChildren(
      learnerProfileView(profile),
      element(
        'fieldset',
        { className: 'goal-editor' },
        element('legend', { text: '학습 목표 정하기' }),
        element('label', { for: 'goal-depth', text: '목표 깊이' }),
        depth,
        element('label', { for: 'goal-description', text: '목표 설명' }),
        description,
        save,
        note,
      ),
    );
  }
}
