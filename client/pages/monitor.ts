// Instructor monitor: create a class or open one of "내 수업" (GET /api/classes, the account's cookie), show its join
// code, and watch the class live over socket.io (`/monitor`, the class's instructor token, fetched fresh from
// GET /api/classes/:id on every load and never stored): the roster grid (a student's transcript on "기록 보기"), the
// raised-hands queue with "확인" and a direct reply, announcements to every student, and closing the class or
// replacing its join code. `?class=<id>` opens a class; localStorage only remembers the last one opened. After a
// reconnect the server replays what was missed or, when it could not recover the session, sends a fresh
// `class:roster` while the page reads its exam table again; either way the page replaces or upserts what it shows.
// Server text reaches the DOM as textContent only.
import '../ui/storage-fallback.js';
import type { Material } from '../../src/materials/types.js';
import { classesPage, createClass, openClass as fetchClass, type ClassSummary, type OpenedClass } from '../net/classes.js';
import { apiFetch, deleteResource, fetchAllPages, requestFailure } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { closeSocket, watchConnection } from '../net/lifecycle.js';
import type { MonitorCommands, MonitorSocket } from '../net/monitor-protocol.js';
import { openSocket, sendCommand } from '../net/socket.js';
import { showConnection } from '../ui/connection-badge.js';
import { $, element } from '../ui/dom.js';
import { whileBusy, wireTextForm } from '../ui/forms.js';
import { errorText } from '../ui/messages.js';
import { createdLabel, rememberedItem } from '../ui/remembered-list.js';
import { actionButton, statusLine } from '../ui/screens.js';
import { CURRENT_CLASS_KEY } from '../ui/stored-lists.js';
import { QuizRooms } from './monitor/quiz-rooms.js';
import { ExamProgress } from './monitor/exam-progress.js';
import { ProfilePanel } from './monitor/profile-panel.js';
import { ClassControls } from './monitor/class-controls.js';
import { showLmsRoster } from './monitor/lms-roster.js';
import { Roster, clock } from './monitor/roster.js';
import { TranscriptPanel } from './monitor/transcript-panel.js';

const setup = $('setup');
const createForm = $<HTMLFormElement>('create-form');
const nameInput = $<HTMLInputElement>('class-name');
const materialSelect = $<HTMLSelectElement>('class-material');
const createButton = $<HTMLButtonElement>('create-button');
const createError = $('create-error');
const classList = $('class-list');
const classListEmpty = $('class-list-empty');
const room = $('room');
const classTitle = $('class-title');
const classMaterialTitle = $('class-material-title');
const connection = $('connection');
const backButton = $<HTMLButtonElement>('back-button');
const joinCode = $('join-code');
const joinLink = $<HTMLAnchorElement>('join-link');
const copyButton = $<HTMLButtonElement>('copy-button');
const roomErrorLine = statusLine($('room-error'));
const announceForm = $<HTMLFormElement>('announce-form');
const announceInput = $<HTMLTextAreaElement>('announce-input');
const announceCounter = $('announce-counter');
const announceSend = $<HTMLButtonElement>('announce-send');
const announceError = $('announce-error');
const announceLog = $('announce-log');
const quizRoomNew = $<HTMLAnchorElement>('quiz-room-new');
const QUIZ_ROOMS_REFRESH_MS = 20_000;
const UNAUTHORIZED = '강사 접속 권한이 유효하지 않거나 만료되었습니다.';

/** The open class. */
let current: OpenedClass | null = null;
let classesCursor: string | null = null;
const classesMore = $<HTMLButtonElement>('class-list-more');
let socket: MonitorSocket | null = null;
let ticker: ReturnType<typeof setInterval> | undefined;
let roomsTicker: ReturnType<typeof setInterval> | undefined;
let quizRoomsReload: ReturnType<typeof setTimeout> | undefined;
let materialsById = new Map<string, Material>();

const transcript = new TranscriptPanel(async (sessionId, cursor) => {
  const ack = await sendCommand<MonitorCommands, 'student:transcript'>(socket, 'student:transcript', { sessionId, ...(cursor ? { cursor } : {}) });
  return ack.ok ? ack : errorText(ack.error, '기록을 불러오지 못했습니다.');
});
const roster = new Roster({
  acknowledge: async (sessionId) => {
    const ack = await sendCommand<MonitorCommands, 'hand:acknowledge'>(socket, 'hand:acknowledge', { sessionId });
    return ack.ok ? null : errorText(ack.error, '확인을 보내지 못했습니다.');
  },
  reply: async (sessionId, text) => {
    const ack = await sendCommand<MonitorCommands, 'hand:reply'>(socket, 'hand:reply', { sessionId, text });
    return ack.ok ? null : errorText(ack.error, '답을 보내지 못했습니다.');
  },
  open: (sessionId, nickname) => void transcript.open(sessionId, nickname),
  profile: (sessionId, nickname) => void profiles.open(sessionId, nickname),
});
const profiles = new ProfilePanel(() => current?.classId ?? null);
const exams = new ExamProgress(() => current, (sessionId, nickname) => void profiles.open(sessionId, nickname));
const quizRooms = new QuizRooms(() => current);
const controls = new ClassControls({
  command: (name) => sendCommand<MonitorCommands, typeof name>(socket, name, {}),
  className: () => current?.name ?? '',
  rotated: (code) => updateCode(code),
});

