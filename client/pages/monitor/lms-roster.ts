// The monitor's line for a class of an LMS course (LTI; GET /api/lti/classes/:id): the course's name and
// "LMS 명단 다시 가져오기", which reads the course roster from the LMS now (POST …/roster) — its students join the class
// under their LMS names and appear on the roster as they do. Nothing shows for another class.
import { apiJson, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';

type CourseReply = { lms: false } | { lms: true; course: string; roster: boolean };

let shown = 0;

export async function showLmsRoster(classId: string, line: HTMLElement): Promise<void> {
  const mine = (shown += 1);
  line.hidden = true;
  line.replaceChildren();
  let reply: CourseReply;
  try {
    reply = await apiJson<CourseReply>(`/api/lti/classes/${encodeURIComponent(classId)}`);
  } catch {
    return;
  }
  if (mine !== shown || !reply.lms) return;
  const status = element('span', { 'data-testid': 'lms-roster-status', text: '' });
  const read = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'lms-roster-read', text: 'LMS 명단 다시 가져오기', hidden: !reply.roster });
  read.addEventListener('click', () =>
    void whileBusy(read, '가져오는 중…', async () => {
      try {
        const result = await apiJson<{ students: number; joined: number }>(`/api/lti/classes/${encodeURIComponent(classId)}/roster`, { method: 'POST' });
        status.textContent = ` 강좌 학생 ${result.students}명 (새로 ${result.joined}명)`;
      } catch (error) {
        status.textContent = ` ${requestFailure(error)}`;
      }
    }),
  );
  line.replaceChildren(`LMS 강좌: ${reply.course} `, read, status);
  line.hidden = false;
}
