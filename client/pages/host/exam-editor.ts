// One exam in the host page's "시험 만들기" box (issue 15 §2–3): every item editable before it is published (question,
// model answer, key keywords as a comma or line list, intent; saved with PATCH /api/exams/:id/problems/:id) with the
// validator's open complaints beside it, then 수업에 게시 (a class and 제한 시간 in minutes, POST /api/exams/:id/publish),
// and, once published, its results (exam-results.ts). Model text is set as text only.
import type { ClassSummary } from '../../net/classes.js';
import { getExam, LEVEL_LABELS, openAsSelfStudy, patchProblem, publishExam, TYPE_LABELS, type ExamDetail, type ExamProblem } from '../../net/exams.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { showExamResults, stopExamResults } from './exam-results.js';
import { requestFailure } from '../../net/http.js';

const view = $('exam-view');

export interface ExamViewHost {
  classes(): ClassSummary[];
  /** The exam changed on the server (published): the list shows it. */
  changed(): void;
}

const INTENTS: Record<string, string> = {
  Recall: '기억',
  Definition: '정의',
  Comparison: '비교',
  Causal_Explanation: '원인 설명',
  Application_Scenario: '적용 상황',
};

let classSelect: HTMLSelectElement | null = null;
let shownExam: string | null = null;

/** Splits the keyword box: commas or new lines, blanks dropped, each once. */
export function keywordList(text: string): string[] {
  return [...new Set(text.split(/[,\n]/u).map((word) => word.trim()).filter((word) => word !== ''))];
}

/** The account's classes changed: the publish form offers them. */
export function updateExamClasses(classes: ClassSummary[]): void {
  if (!classSelect) return;
  const previous = classSelect.value;
  classSelect.replaceChildren(...classes.map((entry) => element('option', { value: entry.classId, text: `${entry.name} (코드 ${entry.code})` })));
  if (classes.some((entry) => entry.classId === previous)) classSelect.value = previous;
}

export async function openExamView(examId: string, host: ExamViewHost): Promise<void> {
  stopExamResults();
  shownExam = examId;
  view.hidden = false;
  view.replaceChildren(element('p', { className: 'muted', text: '시험을 불러오는 중…' }));
  let exam: ExamDetail;
  try {
    exam = await getExam(examId);
  } catch (error) {
    if (shownExam === examId) view.replaceChildren(element('p', { className: 'error', role: 'alert', 'data-testid': 'exam-view-error', text: requestFailure(error) }));
    return;
  }
  if (shownExam !== examId) return;
  render(exam, host);
}

function render(exam: ExamDetail, host: ExamViewHost): void {
  const draft = exam.status === 'draft';
  const complaints = new Map<number, string[]>();
  for (const complaint of exam.complaints) complaints.set(complaint.id, [...(complaints.get(complaint.id) ?? []), complaint.message]);
  const planned = new Map(exam.plan.planned_items.map((item) => [item.id, item]));
  const results = element('section', { className: 'exam-results', 'data-testid': 'exam-results' });
  view.dataset.examId = exam.examId;
  view.dataset.status = exam.status;
  view.replaceChildren(
    element('h3', { 'data-testid': 'exam-view-title', text: exam.title ?? '시험' }),
    element(
      'p',
      { className: 'muted', 'data-testid': 'exam-view-summary' },
      `${exam.problems.length}문항 · 검토 ${exam.rounds}회차 · ${exam.valid ? '검토 통과' : '지적이 남아 있음'}`,
      !exam.publication
        ? ' · 게시 전'
        : exam.publication.selfStudy
          ? ` · 혼자 보는 시험${exam.publication.student ? ' (학생이 만든 시험)' : ''} (시간 제한 없음)`
          : ` · 게시됨 (마감 ${new Date(exam.publication.deadline).toLocaleString('ko-KR')})`,
    ),
    element('ol', { className: 'exam-edit-list' }, ...exam.problems.map((problem) => itemEditor(exam.examId, problem, complaints.get(problem.id) ?? [], planned.get(problem.id), draft))),
    ...(draft ? [publishForm(exam, host)] : []),
    results,
  );
  if (exam.publication) void showExamResults(exam.examId, results);
}

function field(label: string, testId: string, value: string, rows: number, readOnly: boolean, hint?: string): { node: HTMLElement; input: HTMLTextAreaElement } {
  const input = element('textarea', { rows, readOnly, 'data-testid': testId, maxLength: 4000 });
  input.value = value;
  return { node: element('label', { className: 'field' }, label, hint ? element('span', { className: 'hint', text: ` ${hint}` }) : null, input), input };
}