/** The class has a new join code (this tab rotated it, or another tab did). */
function updateCode(code: string): void {
  if (!current || current.code === code) return;
  current = { ...current, code };
  showClassHead(current);
}

function forgetClass(classId: string): void {
  if (localStorage.getItem(CURRENT_CLASS_KEY) === classId) localStorage.removeItem(CURRENT_CLASS_KEY);
}

// ---- setup -------------------------------------------------------------------------------------------------------

async function showSetup(): Promise<void> {
  closeRoom();
  localStorage.removeItem(CURRENT_CLASS_KEY);
  room.hidden = true;
  setup.hidden = false;
  document.title = '강사 모니터 — lectern';
  void loadClassList();
  await loadMaterials();
}

async function loadMaterials(): Promise<void> {
  let materials: Material[];
  try {
    // The list is paginated; the class form offers every material.
    materials = await fetchAllPages<Material>('/api/materials', 'materials');
  } catch {
    materialSelect.replaceChildren(element('option', { value: '', text: '자료 목록을 불러오지 못했습니다' }));
    return;
  }
  materialsById = new Map(materials.map((material) => [material.id, material]));
  const options = materials.map((material) => element('option', { value: material.id, text: `${material.title} (챕터 ${material.chapters.length}개)` }));
  options.push(element('option', { value: '', text: '정하지 않음 (학생이 직접 고름)' }));
  materialSelect.replaceChildren(...options);
  if (materials.length === 0) createError.textContent = '올린 강의 자료가 없습니다. 자료를 먼저 올리거나 "정하지 않음"으로 만들 수 있어요.';
}

/** "내 수업" from the server: the first page, or with `more` the next one appended. */
async function loadClassList(more = false): Promise<void> {
  let page;
  try {
    page = await classesPage(more ? classesCursor : null, 20);
  } catch (error) {
    createError.textContent = requestFailure(error);
    return;
  }
  classesCursor = page.nextCursor;
  classesMore.hidden = !classesCursor;
  const items = page.items.map(classItem);
  if (more) classList.append(...items);
  else classList.replaceChildren(...items);
  classListEmpty.hidden = classList.childElementCount > 0;
}

function classItem(entry: ClassSummary): HTMLLIElement {
  const open = element('button', { type: 'button', 'data-testid': 'open-class', text: '열기', 'aria-label': `${entry.name} 수업 열기` });
  open.addEventListener('click', () => void openById(entry.classId));
  const destroy = actionButton('수업 삭제', () => void deleteClass(entry, destroy));
  destroy.setAttribute('aria-label', `${entry.name} 수업 삭제`);
  destroy.dataset.testid = 'delete-class';
  const created = createdLabel(entry.createdAt);
  const details = `코드 ${entry.code} · 학생 ${entry.studentCount}명${entry.closed ? ' · 끝난 수업' : ''}${created ? ` · ${created}` : ''}`;
  return rememberedItem('class', entry.classId, entry.name, details, [open, destroy]);
}

classesMore.addEventListener('click', () => void loadClassList(true));

/** Deletes the class on the server, after the instructor confirms what goes with it (docs/PROTOCOL.md). */
async function deleteClass(entry: ClassSummary, button: HTMLButtonElement): Promise<void> {
  const question = `"${entry.name}" 수업을 삭제할까요?\n학생 명단, 학생들의 답변과 손들기 대화, 이 수업의 퀴즈와 퀴즈 결과가 모두 지워지며 되돌릴 수 없습니다.`;
  if (!window.confirm(question)) return;
  createError.textContent = '';
  await whileBusy(button, '삭제하는 중…', async () => {
    try {
      await deleteResource(`/api/classes/${encodeURIComponent(entry.classId)}`);
      forgetClass(entry.classId);
      await loadClassList();
    } catch (error) {
      createError.textContent = requestFailure(error);
    }
  });
}

createForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  createError.textContent = '';
  const name = nameInput.value.trim();
  if (!name) {
    createError.textContent = '수업 이름을 적어 주세요.';
    nameInput.focus();
    return;
  }
  const materialId = materialSelect.value || undefined;
  await whileBusy(createButton, '만드는 중…', async () => {
    try {
      const entry = await createClass(name, materialId ?? null);
      nameInput.value = '';
      history.replaceState(null, '', `?class=${encodeURIComponent(entry.classId)}`);
      await openClass(entry);
    } catch (error) {
      createError.textContent = requestFailure(error);
    }
  });
});

// ---- the room ------------------------------------------------------------------------------------------------------

/** Opens one of the account's classes with a fresh instructor token from the server. */
async function openById(classId: string): Promise<void> {
  let entry: OpenedClass;
  try {
    entry = await fetchClass(classId);
  } catch (error) {
    forgetClass(classId);
    history.replaceState(null, '', location.pathname);
    await showSetup();
    createError.textContent = requestFailure(error);
    return;
  }
  history.replaceState(null, '', `?class=${encodeURIComponent(classId)}`);
  await openClass(entry);
}

async function openClass(entry: OpenedClass): Promise<void> {
  closeRoom();
  current = { ...entry };
  try {
    localStorage.setItem(CURRENT_CLASS_KEY, entry.classId);
  } catch {
    // No storage (private mode): the room works until the page is closed.
  }
  setup.hidden = true;
  room.hidden = false;
  roomErrorLine.hide();
  showClassHead(current);
  roster.reset();
  transcript.close();
  controls.reset();
  // A class of an LMS course: its roster comes from the course (read again on the teacher's request).
  void showLmsRoster(entry.classId, $('lms-roster'));
  announceLog.replaceChildren();
  void loadChapters(entry.materialId);
  connect(current);
  ticker = setInterval(() => roster.refreshElapsed(), 15_000);
  quizRoomNew.href = `/host.html?class=${encodeURIComponent(entry.classId)}`;
  quizRooms.clear();
  void quizRooms.load();
  profiles.close();
  exams.reset();
  void exams.load();
  roomsTicker = setInterval(() => void quizRooms.load(), QUIZ_ROOMS_REFRESH_MS);
}

function showClassHead(entry: OpenedClass): void {
  document.title = `${entry.name} — lectern 강사 모니터`;
  classTitle.textContent = entry.name;
  joinCode.textContent = entry.code;
  joinCode.setAttribute('aria-label', `참여 코드 ${entry.code.split('').join(' ')}`);
  joinLink.href = `/classroom.html?code=${encodeURIComponent(entry.code)}`;
}

/** Chapter titles for the roster's progress, from the class's material. */
async function loadChapters(materialId: string | null): Promise<void> {
  roster.setChapters(new Map());
  classMaterialTitle.textContent = materialId ? '' : '강의 자료: 학생이 직접 고름';
  if (!materialId) return;
  try {
    const material = materialsById.get(materialId) ?? ((await (await apiFetch(`/api/materials/${encodeURIComponent(materialId)}`)).json()) as Material | undefined);
    if (!material?.chapters || current?.materialId !== materialId) return;
    roster.setChapters(new Map(material.chapters.map((chapter, position) => [chapter.index, { number: position + 1, title: chapter.title }])));
    classMaterialTitle.textContent = `강의 자료: ${material.title} · 챕터 ${material.chapters.length}개`;
  } catch {
    // Progress then shows chapter numbers only.
  }
}

function closeRoom(): void {
  clearInterval(ticker);
  clearInterval(roomsTicker);
  closeSocket(socket);
  socket = null;
  current = null;
}

