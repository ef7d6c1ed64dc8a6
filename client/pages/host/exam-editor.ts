// One exam in the host page's "시험 만들기" box: every item editable before it is published (question,
// model answer, key keywords as a comma or line list, intent; saved with PATCH /api/exams/:id/problems/:id) with the
// validator's open complaints beside it — saving the item answers them (they leave it), or 지적 확인 accepts the item
// as it is — then 수업에 게시 (a class and 제한 시간 in minutes, POST /api/exams/:id/publish), enabled once no complaint
// is open and confirmed with the exam's title, item count and class (and a warning when the class studies another
// material); once published, its results (exam-results.ts). The view shows one exam at a time: the box clears it when
// the material changes (closeExamView). Model text is set as text only.
import type { ClassSummary } from '../../net/classes.js';
import { acceptItem, bareExamTitle, getExam, LEVEL_LABELS, openAsSelfStudy, patchProblem, publishExam, TYPE_LABELS, type ExamDetail, type ExamProblem } from '../../net/exams.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { showExamResults, stopExamResults } from './exam-results.js';
import { requestFailure } from '../../net/http.js';

const view = $('exam-view');

export interface ExamViewHost {
  classes(): ClassSummary[];
  /** A material's title (the publish confirmation names the class's material when it is not the exam's). */
  materialTitle(materialId: string): string | null;
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

/** Clears the view (another material was picked): nothing of the previous exam stays to be published. */
export function closeExamView(): void {
  stopExamResults();
  shownExam = null;
  classSelect = null;
  view.hidden = true;
  view.replaceChildren();
  delete view.dataset.examId;
  delete view.dataset.status;
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

/** The items whose complaints are neither fixed nor accepted, kept current as the instructor works. */
class OpenComplaints {
  private readonly open = new Set<number>();
  private readonly listeners = new Set<() => void>();

  constructor(exam: ExamDetail) {
    const accepted = new Set(exam.accepted);
    for (const complaint of exam.complaints) if (!accepted.has(complaint.id)) this.open.add(complaint.id);
  }

  has(id: number): boolean {
    return this.open.has(id);
  }

  ids(): number[] {
    return [...this.open].sort((left, right) => left - right);
  }

  settle(id: number): void {
    this.open.delete(id);
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }
}

function render(exam: ExamDetail, host: ExamViewHost): void {
  const draft = exam.status === 'draft';
  const complaints = new Map<number, string[]>();
  for (const complaint of exam.complaints) complaints.set(complaint.id, [...(complaints.get(complaint.id) ?? []), complaint.message]);
  const planned = new Map(exam.plan.planned_items.map((item) => [item.id, item]));
  const open = new OpenComplaints(exam);
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
    ...(exam.shortfall ? [element('p', { className: 'muted', role: 'status', 'data-testid': 'exam-shortfall', text: exam.shortfall.message })] : []),
    element('ol', { className: 'exam-edit-list' }, ...exam.problems.map((problem) => itemEditor(exam.examId, problem, complaints.get(problem.id) ?? [], planned.get(problem.id), draft, open))),
    ...(draft ? [publishForm(exam, host, open)] : []),
    results,
  );
  if (exam.publication) void showExamResults(exam.examId, results);
}

function field(label: string, testId: string, value: string, rows: number, readOnly: boolean, hint?: string): { node: HTMLElement; input: HTMLTextAreaElement } {
  const input = element('textarea', { rows, readOnly, 'data-testid': testId, maxLength: 4000 });
  input.value = value;
  return { node: element('label', { className: 'field' }, label, hint ? element('span', { className: 'hint', text: ` ${hint}` }) : null, input), input };
}

function itemEditor(
  examId: string,
  problem: ExamProblem,
  complaints: string[],
  plan: ExamDetail['plan']['planned_items'][number] | undefined,
  editable: boolean,
  open: OpenComplaints,
): HTMLLIElement {
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
        // The server dropped the item's complaints with the edit: they were about the item as it was.
        complaintBox?.remove();
        node.dataset.complaints = '0';
        open.settle(problem.id);
      } catch (error) {
        saved.textContent = requestFailure(error);
      }
    });
  });
  for (const { input } of [question, answer, keywords, intent]) input.addEventListener('input', () => (saved.textContent = '저장하지 않은 변경이 있습니다.'));
  const planLine = plan ? ` · ${plan.target_topic} · ${INTENTS[plan.intent_type] ?? plan.intent_type} · ${LEVEL_LABELS[plan.complexity_level]}` : '';
  const complaintBox = complaints.length > 0 ? complaintList(examId, problem.id, complaints, editable, open) : null;
  const node = element(
    'li',
    { className: 'exam-edit-item', 'data-testid': 'exam-edit-item', 'data-id': problem.id, 'data-complaints': complaints.length, 'data-open': String(open.has(problem.id)) },
    element('p', { className: 'exam-edit-head' }, element('strong', { text: `${problem.id}번 · ${TYPE_LABELS[problem.type]}` }), element('span', { className: 'muted', text: planLine })),
    complaintBox,
    question.node,
    answer.node,
    keywords.node,
    intent.node,
    editable ? element('div', { className: 'exam-edit-actions' }, save, saved) : null,
  );
  open.onChange(() => (node.dataset.open = String(open.has(problem.id))));
  return node;
}

