// A published exam's results in the host page (GET /api/exams/:id/results): per student the log with
// status badges (정답/부분 정답/오답/채점 중), the score, the feedback report and their regrade requests; per item the
// status distribution and common misconceptions; a status override with a reason (kept as an audit trail); CSV and
// JSON downloads; 묶어서 채점, one item's answers in groups of like meaning decided a group at a time
// (exam-groups.ts). Read again every few seconds while the exam is open or grading is pending, unless the instructor
// is typing in it. 시험 종료 ends the exam now (POST /api/exams/:id/end): the students' results are revealed then, never at
// their own submission. Student and model text is set as text only.
import { decidedByTeacher, decisionsDownload, endExam, examResults, hasNoDeadline, overrideItem, resultsDownload, STATUS_LABELS, type ExamResults, type GradeStatus, type ResultItem, type StudentResult } from '../../net/exams.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { mathElement } from '../../ui/math.js';
import { requestFailure } from '../../net/http.js';
import { groupGradingPanel } from './exam-groups.js';
import { showLmsGrades } from './lms-grades.js';
import { verdictForm } from './verdict-form.js';

const REFRESH_MS = 4_000;
const COUNT_ORDER: GradeStatus[] = ['Needs_Review', 'Correct', 'Partial_Correct', 'Incorrect', 'Ungraded'];

let timer: ReturnType<typeof setTimeout> | undefined;
let run = 0;

export function stopExamResults(): void {
  run += 1;
  clearTimeout(timer);
}

const badge = (status: GradeStatus) => element('span', { className: `exam-status status-${status}`, 'data-testid': 'result-status', 'data-status': status, text: STATUS_LABELS[status] });

/** Shows the results in `container` and keeps them fresh while anything may still change. */
export async function showExamResults(examId: string, container: HTMLElement): Promise<void> {
  stopExamResults();
  const mine = run;
  let first = true;
  const load = async (): Promise<void> => {
    // The instructor is typing a reason (focus inside the results): keep what they see, look again later.
    const busy = !first && container.contains(document.activeElement);
    first = false;
    if (!busy) {
      try {
        const results = await examResults(examId);
        if (mine !== run) return;
        render(examId, results, container);
        if (results.closed && results.students.every((student) => !student.pending)) return;
      } catch (error) {
        if (mine !== run) return;
        container.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
      }
    }
    if (mine === run) timer = setTimeout(() => void load(), REFRESH_MS);
  };
  await load();
}

