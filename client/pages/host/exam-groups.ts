// 묶어서 채점 on a published exam's results: one item's answers grouped by meaning
// (GET /api/exams/:id/items/:q/groups, groups waiting for review first); per group a status, a reason and one
// button that decides every answer of it; per answer 묶음에서 빼기 (and back in). A group that changed since it was
// shown is refused by the server (EXAM_GROUP_NOT_FOUND): the message is shown and the groups are read again.
// The panel is kept across the results' refreshes (the same element for the same exam), so an open item stays open.
// Student text and nicknames are set as text only.
import { answerGroups, gradeGroup, moveAnswer, STATUS_LABELS, type AnswerGroup, type AnswerGroups, type GradeStatus, type ResultStatus } from '../../net/exams.js';
import { requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { withRo } from '../../ui/messages.js';
import { verdictForm } from './verdict-form.js';

const CHOICES: readonly ResultStatus[] = ['Correct', 'Partial_Correct', 'Incorrect'];

let kept: { examId: string; panel: HTMLElement; changed: () => void } | undefined;

const badge = (status: GradeStatus) => element('span', { className: `exam-status status-${status}`, 'data-testid': 'group-answer-status', 'data-status': status, text: STATUS_LABELS[status] });

/**
 * The 묶어서 채점 panel of an exam (the same element while the exam is the same); `changed` runs after a decision
 * (the results page reads the results again).
 */
export function groupGradingPanel(examId: string, questionIds: readonly number[], changed: () => void): HTMLElement {
  if (kept?.examId === examId) {
    // The results may have been drawn in a new container since: refresh that one after a decision.
    kept.changed = changed;
    return kept.panel;
  }
  const item = element('select', { 'data-testid': 'group-item', 'aria-label': '묶어서 채점할 문항' }, ...questionIds.map((id) => element('option', { value: String(id), text: `${id}번` })));
  const open = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'group-open', text: '묶어서 채점' });
  const list = element('div', { className: 'answer-groups', 'data-testid': 'group-list' });
  const panel = element(
    'section',
    { className: 'exam-groups', 'data-testid': 'exam-groups' },
    element('h5', { text: '묶어서 채점' }),
    element('p', { className: 'muted', text: '뜻이 비슷한 답끼리 묶었습니다. 검토가 필요한 묶음이 먼저 나옵니다. 묶음마다 판정과 이유를 정하면 묶음의 모든 답에 적용되고, 학생 화면도 바로 바뀝니다.' }),
    element('p', { className: 'exam-override' }, item, open),
    list,
  );
  const afterDecision = () => kept?.changed();
  const show = async (questionId: number, note?: string): Promise<void> => {
    try {
      render(examId, await answerGroups(examId, questionId), list, afterDecision, show, note);
    } catch (error) {
      list.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
    }
  };
  open.addEventListener('click', () => void whileBusy(open, '묶는 중…', () => show(Number(item.value))));
  kept = { examId, panel, changed };
  return panel;
}

type Show = (questionId: number, note?: string) => Promise<void>;

function render(examId: string, reply: AnswerGroups, list: HTMLElement, changed: () => void, show: Show, note?: string): void {
  const method = reply.method === 'embeddings' ? '모델 임베딩으로 묶음' : '낱말로 묶음';
  list.replaceChildren(
    element('p', { className: 'muted', 'data-testid': 'group-summary', 'data-question-id': reply.questionId, text: `${reply.questionId}번 · 답 ${reply.groups.reduce((sum, group) => sum + group.size, 0)}개, 묶음 ${reply.groups.length}개 · ${method}` }),
    ...(note === undefined ? [] : [element('p', { className: 'muted', role: 'status', 'data-testid': 'group-list-note', text: note })]),
    ...(reply.groups.length === 0 ? [element('p', { className: 'muted', text: '아직 이 문항에 제출된 답이 없습니다.' })] : reply.groups.map((group, index) => groupView(examId, reply.questionId, group, index, list, changed, show))),
  );
}

