// The Deep Linking picker (LTI 1.3), shown in the LMS's frame after a teacher's "add an activity": the teacher's
// lectures, quizzes and exams (GET /api/lti/deep-links/:secret; the secret in the URL's fragment is the credential,
// so the page works even where the LMS frame gets no cookie), and for an exam not published yet how to publish it.
// 강좌에 넣기 (or 취소, which adds nothing) asks the server for the signed answer and posts it to the LMS as a form.
import { apiJson, requestFailure } from '../net/http.js';
import { $, element } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';

interface PickerView {
  course: string;
  acceptMultiple: boolean;
  lectures: { id: string; title: string; chapters: { index: number; title: string }[] }[];
  quizzes: { quizId: string; title: string }[];
  exams: { examId: string; title: string; state: 'draft' | 'this-course' | 'elsewhere' }[];
}

type Choice =
  | { kind: 'lecture'; id: string }
  | { kind: 'quiz'; id: string }
  | { kind: 'exam'; id: string; publish?: { timeLimitMinutes: number } | { selfStudy: true } };

const secret = decodeURIComponent(location.hash.slice(1));
const form = $<HTMLFormElement>('picker-form');
const status = $('picker-status');
const errorLine = $('picker-error');
const submit = $<HTMLButtonElement>('picker-submit');
/** Reads each checked row's choice (an exam row reads its publish settings at submit time). */
const rows: { input: HTMLInputElement; choice: () => Choice }[] = [];

function row(list: HTMLElement, title: string, detail: string, multiple: boolean, choice: () => Choice, extra?: HTMLElement, disabledReason?: string): void {
  const input = element('input', { type: multiple ? 'checkbox' : 'radio', name: 'picked', disabled: disabledReason !== undefined });
  list.append(
    element(
      'li',
      { 'data-testid': 'picker-row' },
      element('label', {}, input, element('span', {}, element('strong', { text: title }), element('br'), element('span', { className: 'muted', text: disabledReason ?? detail }))),
      extra,
    ),
  );
  rows.push({ input, choice });
}

/** An unpublished exam's publish settings: a time limit from now, or self-study (no deadline). */
function publishControls(): { node: HTMLElement; read: () => { timeLimitMinutes: number } | { selfStudy: true } } {
  const mode = element('select', { 'aria-label': '게시 방식' }, element('option', { value: 'timed', text: '제한 시간' }), element('option', { value: 'self', text: '혼자 보는 시험 (마감 없음)' }));
  const minutes = element('input', { type: 'number', min: 1, max: 600, value: '30', 'aria-label': '제한 시간(분)' });
  const unit = element('span', { className: 'muted', text: '분' });
  mode.addEventListener('change', () => {
    minutes.hidden = mode.value !== 'timed';
    unit.hidden = mode.value !== 'timed';
  });
  return {
    node: element('span', { className: 'picker-publish' }, mode, minutes, unit),
    read: () => (mode.value === 'self' ? { selfStudy: true } : { timeLimitMinutes: Math.min(600, Math.max(1, Math.round(Number(minutes.value) || 30))) }),
  };
}

function empty(list: HTMLElement, text: string): void {
  if (list.children.length === 0) list.append(element('li', { className: 'muted', text }));
}

async function load(): Promise<void> {
  if (!secret) {
    status.textContent = 'LMS에서 다시 시작해 주세요.';
    return;
  }
  let view: PickerView;
  try {
    view = await apiJson<PickerView>(`/api/lti/deep-links/${encodeURIComponent(secret)}`);
  } catch (error) {
    status.textContent = requestFailure(error);
    status.className = 'error';
    return;
  }
  $('picker-course').textContent = `"${view.course}" 강좌에 넣을 것을 고르세요.${view.acceptMultiple ? ' 여러 개를 고를 수 있습니다.' : ''}`;
  const lectures = $('picker-lectures');
  const quizzes = $('picker-quizzes');
  const exams = $('picker-exams');
  for (const lecture of view.lectures) {
    row(lectures, lecture.title, `챕터 ${lecture.chapters.length}개`, view.acceptMultiple, () => ({ kind: 'lecture', id: lecture.id }));
  }
  for (const quiz of view.quizzes) row(quizzes, quiz.title, '실시간 퀴즈 방', view.acceptMultiple, () => ({ kind: 'quiz', id: quiz.quizId }));
  for (const exam of view.exams) {
    if (exam.state === 'draft') {
      const controls = publishControls();
      row(exams, exam.title, '아직 게시하지 않음: 넣을 때 이 강좌에 게시합니다', view.acceptMultiple, () => ({ kind: 'exam', id: exam.examId, publish: controls.read() }), controls.node);
    } else if (exam.state === 'this-course') {
      row(exams, exam.title, '이 강좌에 게시됨', view.acceptMultiple, () => ({ kind: 'exam', id: exam.examId }));
    } else {
      row(exams, exam.title, '', view.acceptMultiple, () => ({ kind: 'exam', id: exam.examId }), undefined, '다른 수업에 게시된 시험이라 넣을 수 없습니다');
    }
  }
  empty(lectures, '아직 올린 강의 자료가 없습니다. lectern에서 자료를 먼저 올려 주세요.');
  empty(quizzes, '만든 퀴즈가 없습니다.');
  empty(exams, '만든 시험이 없습니다.');
  status.textContent = '';
  form.hidden = false;
}

/** Posts the signed answer to the LMS (a form post in this frame, as Deep Linking asks). */
function postToLms(returnUrl: string, jwt: string): void {
  const post = element('form', { method: 'post', action: returnUrl }, element('input', { type: 'hidden', name: 'JWT', value: jwt }));
  document.body.append(post);
  post.submit();
}

async function answer(choices: Choice[]): Promise<void> {
  errorLine.textContent = '';
  try {
    const reply = await apiJson<{ returnUrl: string; jwt: string }>(`/api/lti/deep-links/${encodeURIComponent(secret)}`, { method: 'POST', body: { choices }, credentials: 'omit' });
    status.textContent = 'LMS로 돌아가는 중…';
    postToLms(reply.returnUrl, reply.jwt);
  } catch (error) {
    errorLine.textContent = requestFailure(error);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const choices = rows.filter((entry) => entry.input.checked).map((entry) => entry.choice());
  if (choices.length === 0) {
    errorLine.textContent = '넣을 것을 하나 이상 골라 주세요.';
    return;
  }
  void whileBusy(submit, '넣는 중…', () => answer(choices));
});
$('picker-cancel').addEventListener('click', () => void answer([]));

void load();
