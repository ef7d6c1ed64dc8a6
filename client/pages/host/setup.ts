// Quiz host, room setup: pick or make a quiz of one of the account's classes (GET /api/classes; the chosen class's
// instructor token comes fresh from GET /api/classes/:id and is never stored) — from the class's quiz list, generated
// by the AI from an uploaded material, or pasted as JSON — set the room options and open the room (POST /api/rooms).
// A generated quiz's items are listed with the EvalAgent gate's verdicts (quiz-review.ts).
// Math problems are generated as a background job and made into a quiz in the "수학 문제 만들기" box (math-maker.ts);
// exams are generated, edited, published to a class and graded in the "시험 만들기" box (exam-maker.ts).
// `?class=` and `?quiz=` preselect a class and one of its quizzes. The new room is remembered with its host token and
// opened through the URL hash (see host.ts). This browser's earlier rooms are listed to re-open or forget.
import type { Material } from '../../../src/materials/types.js';
import { apiFetch, deleteResource, fetchAllPages, jsonBody, requestFailure } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { materialKeyTerms } from '../../net/material-terms.js';
import { errorText } from '../../ui/messages.js';
import { createdLabel, rememberedItem } from '../../ui/remembered-list.js';
import { actionButton } from '../../ui/screens.js';
import { allClasses, openClass, type ClassSummary, type OpenedClass } from '../../net/classes.js';
import { CURRENT_CLASS_KEY, hostedRooms } from '../../ui/stored-lists.js';
import type { ItemReview } from '../../../src/protocol/wire/quiz.js';
import { clearQuizReview, showQuizReview, type ReviewedQuiz } from './quiz-review.js';
import { initMathMaker, setMathMaterials } from './math-maker.js';
import { initExamMaker, setExamClasses, setExamMaterials } from './exam-maker.js';
import { initQuizEditor } from './quiz-editor.js';

/** One quiz of `GET /api/quizzes`. */
interface QuizListing {
  quizId: string;
  title: string;
  itemCount: number;
}

const noClass = $('no-class');
const setupNotice = $('setup-notice');
const roomForm = $<HTMLFormElement>('room-form');
const classSelect = $<HTMLSelectElement>('class-select');
const quizSelect = $<HTMLSelectElement>('quiz-select');
const generateBox = $<HTMLDetailsElement>('generate-box');
const materialSelect = $<HTMLSelectElement>('material-select');
const chapterSelect = $<HTMLSelectElement>('chapter-select');
const difficultySelect = $<HTMLSelectElement>('difficulty-select');
const topicSelect = $<HTMLSelectElement>('topic-select');
const generateButton = $<HTMLButtonElement>('generate-button');
const pasteBox = $<HTMLDetailsElement>('paste-box');
const pasteTitle = $<HTMLInputElement>('paste-title');
const pasteItems = $<HTMLTextAreaElement>('paste-items');
const pasteButton = $<HTMLButtonElement>('paste-button');
const quizStatus = $('quiz-status');
const questionSeconds = $<HTMLInputElement>('question-seconds');
const previewSeconds = $<HTMLInputElement>('preview-seconds');
const maxPlayers = $<HTMLInputElement>('max-players');
const lateJoin = $<HTMLInputElement>('late-join');
const streakBonus = $<HTMLInputElement>('streak-bonus');
const speedBonus = $<HTMLInputElement>('speed-bonus');
const teamsSelect = $<HTMLSelectElement>('teams');
const teamPick = $<HTMLInputElement>('team-pick');
const createButton = $<HTMLButtonElement>('create-button');
const createError = $('create-error');
const roomList = $('room-list');
const roomListEmpty = $('room-list-empty');

/** The class picked in the form, with its instructor token, or null. */
const selectedClass = (): OpenedClass | null => opened.get(classSelect.value) ?? null;
/** The account's classes opened on this page (with their instructor tokens), by id. */
const opened = new Map<string, OpenedClass>();
let classes: ClassSummary[] = [];

// ---- HTTP --------------------------------------------------------------------------------------------------------