/** The status a group's select starts from: the grader's proposal for a group under review, else the most common status. */
function startingStatus(group: AnswerGroup): ResultStatus | undefined {
  const proposed = group.answers.find((answer) => answer.status === 'Needs_Review' && answer.proposed !== undefined)?.proposed;
  if (proposed !== undefined) return proposed;
  const counts = new Map<ResultStatus, number>();
  for (const answer of group.answers) if ((CHOICES as string[]).includes(answer.status)) counts.set(answer.status as ResultStatus, (counts.get(answer.status as ResultStatus) ?? 0) + 1);
  return [...counts].sort((left, right) => right[1] - left[1])[0]?.[0];
}

/** A group said by its students: `민준`, `민준, 서연`, `민준, 서연, 지호 외 4명`. */
function groupNames(group: AnswerGroup): string {
  const names = group.answers.map((answer) => answer.nickname || '(이름 없음)');
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} 외 ${names.length - 3}명`;
}

function groupView(examId: string, questionId: number, group: AnswerGroup, index: number, list: HTMLElement, changed: () => void, show: Show): HTMLElement {
  const form = verdictForm({
    testId: 'group',
    start: startingStatus(group),
    statusLabel: `묶음 ${index + 1} 판정`,
    reasonLabel: `묶음 ${index + 1} 판정 이유`,
    placeholder: '판정 이유 (묶음의 모든 학생에게 보입니다)',
    applyText: `묶음 전체 채점 (${group.size}명)`,
    applyClass: 'small',
    busyText: '채점하는 중…',
    async submit(status, why, apply) {
      const graded = await gradeGroup(examId, questionId, group.groupId, status, why);
      apply.blur();
      // Named by its students, not its place: the groups are listed again in a new order after a decision.
      await show(questionId, `${groupNames(group)}의 판정을 ${withRo(STATUS_LABELS[graded.status])} 정했습니다 (${graded.graded.length}명).`);
      changed();
    },
    // A group changed meanwhile (or any other refusal): say why, then show the groups as they are now.
    failed: (error) => show(questionId, requestFailure(error)),
  });
  const reviewing = group.answers.filter((answer) => answer.status === 'Needs_Review').length;
  return element(
    'article',
    { className: 'answer-group', 'data-testid': 'answer-group', 'data-group-id': group.groupId, 'data-size': group.size, 'data-needs-review': String(group.needsReview), 'data-detached': String(group.detached) },
    element(
      'p',
      { className: 'answer-group-head' },
      element('strong', { text: `묶음 ${index + 1}` }),
      element('span', { className: 'muted', text: ` · 답 ${group.size}개${group.detached ? ' · 따로 뺀 답' : ''}` }),
      reviewing > 0 ? element('span', { className: 'exam-review-needed', 'data-testid': 'group-needs-review', text: ` 검토 필요 ${reviewing}개` }) : null,
    ),
    element(
      'ul',
      { className: 'answer-group-answers' },
      ...group.answers.map((answer) => {
        const move = element('button', { type: 'button', className: 'secondary small', 'data-testid': group.detached ? 'group-move-in' : 'group-move-out', text: group.detached ? '묶음에 다시 넣기' : '묶음에서 빼기', hidden: !group.detached && group.size < 2 });
        move.addEventListener('click', () =>
          void whileBusy(move, '옮기는 중…', async () => {
            try {
              render(examId, await moveAnswer(examId, questionId, answer.sessionId, group.detached ? 'move-in' : 'move-out'), list, changed, show, `${answer.nickname || '학생'}의 답을 ${group.detached ? '다시 묶었습니다' : '묶음에서 뺐습니다'}.`);
            } catch (error) {
              await show(questionId, requestFailure(error));
            }
          }),
        );
        return element(
          'li',
          { 'data-testid': 'group-answer', 'data-session-id': answer.sessionId },
          element('strong', { 'data-testid': 'group-answer-nickname', text: answer.nickname || '(이름 없음)' }),
          ' ',
          badge(answer.status),
          ' ',
          element('span', { 'data-testid': 'group-answer-text', text: answer.text || '(비어 있음)' }),
          answer.overridden ? element('span', { className: 'muted', text: ` · 이유: ${answer.overridden.reason}` }) : null,
          ' ',
          move,
        );
      }),
    ),
    form,
  );
}
