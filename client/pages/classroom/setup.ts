// The classroom's setup screen: pick a material and a nickname and start a session (POST /api/sessions), or join
// an instructor's class with its code (POST /api/classes/:code/join). Either way the page enters the classroom with
// the new session.
import type { Material } from '../../../src/materials/types.js';
import { me } from '../../net/account.js';
import { apiFetch, fetchAllPages, jsonBody, requestFailure, sendRetryingAfter } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { errorText } from '../../ui/messages.js';
import { joinCodeProblem } from '../../../src/protocol/wire/classroom.js';
import type { MaterialOutline } from './lecture-view.js';
import { hideRosterPicker, rosterOf, showRosterPicker } from './roster-picker.js';
import { NICKNAME_KEY, type StoredSession } from './stored-session.js';

const setup = $('setup');
const setupForm = $<HTMLFormElement>('setup-form');
const materialList = $('material-list');
const nicknameInput = $<HTMLInputElement>('nickname');
const startButton = $<HTMLButtonElement>('start-button');
const setupError = $('setup-error');
const joinForm = $<HTMLFormElement>('join-form');
const classCodeInput = $<HTMLInputElement>('class-code');
const joinButton = $<HTMLButtonElement>('join-button');
const joinError = $('join-error');
const joinWait = $('join-wait');

/**
 * While the class's join limit makes the page wait (a whole lecture hall joining behind one school address): what
 * it waits for, counted down; the code and name stay as typed and the page sends again by itself.
 */
const showJoinWait = (seconds: number) => {
  joinWait.hidden = seconds === 0;
  joinWait.textContent = seconds === 0 ? '' : `참여하려는 학생이 많아 잠시 기다립니다. ${seconds}초 뒤에 자동으로 다시 시도합니다.`;
};

/** Materials listed on the setup screen, by id (a radio's value). */
const listed = new Map<string, Material & { sample?: boolean }>();

const outline = (material: Pick<Material, 'id' | 'title' | 'chapters'>): MaterialOutline => ({
  id: material.id,
  title: material.title,
  chapters: material.chapters.map((chapter) => ({ index: chapter.index, title: chapter.title })),
});

/** Shows the setup screen (nickname remembered, class code from `?code=`) and lists the materials. */
export async function showSetup(): Promise<void> {
  setup.hidden = false;
  document.title = '강의실 입장 — lectern';
  nicknameInput.value = localStorage.getItem(NICKNAME_KEY) ?? '';
  const code = new URLSearchParams(location.search).get('code');
  if (code && !classCodeInput.value) classCodeInput.value = code.trim().toUpperCase().slice(0, 6);
  await loadMaterials();
}

export function hideSetup(): void {
  setup.hidden = true;
}

async function loadMaterials(): Promise<void> {
  materialList.replaceChildren(note('자료 목록을 불러오는 중…'));
  let materials: Array<Material & { sample?: boolean }>;
  try {
    // The list is paginated; a student picks among all of them.
    materials = await fetchAllPages<Material & { sample?: boolean }>('/api/materials', 'materials');
  } catch {
    materialList.replaceChildren(note('자료 목록을 불러오지 못했습니다. 새로고침해 주세요.', 'error'));
    return;
  }
  listed.clear();
  for (const material of materials) listed.set(material.id, material);
  const first = materials[0];
  if (!first) {
    materialList.replaceChildren(note('아직 강의 자료가 없습니다. 선생님이 자료를 올리면 여기에 나옵니다.', 'muted'));
    return;
  }
  const wanted = new URLSearchParams(location.search).get('material');
  const selected = materials.some((material) => material.id === wanted) ? wanted : first.id;
  materialList.replaceChildren(
    ...materials.map((material) =>
      element(
        'label',
        { className: 'material-option', 'data-testid': 'material-option', 'data-material-id': material.id },
        element('input', { type: 'radio', name: 'material', value: material.id, checked: material.id === selected }),
        element(
          'span',
          { className: 'material-text' },
          element('strong', { text: material.title }),
          element('span', { className: 'muted', text: `${material.pageCount}쪽 · 챕터 ${material.chapters.length}개` }),
          element('span', { className: 'material-chapters muted', text: material.chapters.map((chapter) => chapter.title).join(' · ') }),
        ),
      ),
    ),
  );
}

function note(text: string, className = 'muted', ...more: Node[]): HTMLParagraphElement {
  return element('p', { className, text }, ...more);
}

/** The nickname typed on the setup screen, or null (with the error shown in `errorLine`). */
function readNickname(errorLine: HTMLElement): string | null {
  const nickname = nicknameInput.value.trim();
  if (!nickname) {
    errorLine.textContent = '닉네임을 적어 주세요.';
    nicknameInput.focus();
    return null;
  }
  return nickname;
}

