// The landing page of an LMS launch (served by POST /lti/launch inside the LMS's frame): the server verified the
// launch and wrote where it lands into a JSON block; this script goes there. A student's session (or quiz room) goes
// to the next page in the address's fragment (classroom/lti-handoff.ts), because a page the LMS frames from another
// site may keep no storage across a navigation. A teacher goes to their page when the frame kept the session cookie,
// else gets a new window that signs in with a one-use code. A student waiting for a quiz room asks every few seconds.
import '../ui/storage-fallback.js';
import { apiJson, requestFailure } from '../net/http.js';
import { $, element } from '../ui/dom.js';
import { encodeHandoff } from './classroom/lti-handoff.js';
import type { MaterialOutline } from './classroom/lecture-view.js';

type Landing =
  | { kind: 'classroom'; session: { sessionId: string; token: string; nickname: string; classId: string; material: MaterialOutline }; examId?: string }
  | { kind: 'play'; room: { roomId: string; code: string; playerId: string; playerToken: string; nickname: string } }
  | { kind: 'quiz-wait'; ticket: string; title: string }
  | { kind: 'instructor'; path: string; signIn: string }
  | { kind: 'picker'; picker: string };

const WAIT_POLL_MS = 3_000;

const status = $('lti-status');

function go(landing: Landing | { kind: 'waiting'; title: string }): void {
  switch (landing.kind) {
    case 'classroom':
      location.replace(`/classroom.html#lti=${encodeHandoff({ session: landing.session, ...(landing.examId ? { examId: landing.examId } : {}) })}`);
      return;
    case 'play':
      location.replace(`/play.html?code=${encodeURIComponent(landing.room.code)}#lti=${encodeHandoff(landing.room)}`);
      return;
    case 'quiz-wait':
      status.textContent = `"${landing.title}" 퀴즈 방이 열리면 바로 들어갑니다. 이 화면을 열어 두세요.`;
      setTimeout(() => void wait(landing.ticket), WAIT_POLL_MS);
      return;
    case 'waiting':
      return;
    case 'instructor':
      void teacher(landing.path, landing.signIn);
      return;
    case 'picker':
      location.replace(`/lti-picker.html#${encodeURIComponent(landing.picker)}`);
      return;
  }
}

/** The teacher's page in this frame when the session cookie came back, else a new window that signs in once. */
async function teacher(path: string, signIn: string): Promise<void> {
  try {
    await apiJson('/api/auth/me');
    location.replace(path);
    return;
  } catch {
    // This browser keeps no cookie for lectern inside the LMS's frame.
  }
  status.replaceChildren(
    '이 브라우저는 LMS 화면 안에서 lectern 로그인을 유지하지 않습니다. ',
    element('a', { className: 'button', href: `/lti/sign-in?code=${encodeURIComponent(signIn)}`, target: '_blank', rel: 'noopener', 'data-testid': 'lti-new-window', text: '새 창에서 열기' }),
  );
}

async function wait(ticket: string): Promise<void> {
  try {
    const answer = await apiJson<Landing | { kind: 'waiting'; title: string }>(`/api/lti/quiz-tickets/${encodeURIComponent(ticket)}`);
    if (answer.kind === 'waiting') {
      setTimeout(() => void wait(ticket), WAIT_POLL_MS);
      return;
    }
    go(answer);
  } catch (error) {
    status.textContent = requestFailure(error);
    status.className = 'error';
  }
}

const data = document.getElementById('lti-landing')?.textContent;
if (data) go(JSON.parse(data) as Landing);
else status.textContent = 'LMS에서 다시 열어 주세요.';