async function api<T extends object>(path: string, { method = 'GET', token, body }: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await apiFetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch {
    throw new Error('서버에 연결할 수 없습니다.');
  }
  const data = await jsonBody<T>(response);
  if (!response.ok) throw new Error(errorText(data.error, `요청을 처리하지 못했습니다 (HTTP ${response.status}).`));
  return data;
}

// ---- setup -------------------------------------------------------------------------------------------------------

/** Redraws the setup screen (the caller shows it): classes, their quizzes, materials and this browser's rooms. */
export function showSetup(notice = ''): void {
  document.title = '퀴즈 진행 — lectern';
  setupNotice.textContent = notice;
  setupNotice.hidden = !notice;
  renderRoomList();
  void renderClasses();
}

async function renderClasses(): Promise<void> {
  try {
    classes = await allClasses();
  } catch (error) {
    setQuizStatus(requestFailure(error), true);
    classes = [];
  }
  setExamClasses(classes);
  noClass.hidden = classes.length > 0;
  roomForm.hidden = classes.length === 0;
  const wanted = classSelect.value || new URLSearchParams(location.search).get('class') || localStorage.getItem(CURRENT_CLASS_KEY);
  classSelect.replaceChildren(...classes.map((entry) => element('option', { value: entry.classId, text: `${entry.name} (코드 ${entry.code})` })));
  if (wanted && classes.some((entry) => entry.classId === wanted)) classSelect.value = wanted;
  await openSelected();
  // `?quiz=` ("퀴즈 진행" of "내 퀴즈") picks that quiz once the class's quizzes are listed: ready to open a room.
  void loadQuizzes(quizSelect.value || new URLSearchParams(location.search).get('quiz') || '');
  void loadMaterials();
}

/** Fetches the picked class's instructor token (once per page load). */
async function openSelected(): Promise<void> {
  const classId = classSelect.value;
  if (!classId || opened.has(classId)) return;
  try {
    opened.set(classId, await openClass(classId));
    localStorage.setItem(CURRENT_CLASS_KEY, classId);
  } catch (error) {
    setQuizStatus(requestFailure(error), true);
  }
}

async function loadQuizzes(selectId = quizSelect.value): Promise<void> {
  const entry = selectedClass();
  if (!entry) return;
  quizSelect.replaceChildren(element('option', { value: '', text: '퀴즈 목록을 불러오는 중…' }));
  let quizzes: QuizListing[];
  try {
    // The list is paginated; the picker offers every quiz of the class.
    quizzes = await fetchAllPages<QuizListing>('/api/quizzes', 'quizzes', { headers: { authorization: `Bearer ${entry.instructorToken}` } });
  } catch (error) {
    quizSelect.replaceChildren(element('option', { value: '', text: '퀴즈 목록을 불러오지 못했습니다' }));
    setQuizStatus(requestFailure(error), true);
    return;
  }
  if (quizzes.length === 0) {
    quizSelect.replaceChildren(element('option', { value: '', text: '아직 퀴즈가 없습니다. 아래에서 만들어 주세요.' }));
    clearQuizReview();
    return;
  }
  quizSelect.replaceChildren(...quizzes.map((quiz) => element('option', { value: quiz.quizId, text: `${quiz.title} (${quiz.itemCount}문제)`, 'data-title': quiz.title })));
  if (quizzes.some((quiz) => quiz.quizId === selectId)) quizSelect.value = selectId;
  await loadReview();
}

/** Which review request is the latest (a slower answer for a quiz no longer chosen is dropped). */
let reviewRequest = 0;

/** Shows the chosen quiz's gate verdicts (GET /api/quizzes/:id): a generated quiz's items, or nothing. */
async function loadReview(): Promise<void> {
  const entry = selectedClass();
  const quizId = quizSelect.value;
  const request = (reviewRequest += 1);
  if (!entry || !quizId) {
    clearQuizReview();
    return;
  }
  try {
    const quiz = await api<ReviewedQuiz>(`/api/quizzes/${encodeURIComponent(quizId)}`, { token: entry.instructorToken });
    if (request === reviewRequest) showQuizReview(quiz, keepItem);
  } catch (error) {
    if (request !== reviewRequest) return;
    clearQuizReview();
    setQuizStatus(requestFailure(error), true);
  }
}

