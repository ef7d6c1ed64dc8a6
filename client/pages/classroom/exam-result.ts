// An exam's result in the classroom, once the student submitted it all or its time ran out: the score,
// every item's status (정답/부분 정답/오답, 채점 중 while grading is pending — read again until it is done) with the
// grader's feedback (and the instructor's reason when they changed a status), and the personal report (strengths, weak topics with links to the lecture's chapters and pages to
// review, next steps). 재채점 요청 sends a comment about one item. Model text is set as text (KaTeX for its math).
import { decidedByTeacher, requestRegrade, STATUS_LABELS, type ClassExamResult, type EvaluationItem, type FeedbackReport } from '../../net/exams.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { mathElement } from '../../ui/math.js';
import { requestFailure } from '../../net/http.js';

export interface ExamResultHost {
  token(): string | null;
  /** Brings a chapter of the lecture into view; false when the page does not show it (yet). */
  showChapter(chapter: number): boolean;
}

/** The status the server gives the student (an instructor's override already applied). */
const statusBadge = (item: EvaluationItem) =>
  element('span', { className: `exam-status status-${item.result_status}`, 'data-testid': 'exam-status', 'data-status': item.result_status, text: STATUS_LABELS[item.result_status] });

export function resultView(examId: string, result: ClassExamResult, host: ExamResultHost): HTMLElement {
  const pending = result.status === 'pending' || result.log.evaluation_items.some((item) => item.result_status === 'Ungraded' || item.result_status === 'Needs_Review');
  return element(
    'div',
    { className: 'exam-result', 'data-testid': 'exam-result', 'data-status': pending ? 'pending' : 'graded' },
    element(
      'p',
      { className: 'exam-score', 'data-testid': 'exam-score' },
      `점수 ${result.score} / ${result.maxScore}`,
      pending ? element('span', { className: 'muted', text: ' · 아직 채점 중인 문항이 있어요. 잠시 뒤 저절로 새로 고칩니다.' }) : null,
    ),
    element(
      'ol',
      { className: 'exam-result-items' },
      ...result.log.evaluation_items.map((item) => resultItem(examId, item, host, result.regrades.find((request) => request.questionId === item.question_id))),
    ),
    result.report ? reportView(result.report, host) : element('p', { className: 'muted', 'data-testid': 'exam-report-pending', text: '개인 피드백 보고서를 만드는 중이에요.' }),
  );
}

type ResultLogItem = ClassExamResult['log']['evaluation_items'][number];

/** The instructor's override of this item, said in a sentence: the status before, the one now, and the reason. */
function reviewNote(item: ResultLogItem): HTMLElement | null {
  const review = item.instructor_review;
  if (!review) return null;
  return element('p', {
    className: 'exam-review',
    'data-testid': 'exam-review',
    text: `선생님이 채점을 바꿨어요 (${STATUS_LABELS[review.from]} → ${STATUS_LABELS[item.result_status]}): ${review.reason}`,
  });
}

function resultItem(examId: string, item: ResultLogItem, host: ExamResultHost, requested: ClassExamResult['regrades'][number] | undefined): HTMLLIElement {
  const regrade = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'exam-regrade', text: '재채점 요청' });
  const form = regradeForm(examId, item.question_id, host, regrade);
  // Asked before (this page or an earlier one): said, not offered again; the view is redrawn when the result changes.
  if (requested) {
    regrade.disabled = true;
    form.hidden = false;
    form.replaceChildren(element('p', { className: 'muted', role: 'status', 'data-testid': 'exam-regrade-note', text: REGRADE_ASKED }));
    if (requested.status === 'done') form.append(element('p', { className: 'muted', 'data-testid': 'exam-regrade-done', text: '다시 채점했어요. 위의 판정이 지금 결과예요.' }));
  }
  regrade.addEventListener('click', () => {
    form.hidden = !form.hidden;
    if (!form.hidden) form.querySelector('textarea')?.focus();
  });
  return element(
    'li',
    { className: 'exam-result-item', 'data-testid': 'exam-result-item', 'data-id': item.question_id },
    element('div', { className: 'exam-result-head' }, statusBadge(item), item.related_topic ? element('span', { className: 'muted', text: item.related_topic }) : null),
    mathElement('p', { className: 'exam-question' }, item.question_content),
    element('p', { className: 'exam-my-answer' }, element('span', { className: 'muted', text: '내 답: ' }), element('span', { text: item.user_response || '(비어 있음)' })),
    // An item whose status the teacher decided or changed has the decision as its feedback: said once, below.
    item.feedback_message && !decidedByTeacher(item.instructor_review?.from, item.result_status) ? mathElement('p', { className: 'exam-feedback', 'data-testid': 'exam-feedback' }, item.feedback_message) : null,
    reviewNote(item),
    regrade,
    form,
  );
}

