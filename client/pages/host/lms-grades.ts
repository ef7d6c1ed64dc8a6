// The exam's LMS gradebook passback on the host page (LTI 1.3; GET /api/lti/exams/:id/grades): for an exam of a class
// linked to an LMS course, how many scores were sent, are waiting (with the last error and when the next try is),
// are held (an item waits for grading or review) or failed; 다시 보내기 queues the failed and held ones again. Nothing
// shows for an exam outside an LMS course. Server text is set as text only.
import { apiJson, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';

interface GradeRow {
  sessionId: string;
  state: 'waiting' | 'sent' | 'held' | 'failed';
  attempts: number;
  lastError?: string;
  reason?: string;
  nextAt?: number;
  score?: number;
  maxScore?: number;
}

type GradesReply = { lms: false } | { lms: true; course: string; students: GradeRow[] };

const LABELS: Record<GradeRow['state'], string> = { sent: '보냄', waiting: '보내는 중', held: '보류', failed: '실패' };

/** Fills `box` with the exam's passback state; `names` gives the students' nicknames by session. */
export async function showLmsGrades(examId: string, box: HTMLElement, names: ReadonlyMap<string, string>): Promise<void> {
  let reply: GradesReply;
  try {
    reply = await apiJson<GradesReply>(`/api/lti/exams/${encodeURIComponent(examId)}/grades`);
  } catch (error) {
    box.replaceChildren(element('p', { className: 'error', text: `LMS 성적 전송 상태를 읽지 못했습니다: ${requestFailure(error)}` }));
    return;
  }
  if (!reply.lms) {
    box.hidden = true;
    return;
  }
  const count = (state: GradeRow['state']) => reply.students.filter((row) => row.state === state).length;
  const open = reply.students.filter((row) => row.state !== 'sent');
  const retry = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'lms-grades-retry', text: '다시 보내기', hidden: count('failed') + count('held') === 0 });
  retry.addEventListener('click', () =>
    void whileBusy(retry, '보내는 중…', async () => {
      try {
        await apiJson(`/api/lti/exams/${encodeURIComponent(examId)}/grades/retry`, { method: 'POST' });
        await showLmsGrades(examId, box, names);
      } catch (error) {
        window.alert(requestFailure(error));
      }
    }),
  );
  box.hidden = false;
  box.replaceChildren(
    element('h4', { text: `LMS 성적부 (${reply.course})` }),
    element('p', { 'data-testid': 'lms-grades-summary', text: `보냄 ${count('sent')} · 보내는 중 ${count('waiting')} · 보류 ${count('held')} · 실패 ${count('failed')}` }, ' ', retry),
    element(
      'ul',
      { className: 'rows' },
      ...open.map((row) =>
        element(
          'li',
          { className: `state-${row.state}`, 'data-testid': 'lms-grade-row' },
          element('strong', { text: names.get(row.sessionId) ?? '학생' }),
          element('span', { text: `${LABELS[row.state]}${row.attempts > 0 ? ` (${row.attempts}번 시도)` : ''}` }),
          element('span', { className: 'muted', text: [row.reason, row.lastError, row.nextAt ? `다음 시도 ${new Date(row.nextAt).toLocaleTimeString('ko-KR')}` : ''].filter(Boolean).join(' · ') }),
        ),
      ),
    ),
  );
}