/** "그래도 사용": keeps (or no longer keeps) a generated item that did not pass the gate. */
async function keepItem(quizId: string, itemId: string, kept: boolean): Promise<ItemReview> {
  const entry = selectedClass();
  if (!entry) throw new Error('수업을 먼저 골라 주세요.');
  const path = `/api/quizzes/${encodeURIComponent(quizId)}/items/${encodeURIComponent(itemId)}/keep`;
  const { review } = await api<{ review: ItemReview }>(path, { method: 'POST', token: entry.instructorToken, body: { kept } });
  return review;
}

let materials: Material[] = [];

async function loadMaterials(): Promise<void> {
  try {
    materials = await fetchAllPages<Material>('/api/materials', 'materials');
  } catch {
    materials = [];
  }
  if (materials.length === 0) {
    materialSelect.replaceChildren(element('option', { value: '', text: '올린 강의 자료가 없습니다' }));
  } else {
    // `?material=` (the upload page's "퀴즈 만들기") opens the generator on that material.
    const fromUpload = new URLSearchParams(location.search).get('material');
    if (fromUpload && !materialSelect.value) generateBox.open = true;
    const wanted = materialSelect.value || fromUpload || selectedClass()?.materialId;
    materialSelect.replaceChildren(...materials.map((material) => element('option', { value: material.id, text: material.title })));
    if (wanted && materials.some((material) => material.id === wanted)) materialSelect.value = wanted;
  }
  generateButton.disabled = materials.length === 0;
  renderChapters();
  setMathMaterials(materials, materialSelect.value);
  setExamMaterials(materials, materialSelect.value);
}

function renderChapters(): void {
  const material = materials.find((entry) => entry.id === materialSelect.value);
  chapterSelect.replaceChildren(
    element('option', { value: '', text: '자료 전체' }),
    ...(material?.chapters ?? []).map((chapter, index) => element('option', { value: String(index), text: `${index + 1}장 ${chapter.title}` })),
  );
  void renderTopics(material?.id);
}

/**
 * 주제: the picked material's own key terms, grouped by chapter (never fixed names of another course). A term is
 * sent as `focus`: the quiz is written from the passages about it.
 */
async function renderTopics(materialId: string | undefined): Promise<void> {
  topicSelect.replaceChildren(element('option', { value: '', text: '전체' }));
  if (!materialId) return;
  try {
    const { chapters } = await materialKeyTerms(materialId);
    if (materialSelect.value !== materialId) return;
    topicSelect.append(
      ...chapters
        .filter((chapter) => chapter.terms.length > 0)
        .map((chapter) =>
          element('optgroup', { label: `${chapter.index + 1}장 ${chapter.title}` }, ...chapter.terms.map((term) => element('option', { value: `${FOCUS_PREFIX}${term}`, text: term }))),
        ),
    );
  } catch {
    // Without the terms the quiz is about the whole material or the chapter picked above: 전체 stays.
  }
}

const FOCUS_PREFIX = 'focus:';

const deleteQuizButton = $<HTMLButtonElement>('delete-quiz');
deleteQuizButton.addEventListener('click', () => {
  const entry = selectedClass();
  const quizId = quizSelect.value;
  if (!entry || !quizId) return;
  const title = quizSelect.selectedOptions[0]?.dataset.title ?? '선택한';
  if (!window.confirm(`"${title}" 퀴즈를 삭제할까요? 되돌릴 수 없습니다. 이미 진행한 퀴즈 방의 결과는 남습니다.`)) return;
  void whileBusy(deleteQuizButton, '삭제하는 중…', async () => {
    try {
      await deleteResource(`/api/quizzes/${encodeURIComponent(quizId)}`, { authorization: `Bearer ${entry.instructorToken}` });
      setQuizStatus(`"${title}" 퀴즈를 삭제했습니다.`);
      await loadQuizzes('');
    } catch (error) {
      setQuizStatus(requestFailure(error), true);
    }
  });
});

function setQuizStatus(text: string, isError = false): void {
  quizStatus.textContent = text;
  quizStatus.classList.toggle('error', isError);
}