function itemEditor(examId: string, problem: ExamProblem, complaints: string[], plan: ExamDetail['plan']['planned_items'][number] | undefined, editable: boolean): HTMLLIElement {
  const question = field('질문', 'exam-edit-question', problem.question_content, 3, !editable);
  const answer = field('모범 답안', 'exam-edit-answer', problem.model_answer, 3, !editable);
  const keywords = field('핵심 키워드', 'exam-edit-keywords', problem.key_keywords.join(', '), 2, !editable, '(쉼표나 줄바꿈으로 구분)');
  const intent = field('출제 의도', 'exam-edit-intent', problem.intent_diagnosis, 2, !editable);
  const save = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-edit-save', text: '이 문항 저장' });
  const saved = element('span', { className: 'muted', role: 'status', 'data-testid': 'exam-edit-status' });
  save.addEventListener('click', () => {
    const patch = {
      question_content: question.input.value.trim(),
      model_answer: answer.input.value.trim(),
      key_keywords: keywordList(keywords.input.value),
      intent_diagnosis: intent.input.value.trim(),
    };
    if (!patch.question_content || !patch.model_answer || !patch.intent_diagnosis) {
      saved.textContent = '질문, 모범 답안, 출제 의도는 비울 수 없습니다.';
      return;
    }
    void whileBusy(save, '저장하는 중…', async () => {
      try {
        const stored = await patchProblem(examId, problem.id, patch);
        keywords.input.value = stored.key_keywords.join(', ');
        saved.textContent = '저장했습니다.';
      } catch (error) {
        saved.textContent = requestFailure(error);
      }
    });
  });
  for (const { input } of [question, answer, keywords, intent]) input.addEventListener('input', () => (saved.textContent = '저장하지 않은 변경이 있습니다.'));
  const planLine = plan ? ` · ${plan.target_topic} · ${INTENTS[plan.intent_type] ?? plan.intent_type} · ${LEVEL_LABELS[plan.complexity_level]}` : '';
  return element(
    'li',
    { className: 'exam-edit-item', 'data-testid': 'exam-edit-item', 'data-id': problem.id, 'data-complaints': complaints.length },
    element('p', { className: 'exam-edit-head' }, element('strong', { text: `${problem.id}번 · ${TYPE_LABELS[problem.type]}` }), element('span', { className: 'muted', text: planLine })),
    complaints.length > 0
      ? element('ul', { className: 'exam-complaints', 'aria-label': '검토 지적' }, ...complaints.map((text) => element('li', { 'data-testid': 'exam-complaint', text: `검토 지적: ${text}` })))
      : null,
    question.node,
    answer.node,
    keywords.node,
    intent.node,
    editable ? element('div', { className: 'exam-edit-actions' }, save, saved) : null,
  );
}

function publishForm(exam: ExamDetail, host: ExamViewHost): HTMLElement {
  classSelect = element('select', { id: 'exam-class', 'data-testid': 'exam-class' });
  updateExamClasses(host.classes());
  const minutes = element('input', { id: 'exam-minutes', type: 'number', min: 1, max: 300, value: '20', inputMode: 'numeric', 'data-testid': 'exam-minutes' });
  const publish = element('button', { type: 'button', 'data-testid': 'exam-publish', text: '수업에 게시' });
  const note = element('p', { className: 'quiz-status', role: 'status', 'data-testid': 'exam-publish-status' });
  const select = classSelect;
  publish.addEventListener('click', () => {
    const limit = Number(minutes.value);
    if (!select.value) {
      note.textContent = '게시할 수업을 골라 주세요.';
      return;
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > 300) {
      note.textContent = '제한 시간은 1~300분 사이의 정수로 적어 주세요.';
      minutes.focus();
      return;
    }
    const className = select.selectedOptions[0]?.textContent ?? '';
    if (!window.confirm(`${className}에 ${limit}분 시험으로 게시할까요? 게시한 뒤에는 문항을 고칠 수 없습니다.`)) return;
    void whileBusy(publish, '게시하는 중…', async () => {
      try {
        await publishExam(exam.examId, select.value, limit);
        host.changed();
        await openExamView(exam.examId, host);
        view.querySelector('[data-testid=exam-view-summary]')?.append(element('span', { 'data-testid': 'exam-published', text: ` · ${className}에 게시했습니다.` }));
      } catch (error) {
        note.textContent = requestFailure(error);
      }
    });
  });
  // Or opened as self-study: no time limit, each student sees their result at their own submission.
  const selfStudy = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-open-self-study', text: '혼자 보는 시험으로 열기' });
  selfStudy.addEventListener('click', () => {
    if (!select.value) {
      note.textContent = '시험을 열 수업을 골라 주세요.';
      return;
    }
    const className = select.selectedOptions[0]?.textContent ?? '';
    if (!window.confirm(`${className}에 시간 제한 없는 혼자 보는 시험으로 열까요? 학생마다 제출하면 바로 결과를 봅니다. 연 뒤에는 문항을 고칠 수 없습니다.`)) return;
    void whileBusy(selfStudy, '여는 중…', async () => {
      try {
        await openAsSelfStudy(exam.examId, select.value);
        host.changed();
        await openExamView(exam.examId, host);
      } catch (error) {
        note.textContent = requestFailure(error);
      }
    });
  });
  return element(
    'fieldset',
    { className: 'group exam-publish' },
    element('legend', { text: '수업에 게시' }),
    element(
      'div',
      { className: 'field-row' },
      element('label', { className: 'field', for: 'exam-class' }, '수업', select),
      element('label', { className: 'field', for: 'exam-minutes' }, '제한 시간(분)', minutes),
    ),
    publish,
    selfStudy,
    note,
  );
}