const chosenMaterial = () => setupForm.querySelector<HTMLInputElement>('input[name=material]:checked');

/**
 * `{id, title, chapters}` of a material (the first snapshot fills in whatever this cannot get). A class's material is
 * readable with the student's session token (materials are their owners'; a student sees their class's only).
 */
async function materialOutline(id: string, sessionToken: string): Promise<MaterialOutline> {
  let material: Material | undefined = listed.get(id);
  if (!material) {
    try {
      const response = await apiFetch(`/api/materials/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${sessionToken}` } });
      if (response.ok) material = (await response.json()) as Material;
    } catch {
      // The snapshot brings the material too.
    }
  }
  return outline({ id, title: material?.title ?? '수업 강의', chapters: material?.chapters ?? [] });
}

/** Wires the two forms; `enter` takes the classroom over with the session made. */
export function wireSetup(enter: (session: StoredSession) => void): void {
  classCodeInput.addEventListener('input', () => {
    const upper = classCodeInput.value.toUpperCase().replace(/\s+/g, '');
    if (upper !== classCodeInput.value) classCodeInput.value = upper;
    joinError.textContent = '';
  });

  joinForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    joinError.textContent = '';
    const code = classCodeInput.value.replace(/\s+/g, '').toUpperCase();
    const problem = joinCodeProblem(code);
    if (problem !== null) {
      joinError.textContent = problem;
      classCodeInput.focus();
      return;
    }
    hideRosterPicker();
    let choices;
    try {
      choices = await whileBusy(joinButton, '확인하는 중…', () => rosterOf(code, showJoinWait));
    } catch (error) {
      joinError.textContent = requestFailure(error);
      return;
    } finally {
      showJoinWait(0);
    }
    const { names } = choices;
    if (names) {
      // A roster class: the student's name comes from the instructor's list, not the nickname field.
      showRosterPicker({ ...choices, names }, (name) => void join(code, name, false));
      return;
    }
    const nickname = readNickname(joinError);
    if (nickname) await join(code, nickname, true);
  });

  /** Joins the class as `nickname` (remembered for next time when the student typed it) and enters the classroom. */
  const join = async (code: string, nickname: string, remember: boolean): Promise<void> => {
    joinError.textContent = '';
    await whileBusy(joinButton, '참여하는 중…', async () => {
      try {
        const post = (body: object) =>
          sendRetryingAfter(
            () =>
              apiFetch(`/api/classes/${encodeURIComponent(code)}/join`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(body),
              }),
            showJoinWait,
          );
        type Joined = { sessionId: string; token: string; classId: string; materialId: string };
        let response = await post({ nickname });
        let body = await jsonBody<Joined>(response);
        const chosen = chosenMaterial();
        if (!response.ok && body.error?.code === 'MATERIAL_REQUIRED' && chosen) {
          // A class without its own material: the student studies the one picked below.
          response = await post({ nickname, materialId: chosen.value });
          body = await jsonBody<Joined>(response);
        }
        if (!response.ok) throw new Error(errorText(body.error, '수업에 참여하지 못했습니다.'));
        if (remember) localStorage.setItem(NICKNAME_KEY, nickname);
        hideRosterPicker();
        enter({
          sessionId: body.sessionId,
          token: body.token,
          lastSeq: 0,
          started: false,
          nickname,
          classId: body.classId,
          classCode: code,
          material: await materialOutline(body.materialId, body.token),
        });
      } catch (error) {
        joinError.textContent = requestFailure(error);
      } finally {
        showJoinWait(0);
      }
    });
  };

  setupForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    setupError.textContent = '';
    const radio = chosenMaterial();
    const material = radio ? listed.get(radio.value) : undefined;
    if (!radio || !material) {
      setupError.textContent = '강의 자료를 골라 주세요.';
      return;
    }
    const nickname = readNickname(setupError);
    if (!nickname) return;
    await whileBusy(startButton, '준비 중…', async () => {
      try {
        // Only a signed-in instructor is listed anything but the sample: their own materials ("강의 미리 보기"), which
        // they may start with the session's cookie and its CSRF token, asked for here (a student never has a session,
        // and asking would only cost them a 401).
        if (!material.sample) await me().catch(() => null);
        // Through apiFetch: an instructor previewing their own material is recognised by the cookie.
        const response = await apiFetch('/api/sessions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ materialId: radio.value, nickname }),
        });
        const body = await jsonBody<{ sessionId: string; token: string }>(response);
        if (!response.ok) throw new Error(errorText(body.error, '강의를 시작하지 못했습니다.'));
        localStorage.setItem(NICKNAME_KEY, nickname);
        enter({ sessionId: body.sessionId, token: body.token, lastSeq: 0, started: false, nickname, material: outline(material) });
      } catch (error) {
        setupError.textContent = requestFailure(error);
      }
    });
  });
}