const REGRADE_ASKED = '재채점을 요청했어요. 선생님이 확인할 거예요.';

function regradeForm(examId: string, questionId: number, host: ExamResultHost, toggle: HTMLButtonElement): HTMLFormElement {
  const id = `regrade-${examId}-${questionId}`;
  const comment = element('textarea', { id, rows: 2, maxLength: 1000, 'data-testid': 'exam-regrade-comment', placeholder: '예: 핵심어를 다른 표현으로 썼어요.' });
  const send = element('button', { type: 'submit', 'data-testid': 'exam-regrade-send', text: '요청 보내기' });
  const note = element('p', { className: 'muted', role: 'status', 'data-testid': 'exam-regrade-note' });
  const form = element('form', { className: 'exam-regrade', hidden: true }, element('label', { for: id, text: '선생님께 남길 말' }), comment, send, note);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = host.token();
    const text = comment.value.trim();
    if (!token) return;
    if (!text) {
      note.textContent = '무엇을 다시 봐 주면 좋을지 적어 주세요.';
      comment.focus();
      return;
    }
    void whileBusy(send, '보내는 중…', async () => {
      try {
        await requestRegrade(token, examId, questionId, text);
        note.textContent = REGRADE_ASKED;
        comment.readOnly = true;
        send.hidden = true;
        toggle.disabled = true;
      } catch (error) {
        note.textContent = requestFailure(error);
      }
    });
  });
  return form;
}

function reviewLink(review: FeedbackReport['weak_topics'][number]['review'][number], host: ExamResultHost): HTMLElement {
  const pages = review.pages.length > 0 ? ` (${review.pages.map((page) => `${page}쪽`).join(', ')})` : '';
  const link = element('a', { href: `#chapter-${review.chapter}`, 'data-testid': 'exam-review-link', text: `${review.chapter + 1}장 ${review.title}${pages}` });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    if (!host.showChapter(review.chapter)) link.after(element('span', { className: 'muted', text: ' · 이 장의 강의가 아직 화면에 없어요. 강의가 그 장에 이르면 다시 눌러 주세요.' }));
  });
  return link;
}

function reportView(report: FeedbackReport, host: ExamResultHost): HTMLElement {
  const list = (items: string[], testId: string) => element('ul', { 'data-testid': testId }, ...items.map((text) => element('li', { text })));
  return element(
    'section',
    { className: 'exam-report', 'data-testid': 'exam-report' },
    element('h4', { text: '나의 피드백 보고서' }),
    element('p', { 'data-testid': 'exam-report-summary', text: report.summary }),
    report.strengths.length > 0 ? element('h5', { text: '잘한 점' }) : null,
    report.strengths.length > 0 ? list(report.strengths, 'exam-report-strengths') : null,
    report.weak_topics.length > 0 ? element('h5', { text: '더 공부할 주제' }) : null,
    report.weak_topics.length > 0
      ? element(
          'ul',
          { 'data-testid': 'exam-report-weak' },
          ...report.weak_topics.map((topic) =>
            element(
              'li',
              {},
              element('strong', { text: topic.topic }),
              element('p', { text: topic.advice }),
              topic.review.length > 0 ? element('p', { className: 'exam-review' }, element('span', { className: 'muted', text: '다시 볼 곳: ' }), ...topic.review.map((review) => reviewLink(review, host))) : null,
            ),
          ),
        )
      : null,
    report.next_steps.length > 0 ? element('h5', { text: '다음 단계' }) : null,
    report.next_steps.length > 0 ? list(report.next_steps, 'exam-report-next') : null,
  );
}