/** The validator's complaints on one item, with 지적 확인 (keep the item as it is) while the exam is a draft. */
function complaintList(examId: string, id: number, complaints: string[], editable: boolean, open: OpenComplaints): HTMLElement {
  const accepted = !open.has(id);
  const list = element('ul', { className: 'exam-complaints', 'aria-label': '검토 지적' }, ...complaints.map((text) => element('li', { 'data-testid': 'exam-complaint', text: `검토 지적: ${text}` })));
  const state = element('span', { className: 'muted', role: 'status', 'data-testid': 'exam-complaint-state', text: accepted ? '지적을 확인하고 그대로 두기로 했습니다.' : '' });
  const accept = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'exam-complaint-accept', text: '지적 확인: 이대로 두기', hidden: accepted || !editable });
  accept.addEventListener('click', () => {
    void whileBusy(accept, '확인하는 중…', async () => {
      try {
        await acceptItem(examId, id);
        accept.hidden = true;
        state.textContent = '지적을 확인하고 그대로 두기로 했습니다.';
        open.settle(id);
      } catch (error) {
        state.textContent = requestFailure(error);
      }
    });
  });
  return element('div', { className: 'exam-complaint-box', 'data-testid': 'exam-complaints' }, list, element('div', { className: 'exam-edit-actions' }, accept, state));
}

function publishForm(exam: ExamDetail, host: ExamViewHost, open: OpenComplaints): HTMLElement {
  classSelect = element('select', { id: 'exam-class', 'data-testid': 'exam-class' });
  updateExamClasses(host.classes());
  const minutes = element('input', { id: 'exam-minutes', type: 'number', min: 1, max: 300, value: '20', inputMode: 'numeric', 'data-testid': 'exam-minutes' });
  const publish = element('button', { type: 'button', 'data-testid': 'exam-publish', text: '수업에 게시' });
  const note = element('p', { className: 'quiz-status', role: 'status', 'data-testid': 'exam-publish-status' });
  const select = classSelect;
  /** A warning for the confirmation when the class studies another material than the exam's. */
  const otherMaterial = (classId: string): string => {
    const materialId = host.classes().find((entry) => entry.classId === classId)?.materialId ?? null;
    if (materialId === null || materialId === exam.materialId) return '';
    const title = host.materialTitle(materialId);
    return `\n주의: 이 수업의 강의 자료${title ? `(${title})` : ''}는 이 시험을 만든 자료${host.materialTitle(exam.materialId) ? `(${host.materialTitle(exam.materialId)})` : ''}와 다릅니다.\n`;
  };
  // Publishing waits until every complaint is fixed (the item saved) or accepted.
  const blocked = element('p', { className: 'muted', role: 'status', 'data-testid': 'exam-publish-blocked' });
  const gate = () => {
    const ids = open.ids();
    publish.disabled = ids.length > 0;
    selfStudy.disabled = ids.length > 0;
    blocked.hidden = ids.length === 0;
    blocked.textContent = ids.length === 0 ? '' : `검토 지적이 남은 문항(${ids.map((id) => `${id}번`).join(', ')})을 고쳐 저장하거나 '지적 확인'을 눌러야 게시할 수 있습니다.`;
  };
  open.onChange(gate);
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
    if (!window.confirm(`「${bareExamTitle(exam.title)}」(${exam.problems.length}문항)을 ${className}에 ${limit}분 시험으로 게시할까요?${otherMaterial(select.value)} 게시한 뒤에는 문항을 고칠 수 없습니다.`)) return;
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
    if (!window.confirm(`「${bareExamTitle(exam.title)}」(${exam.problems.length}문항)을 ${className}에 시간 제한 없는 혼자 보는 시험으로 열까요?${otherMaterial(select.value)} 학생마다 제출하면 바로 결과를 봅니다. 연 뒤에는 문항을 고칠 수 없습니다.`)) return;
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
  gate();
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
    blocked,
    publish,
    selfStudy,
    note,
  );
}