function render(examId: string, results: ExamResults, container: HTMLElement): void {
  const open = new Set([...container.querySelectorAll<HTMLDetailsElement>('details[data-session-id]')].filter((node) => node.open).map((node) => node.dataset.sessionId));
  const refresh = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'exam-results-refresh', text: '새로 고침' });
  refresh.addEventListener('click', () => void showExamResults(examId, container));
  // A self-study exam has no deadline to end: each student's result is revealed at their own submission.
  const selfStudy = hasNoDeadline(results.deadline);
  const end = element('button', { type: 'button', className: 'small', 'data-testid': 'exam-end', text: '시험 종료', hidden: results.closed || selfStudy });
  end.addEventListener('click', () => {
    if (!window.confirm('시험을 지금 끝낼까요? 학생들은 더 쓸 수 없고, 저장된 답으로 채점한 뒤 결과를 봅니다.')) return;
    void whileBusy(end, '끝내는 중…', async () => {
      try {
        await endExam(examId);
        end.blur();
        await showExamResults(examId, container);
      } catch (error) {
        window.alert(requestFailure(error));
      }
    });
  });
  // LTI: the scores' way to the LMS gradebook, for an exam of a class linked to a course (hidden otherwise).
  const lmsGrades = element('section', { className: 'lms-grades', 'data-testid': 'lms-grades', hidden: true });
  container.replaceChildren(
    element('h4', { text: '결과' }),
    element(
      'p',
      { className: 'exam-results-bar' },
      element('span', { className: 'muted', 'data-testid': 'exam-results-state', text: selfStudy ? '혼자 보는 시험 · 제출한 학생부터 결과를 봅니다' : results.closed ? '마감됨' : `진행 중 · 마감 ${new Date(results.deadline).toLocaleTimeString('ko-KR')}` }),
      refresh,
      end,
      element('a', { className: 'button small', href: resultsDownload(examId, 'csv'), download: `exam-${examId}.csv`, 'data-testid': 'exam-results-csv', text: 'CSV (엑셀)' }),
      element('a', { className: 'button small secondary-link', href: resultsDownload(examId, 'json'), download: `exam-${examId}.json`, 'data-testid': 'exam-results-json', text: 'JSON' }),
      // §5: the teacher's decisions (overrides, group grades) as labelled data for the eval scripts and fine-tuning.
      element('a', { className: 'button small secondary-link', href: decisionsDownload(examId), download: `exam-${examId}-decisions.jsonl`, 'data-testid': 'exam-decisions-jsonl', title: '선생님이 바꾼 판정(사유 포함)을 학생 이름 없이 내려받습니다', text: '채점 판정 데이터' }),
    ),
    results.students.length === 0
      ? element('p', { className: 'muted', 'data-testid': 'exam-results-empty', text: '아직 답한 학생이 없습니다.' })
      : element('div', { className: 'exam-students' }, ...results.students.map((student) => studentView(examId, student, open.has(student.sessionId), container))),
    ...(results.absent.length === 0
      ? []
      : [element('p', { className: 'muted', 'data-testid': 'exam-results-absent', text: `미응시 ${results.absent.length}명: ${results.absent.map((student) => student.nickname).join(', ')}` })]),
    ...(results.items.length > 0 ? [distribution(results)] : []),
    // 묶어서 채점: one item's answers grouped by meaning, a decision per group (exam-groups.ts).
    ...(results.items.length > 0 && results.students.length > 0
      ? [groupGradingPanel(examId, results.items.map((item) => item.question_id), () => void showExamResults(examId, container))]
      : []),
    lmsGrades,
  );
  void showLmsGrades(examId, lmsGrades, new Map(results.students.map((student) => [student.sessionId, student.nickname])));
}

function studentView(examId: string, student: StudentResult, open: boolean, container: HTMLElement): HTMLDetailsElement {
  const submitted = student.submittedAt ? `제출 ${new Date(student.submittedAt).toLocaleTimeString('ko-KR')}` : '미제출';
  const details = element(
    'details',
    { className: 'exam-student', 'data-testid': 'exam-result-student', 'data-session-id': student.sessionId, open },
    element(
      'summary',
      {},
      element('strong', { 'data-testid': 'exam-result-nickname', text: student.nickname }),
      element('span', { 'data-testid': 'exam-result-score', text: ` · ${student.score} / ${student.maxScore}점` }),
      element('span', { className: 'muted', text: ` · ${submitted}${student.pending ? ' · 채점 중' : ''}${student.regrades.length > 0 ? ` · 재채점 요청 ${student.regrades.length}` : ''}` }),
    ),
    element('ol', { className: 'exam-result-items' }, ...student.items.map((item) => itemView(examId, student, item, container))),
    student.regrades.length > 0
      ? element(
          'section',
          { 'data-testid': 'exam-regrades' },
          element('h5', { text: '재채점 요청' }),
          element(
            'ul',
            {},
            ...student.regrades.map((request) =>
              element('li', { 'data-testid': 'exam-regrade-request', 'data-status': request.status, text: `${request.questionId}번: ${request.comment}${request.status === 'done' ? ' (처리함)' : ' (기다리는 중)'}` }),
            ),
          ),
        )
      : null,
    student.report
      ? element(
          'section',
          { className: 'exam-report', 'data-testid': 'exam-result-report' },
          element('h5', { text: '피드백 보고서' }),
          element('p', { text: student.report.summary }),
          student.report.weak_topics.length > 0 ? element('p', { className: 'muted', text: `더 공부할 주제: ${student.report.weak_topics.map((topic) => topic.topic).join(', ')}` }) : null,
        )
      : null,
  );
  return details;
}