function connect(entry: OpenedClass): void {
  const live: MonitorSocket = openSocket('/monitor', entry.instructorToken);
  socket = live;
  let connectedBefore = false;
  watchConnection(live, {
    state: (state) => showConnection(connection, state),
    connected: () => {
      roomErrorLine.hide();
      // A reconnection the server could not recover dropped the events sent meanwhile: the roster comes again
      // (class:roster), the exam table is read again.
      if (connectedBefore && !live.recovered) void exams.load();
      connectedBefore = true;
    },
    // The handshake refused the token (forged, expired, another kind).
    refused: (data) => {
      showConnection(connection, 'offline');
      showRoomError(`이 수업을 열 수 없습니다: ${data?.message ?? UNAUTHORIZED}`, true);
    },
  });
  live.on('class:roster', ({ classId, name, code, closedAt, students }) => {
    if (!current || classId !== current.classId) return;
    controls.showClosed(closedAt);
    if (name !== current.name || code !== current.code) {
      current = { ...current, name, code };
      showClassHead(current);
    }
    roster.replace(students);
  });
  // A quiz room of the class changed phase: refresh the room list (a burst of changes is one reload).
  live.on('quiz:room', () => {
    clearTimeout(quizRoomsReload);
    quizRoomsReload = setTimeout(() => void quizRooms.load(), 200);
  });
  live.on('student:joined', ({ student }) => roster.upsert(student));
  live.on('student:left', ({ sessionId }) => roster.patch(sessionId, { connected: false }));
  live.on('student:progress', ({ sessionId, chapter, percent, state }) => {
    roster.patch(sessionId, { chapter, percent, state, ...(state !== 'remediation' ? { remediation: null } : {}) });
  });
  live.on('student:answered', ({ sessionId, verdict, badStreak }) => roster.patch(sessionId, { lastVerdict: verdict, badStreak }));
  live.on('student:self-quiz', ({ sessionId, answered, correct }) => roster.patch(sessionId, { selfQuiz: { answered, correct } }));
  live.on('student:remediation', ({ sessionId, concept, index, total }) => roster.patch(sessionId, { remediation: { concept, index, total } }));
  live.on('hand:raised', ({ sessionId, question, raisedAt }) => {
    const previous = roster.get(sessionId)?.hand;
    const same = previous && previous.raisedAt === raisedAt;
    roster.patch(sessionId, {
      hand: {
        raisedAt,
        question: question ?? (same ? previous.question : null),
        acknowledged: same ? previous.acknowledged : false,
        answered: same ? previous.answered : false,
      },
    });
  });
  live.on('hand:resolved', ({ sessionId, kind }) => {
    const question = roster.get(sessionId)?.hand?.question ?? null;
    const at = Date.now();
    roster.patch(sessionId, { hand: null, resolved: { kind, at, question } });
    if (kind !== 'cancelled' && question) roster.assistantAnswered(sessionId, question, kind, at);
  });
  live.on('hand:answered', ({ sessionId, text, at }) => {
    roster.answered(sessionId, text, at);
    if (transcript.openFor === sessionId) void transcript.refresh();
  });
  live.on('class:closed', ({ closedAt }) => controls.showClosed(closedAt));
  // Exams: progress without answers, and the end of a student's grading.
  live.on('exam:progress', (event) => exams.progress(event));
  live.on('exam:graded', ({ examId, sessionId }) => exams.gradedFor(examId, sessionId));
  live.on('class:code', ({ code }) => updateCode(code));
  live.on('hand:acknowledged', ({ sessionId }) => {
    const hand = roster.get(sessionId)?.hand;
    if (hand) roster.patch(sessionId, { hand: { ...hand, acknowledged: true } });
  });
  live.on('monitor:error', (error) => showRoomError(errorText(error, '수업을 열 수 없습니다.'), true));
}

function showRoomError(message: string, offerForget = false): void {
  let forget: HTMLButtonElement | null = null;
  if (offerForget && current) {
    const { classId } = current;
    forget = actionButton('수업 목록으로 돌아가기', () => {
      forgetClass(classId);
      void showSetup();
    });
  }
  roomErrorLine.show(message, forget);
}

// ---- announcements -------------------------------------------------------------------------------------------------

wireTextForm(announceForm, announceInput, announceError, '공지 내용을 적어 주세요.', {
  typed: () => {
    announceCounter.textContent = `${announceInput.value.length}/500`;
  },
  send: async (text) => {
    const ack = await whileBusy(announceSend, '보내는 중…', () => sendCommand<MonitorCommands, 'class:announce'>(socket, 'class:announce', { text }));
    if (!ack.ok) {
      announceError.textContent = errorText(ack.error, '공지를 보내지 못했습니다.');
      return;
    }
    announceInput.value = '';
    announceCounter.textContent = '0/500';
    announceLog.prepend(
      element('li', { className: 'announce-item', 'data-testid': 'announce-item' }, element('time', { className: 'muted', text: clock(ack.at ?? Date.now()) }), element('p', { text })),
    );
  },
});

// ---- the rest ------------------------------------------------------------------------------------------------------

copyButton.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(current?.code ?? '');
    copyButton.textContent = '복사됨';
  } catch {
    copyButton.textContent = '복사하지 못함';
  }
  setTimeout(() => {
    copyButton.textContent = '코드 복사';
  }, 2000);
});

backButton.addEventListener('click', () => {
  history.replaceState(null, '', location.pathname);
  void showSetup();
});

// ---- start ---------------------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  await requireSignedIn();
  const wanted = new URLSearchParams(location.search).get('class') ?? localStorage.getItem(CURRENT_CLASS_KEY);
  if (wanted) {
    void loadMaterials();
    await openById(wanted);
  } else {
    await showSetup();
  }
}
void start();