classSelect.addEventListener('change', async () => {
  setQuizStatus('');
  await openSelected();
  void loadQuizzes('');
  void loadMaterials();
});
materialSelect.addEventListener('change', renderChapters);
// "수학 문제 만들기" (math-maker.ts): a finished set's quiz is listed and picked for "방 만들기".
initMathMaker({
  selectedClass,
  quizMade: async (quizId, title) => {
    await loadQuizzes(quizId);
    setQuizStatus(`"${title}" 퀴즈를 골랐습니다. "방 만들기"로 진행하세요.`);
  },
});
// "시험 만들기" (exam-maker.ts): exams of the account's materials, published to its classes.
initExamMaker();
quizSelect.addEventListener('change', () => void loadReview());

interface CreatedQuiz {
  quizId: string;
  title: string;
  items: unknown[];
  /** A generated quiz: how many items passed the EvalAgent gate. */
  gate?: { passed: number; total: number };
}

generateButton.addEventListener('click', async () => {
  const entry = selectedClass();
  const materialId = materialSelect.value;
  if (!entry || !materialId) return;
  const body: { chapter?: number; difficulty?: string; focus?: string } = {};
  if (chapterSelect.value !== '') body.chapter = Number(chapterSelect.value);
  if (difficultySelect.value) body.difficulty = difficultySelect.value;
  // The passages the quiz is written from: the ones about a key term of the material (POST …/quiz `focus`).
  if (topicSelect.value.startsWith(FOCUS_PREFIX)) body.focus = topicSelect.value.slice(FOCUS_PREFIX.length);
  await whileBusy(generateButton, '만드는 중…', async () => {
    setQuizStatus('AI가 문제를 만들고 있습니다…');
    try {
      const quiz = await api<CreatedQuiz>(`/api/materials/${encodeURIComponent(materialId)}/quiz`, { method: 'POST', token: entry.instructorToken, body });
      // Selecting the new quiz lists its items with the judge's verdicts.
      await loadQuizzes(quiz.quizId);
      const gate = quiz.gate ? ` AI 검증 통과 ${quiz.gate.passed}/${quiz.gate.total}문항.` : '';
      setQuizStatus(`"${quiz.title}" 퀴즈를 만들었습니다 (${quiz.items.length}문제).${gate}`);
      generateBox.open = false;
    } catch (error) {
      setQuizStatus(requestFailure(error), true);
    }
  });
});

/** The pasted quiz: an array of items, or `{title, items}`. Returns { title, items } or throws a Korean message. */
function pastedQuiz(): { title: string; items: unknown[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(pasteItems.value);
  } catch (error) {
    // The engine's SyntaxError text is English and about a parser; say where, in words an instructor can act on.
    const at = /position (\d+)/.exec(requestFailure(error))?.[1];
    const line = at === undefined ? null : pasteItems.value.slice(0, Number(at)).split('\n').length;
    throw new Error(`붙여 넣은 문제가 JSON 형식에 맞지 않습니다${line === null ? '' : ` (${line}번째 줄 근처)`}. 쉼표, 따옴표, 괄호를 확인해 주세요.`);
  }
  const wrapper = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as { title?: unknown; items?: unknown }) : undefined;
  const items = Array.isArray(parsed) ? parsed : wrapper?.items;
  if (!Array.isArray(items) || items.length === 0) throw new Error('문제 배열이 비어 있거나 없습니다.');
  const title = pasteTitle.value.trim() || (typeof wrapper?.title === 'string' ? wrapper.title.trim() : '');
  if (!title) throw new Error('퀴즈 제목을 적어 주세요.');
  return { title, items };
}

pasteButton.addEventListener('click', async () => {
  const entry = selectedClass();
  if (!entry) return;
  let body: { title: string; items: unknown[] };
  try {
    body = pastedQuiz();
  } catch (error) {
    setQuizStatus(requestFailure(error), true);
    return;
  }
  await whileBusy(pasteButton, null, async () => {
    try {
      const quiz = await api<CreatedQuiz>('/api/quizzes', { method: 'POST', token: entry.instructorToken, body });
      await loadQuizzes(quiz.quizId);
      setQuizStatus(`"${quiz.title}" 퀴즈를 저장했습니다 (${quiz.items.length}문제).`);
      pasteItems.value = '';
      pasteTitle.value = '';
      pasteBox.open = false;
    } catch (error) {
      setQuizStatus(requestFailure(error), true);
    }
  });
});