function itemView(examId: string, student: StudentResult, item: ResultItem, container: HTMLElement): HTMLLIElement {
  const status = item.overridden?.status ?? item.result_status;
  // An item under review starts from the grader's proposal; the teacher confirms or changes it with a reason.
  const proposed = status === 'Needs_Review' ? item.evidence?.proposed : undefined;
  const form = verdictForm({
    testId: 'override',
    start: proposed ?? (status !== 'Ungraded' && status !== 'Needs_Review' ? status : undefined),
    statusLabel: `${item.question_id}번 판정`,
    reasonLabel: `${item.question_id}번 판정을 바꾸는 이유`,
    placeholder: '바꾸는 이유',
    applyText: '판정 바꾸기',
    applyClass: 'secondary small',
    busyText: '바꾸는 중…',
    async submit(chosen, why) {
      await overrideItem(examId, student.sessionId, item.question_id, chosen, why);
      await showExamResults(examId, container);
    },
    failed(error, note) {
      note.textContent = requestFailure(error);
    },
  });
  return element(
    'li',
    { className: 'exam-result-item', 'data-testid': 'exam-result-row', 'data-id': item.question_id },
    element('div', { className: 'exam-result-head' }, badge(status), item.related_topic ? element('span', { className: 'muted', text: item.related_topic }) : null),
    mathElement('p', { className: 'exam-question' }, item.question_content),
    element('p', { className: 'exam-my-answer' }, element('span', { className: 'muted', text: '학생 답: ' }), element('span', { text: item.user_response || '(비어 있음)' })),
    // An item whose status the teacher decided or changed: its feedback is the decision, which the audit line says.
    item.feedback_message && !decidedByTeacher(item.overridden?.from, status) ? mathElement('p', { className: 'exam-feedback' }, item.feedback_message) : null,
    status === 'Needs_Review'
      ? element('p', {
          className: 'exam-review-needed',
          'data-testid': 'needs-review',
          text: `검토가 필요해요: 자동 채점이 확실하지 않습니다${proposed === undefined ? '' : ` (채점기 제안: ${STATUS_LABELS[proposed]}, 확신도 ${Math.round((item.evidence?.confidence ?? 0) * 100)}%)`}. 판정을 정해 주세요.`,
        })
      : null,
    item.overridden
      ? element('p', { className: 'muted', 'data-testid': 'override-audit', text: `바꾼 판정: ${STATUS_LABELS[item.overridden.status]} (원래 ${STATUS_LABELS[item.overridden.from]}) · ${item.overridden.reason} · ${new Date(item.overridden.at).toLocaleString('ko-KR')}` })
      : null,
    form,
  );
}

function distribution(results: ExamResults): HTMLElement {
  return element(
    'section',
    { className: 'exam-distribution', 'data-testid': 'exam-distribution' },
    element('h5', { text: '문항별 분포' }),
    element(
      'table',
      {},
      element('thead', {}, element('tr', {}, element('th', { text: '문항' }), ...COUNT_ORDER.map((status) => element('th', { text: STATUS_LABELS[status] })), element('th', { text: '흔한 오개념' }))),
      element(
        'tbody',
        {},
        ...results.items.map((item) =>
          element(
            'tr',
            { 'data-testid': 'exam-distribution-row', 'data-id': item.question_id },
            element('td', { text: `${item.question_id}번` }),
            ...COUNT_ORDER.map((status) => element('td', { 'data-status': status, text: String(item.counts[status] ?? 0) })),
            element('td', { text: item.misconceptions.join(' / ') || '-' }),
          ),
        ),
      ),
    ),
  );
}