// "문제 직접 쓰기" (quiz-editor.ts): a form per question type, saved like a pasted quiz.
initQuizEditor({
  token: () => selectedClass()?.instructorToken ?? null,
  save: async (body) => {
    const entry = selectedClass();
    if (!entry) return false;
    if (!body.title) {
      setQuizStatus('퀴즈 제목을 적어 주세요.', true);
      return false;
    }
    try {
      const quiz = await api<CreatedQuiz>('/api/quizzes', { method: 'POST', token: entry.instructorToken, body });
      await loadQuizzes(quiz.quizId);
      setQuizStatus(`"${quiz.title}" 퀴즈를 저장했습니다 (${quiz.items.length}문제).`);
      $<HTMLDetailsElement>('editor-box').open = false;
      return true;
    } catch (error) {
      setQuizStatus(requestFailure(error), true);
      return false;
    }
  },
});

// Enter in the quiz title saves the pasted quiz; it must not submit the room form around it.
pasteTitle.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  pasteButton.click();
});

/** A whole number within [min, max] from a number box, or null after showing what is wrong. */
function numberField(input: HTMLInputElement, label: string): number | null {
  const min = Number(input.min);
  const max = Number(input.max);
  const value = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    createError.textContent = `${label}은(는) ${min}~${max} 사이의 정수로 적어 주세요.`;
    input.focus();
    return null;
  }
  return value;
}

roomForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  createError.textContent = '';
  const entry = selectedClass();
  if (!entry) return;
  const quizId = quizSelect.value;
  if (!quizId) {
    createError.textContent = '진행할 퀴즈를 골라 주세요. 퀴즈가 없으면 위에서 만들 수 있어요.';
    quizSelect.focus();
    return;
  }
  const options = {
    questionSeconds: numberField(questionSeconds, '문제당 시간'),
    previewSeconds: numberField(previewSeconds, '미리 보기 시간'),
    maxPlayers: numberField(maxPlayers, '최대 인원'),
    lateJoin: lateJoin.checked,
    streakBonus: streakBonus.checked,
    speedBonus: speedBonus.checked,
    // Team mode: the number of teams (the server checks 2–10) and whether players pick their own.
    ...(teamsSelect.value ? { teams: Number(teamsSelect.value), teamPick: teamPick.checked } : {}),
  };
  if (options.questionSeconds === null || options.previewSeconds === null || options.maxPlayers === null) return;
  await whileBusy(createButton, '여는 중…', async () => {
    try {
      const created = await api<{ roomId: string; code: string; hostToken: string }>('/api/rooms', {
        method: 'POST',
        token: entry.instructorToken,
        body: { quizId, options },
      });
      const title = quizSelect.selectedOptions[0]?.dataset.title ?? '';
      hostedRooms.remember({ roomId: created.roomId, code: created.code, hostToken: created.hostToken, title, classId: entry.classId, createdAt: Date.now() });
      // The hash change opens the room (see host.ts).
      location.hash = `room=${created.roomId}`;
    } catch (error) {
      createError.textContent = requestFailure(error);
    }
  });
});

function renderRoomList(): void {
  const rooms = hostedRooms.all();
  roomListEmpty.hidden = rooms.length > 0;
  roomList.replaceChildren(
    ...rooms.map((entry) => {
      const open = element('a', { className: 'button small-button', href: `#room=${entry.roomId}`, text: entry.ended ? '결과 보기' : '다시 열기', 'data-testid': 'room-open' });
      const remove = actionButton('목록에서 지우기', () => {
        hostedRooms.forget(entry.roomId);
        renderRoomList();
      });
      const created = createdLabel(entry.createdAt);
      const details = `코드 ${entry.code}${created ? ` · ${created}` : ''}${entry.ended ? ' · 끝남' : ''}`;
      return rememberedItem('room', entry.roomId, entry.title || '퀴즈 방', details, [open, remove]);
    }),
  );
}
