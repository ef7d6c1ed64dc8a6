// Instructor monitor: create a class (or open one made on this browser), show its join code, and watch the class
// live over socket.io (`/monitor`, instructor token): the roster grid, the raised-hands queue with the "확인" button,
// and announcements to every student. Classes ({classId, code, instructorToken, …}) live in localStorage, so a reload
// keeps the room. After a reconnect the server sends a fresh `class:roster` (or replays what was missed), so the page
// simply replaces or upserts what it shows. Server text reaches the DOM as textContent only.

import { PROTOCOL_VERSION } from './protocol.js';
import { requiredText, submitOnCtrlEnter } from './forms.js';
import {
  $,
  CLASSES_KEY,
  CURRENT_CLASS_KEY,
  PHASE_LABELS,
  downloadWithToken,
  element,
  hostedRooms,
  sendCommand,
  setConnection,
  statusLine,
  storedClasses,
  writeList,
} from './quiz-common.js';
import { fetchAllPages, fetchPage, requestFailure } from './dom.js';

const STRUGGLING_STREAK = 2;
const STATE_LABELS = {
  idle: '시작 전',
  streaming: '강의 듣는 중',
  paused: '일시정지',
  'awaiting-answer': '질문에 답하는 중',
  tutoring: '피드백 받는 중',
  remediation: '보충 학습 중',
  'hand-raised': '손 들고 질문 중',
  finished: '수업 완료',
};
const VERDICT_LABELS = { good: '최근 답: 잘했어요', bad: '최근 답: 다시 살펴봐요' };
const RESOLVED_LABELS = { specific: '답변을 받음', vague: '설명과 정리를 받음', cancelled: '손을 내림' };
const FALLBACK_MESSAGES = {
  RATE_LIMITED: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  HAND_NOT_RAISED: '이 학생은 이미 손을 내렸습니다.',
  FORBIDDEN: '이 수업의 학생이 아닙니다.',
  INVALID_PAYLOAD: '보낸 내용이 올바르지 않습니다. 공지는 1~500자로 적어 주세요.',
  UNAUTHORIZED: '강사 토큰이 유효하지 않거나 만료되었습니다.',
  CLASS_NOT_FOUND: '수업을 찾을 수 없습니다.',
};

const setup = $('setup');
const createForm = $('create-form');
const nameInput = $('class-name');
const materialSelect = $('class-material');
const createButton = $('create-button');
const createError = $('create-error');
const classList = $('class-list');
const classListEmpty = $('class-list-empty');
const room = $('room');
const classTitle = $('class-title');
const classMaterialTitle = $('class-material-title');
const connection = $('connection');
const backButton = $('back-button');
const joinCode = $('join-code');
const joinLink = $('join-link');
const copyButton = $('copy-button');
const roomError = $('room-error');
const roomErrorLine = statusLine(roomError);
const roster = $('roster');
const rosterEmpty = $('roster-empty');
const rosterSummary = $('roster-summary');
const queue = $('hand-queue');
const queueEmpty = $('queue-empty');
const queueCount = $('queue-count');
const announceForm = $('announce-form');
const announceInput = $('announce-input');
const announceCounter = $('announce-counter');
const announceSend = $('announce-send');
const announceError = $('announce-error');
const announceLog = $('announce-log');
const quizRoomList = $('quiz-room-list');
const quizRoomsEmpty = $('quiz-rooms-empty');
const quizRoomsError = $('quiz-rooms-error');
const quizRoomNew = $('quiz-room-new');
const quizRoomsMore = $('quiz-rooms-more');
/** Rooms shown per page; "더 보기" appends the next page (the list is paginated, newest first). */
const QUIZ_ROOMS_PAGE = 20;
const QUIZ_ROOMS_REFRESH_MS = 20_000;

/** The open class: { classId, code, instructorToken, name, materialId, createdAt }. */
let current = null;
let socket = null;
/** sessionId -> RosterEntry (+ `remediation`) */
const students = new Map();
/** sessionId -> roster card */
const cards = new Map();
/** sessionId -> queue item */
const handItems = new Map();
/** chapter index -> { number, title } of the class's material */
let chapters = new Map();
let ticker = 0;
let roomsTicker = 0;
let quizRoomsReload = 0;

// ---- small helpers -----------------------------------------------------------------------------------------------

const clock = (at) => new Date(at).toLocaleTimeString('ko-KR', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function elapsed(at) {
  const seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
  if (seconds < 60) return '방금';
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}분째` : `${Math.floor(minutes / 60)}시간째`;
}

const errorText = (error, fallback) => error?.message || FALLBACK_MESSAGES[error?.code] || fallback;

// ---- stored classes (kept in localStorage; storedClasses() and the keys are in quiz-common.js) ---------------------

function rememberClass(entry) {
  writeList(CLASSES_KEY, [entry, ...storedClasses().filter((other) => other.classId !== entry.classId)]);
}

function forgetClass(classId) {
  writeList(CLASSES_KEY, storedClasses().filter((entry) => entry.classId !== classId));
  if (localStorage.getItem(CURRENT_CLASS_KEY) === classId) localStorage.removeItem(CURRENT_CLASS_KEY);
}

// ---- setup -------------------------------------------------------------------------------------------------------

async function showSetup() {
  closeRoom();
  localStorage.removeItem(CURRENT_CLASS_KEY);
  room.hidden = true;
  setup.hidden = false;
  document.title = '강사 모니터 — lectern';
  renderClassList();
  await loadMaterials();
}

let materialsById = new Map();

async function loadMaterials() {
  let materials;
  try {
    // The list is paginated; the class form offers every material.
    materials = (await fetchAllPages('/api/materials', 'materials')).items;
  } catch {
    materialSelect.replaceChildren(element('option', { value: '', text: '자료 목록을 불러오지 못했습니다' }));
    return;
  }
  materialsById = new Map(materials.map((material) => [material.id, material]));
  const options = materials.map((material) =>
    element('option', { value: material.id, text: `${material.title} (챕터 ${material.chapters.length}개)` }),
  );
  options.push(element('option', { value: '', text: '정하지 않음 (학생이 직접 고름)' }));
  materialSelect.replaceChildren(...options);
  if (materials.length === 0) createError.textContent = '올린 강의 자료가 없습니다. 자료를 먼저 올리거나 "정하지 않음"으로 만들 수 있어요.';
}

function renderClassList() {
  const classes = storedClasses();
  classListEmpty.hidden = classes.length > 0;
  classList.replaceChildren(
    ...classes.map((entry) => {
      const open = element('button', { type: 'button', 'data-testid': 'open-class', text: '열기', 'aria-label': `${entry.name} 수업 열기` });
      open.addEventListener('click', () => void openClass(entry));
      const remove = element('button', { type: 'button', className: 'secondary small', text: '목록에서 지우기', 'aria-label': `${entry.name} 수업을 목록에서 지우기` });
      remove.addEventListener('click', () => {
        if (!window.confirm(`"${entry.name}" 수업을 이 브라우저의 목록에서 지울까요? 수업 자체는 지워지지 않지만, 다시 열 수 없게 됩니다.`)) return;
        forgetClass(entry.classId);
        renderClassList();
      });
      const created = entry.createdAt ? new Date(entry.createdAt).toLocaleString('ko-KR', { dateStyle: 'medium', timeStyle: 'short' }) : '';
      return element(
        'li',
        { className: 'class-item', 'data-testid': 'class-item', 'data-class-id': entry.classId },
        element(
          'div',
          { className: 'class-item-text' },
          element('strong', { text: entry.name }),
          element('span', { className: 'muted', text: `코드 ${entry.code}${created ? ` · ${created}` : ''}` }),
        ),
        element('div', { className: 'class-item-actions' }, open, remove),
      );
    }),
  );
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
  createButton.disabled = true;
  createButton.textContent = '만드는 중…';
  try {
    const response = await fetch('/api/classes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, ...(materialId ? { materialId } : {}) }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(errorText(body.error, '수업을 만들지 못했습니다.'));
    const entry = { classId: body.classId, code: body.code, instructorToken: body.instructorToken, name, materialId: materialId ?? null, createdAt: Date.now() };
    rememberClass(entry);
    nameInput.value = '';
    await openClass(entry);
  } catch (error) {
    createError.textContent = requestFailure(error);
  } finally {
    createButton.disabled = false;
    createButton.textContent = '수업 만들기';
  }
});

// ---- the room ------------------------------------------------------------------------------------------------------

async function openClass(entry) {
  closeRoom();
  current = { ...entry };
  try {
    localStorage.setItem(CURRENT_CLASS_KEY, entry.classId);
  } catch {
    // No storage (private mode): the room works until the page is closed.
  }
  setup.hidden = true;
  room.hidden = false;
  hideRoomError();
  showClassHead();
  resetRoster();
  announceLog.replaceChildren();
  void loadChapters(entry.materialId);
  connect();
  clearInterval(ticker);
  ticker = setInterval(refreshElapsed, 15_000);
  quizRoomNew.href = `/host.html?class=${encodeURIComponent(entry.classId)}`;
  quizRoomList.replaceChildren();
  quizRoomsMore.hidden = true;
  void loadQuizRooms();
  clearInterval(roomsTicker);
  roomsTicker = setInterval(() => void loadQuizRooms(), QUIZ_ROOMS_REFRESH_MS);
}

function showClassHead() {
  document.title = `${current.name} — lectern 강사 모니터`;
  classTitle.textContent = current.name;
  joinCode.textContent = current.code;
  joinCode.setAttribute('aria-label', `참여 코드 ${current.code.split('').join(' ')}`);
  joinLink.href = `/classroom.html?code=${encodeURIComponent(current.code)}`;
}

/** Chapter titles for the roster's progress, from the class's material. */
async function loadChapters(materialId) {
  chapters = new Map();
  classMaterialTitle.textContent = materialId ? '' : '강의 자료: 학생이 직접 고름';
  if (!materialId) return;
  try {
    const material = materialsById.get(materialId) ?? (await (await fetch(`/api/materials/${encodeURIComponent(materialId)}`)).json());
    if (!material?.chapters || current?.materialId !== materialId) return;
    chapters = new Map(material.chapters.map((chapter, position) => [chapter.index, { number: position + 1, title: chapter.title }]));
    classMaterialTitle.textContent = `강의 자료: ${material.title} · 챕터 ${material.chapters.length}개`;
    for (const [sessionId, entry] of students) updateCard(cards.get(sessionId), entry);
  } catch {
    // Progress then shows chapter numbers only.
  }
}

function closeRoom() {
  clearInterval(ticker);
  clearInterval(roomsTicker);
  if (socket) {
    socket.removeAllListeners();
    socket.disconnect();
    socket = null;
  }
  current = null;
}

function connect() {
  const token = current.instructorToken;
  socket = io('/monitor', { auth: { protocolVersion: PROTOCOL_VERSION, token }, transports: ['websocket'] });
  setConnection(connection, 'connecting');
  socket.on('connect', () => {
    setConnection(connection, 'connected');
    hideRoomError();
  });
  socket.on('disconnect', (reason) => {
    setConnection(connection, reason === 'io server disconnect' ? 'offline' : 'reconnecting');
  });
  socket.on('connect_error', (error) => {
    if (socket?.active) {
      setConnection(connection, 'reconnecting');
      return;
    }
    // The handshake refused the token (forged, expired, another kind): socket.io does not retry.
    setConnection(connection, 'offline');
    showRoomError(`이 수업을 열 수 없습니다: ${error.data?.message ?? FALLBACK_MESSAGES.UNAUTHORIZED}`, true);
  });
  socket.on('class:roster', onRoster);
  // A quiz room of the class changed phase: refresh the room list (a burst of changes is one reload).
  socket.on('quiz:room', () => {
    clearTimeout(quizRoomsReload);
    quizRoomsReload = setTimeout(() => void loadQuizRooms(), 200);
  });
  socket.on('student:joined', ({ student }) => upsert(student));
  socket.on('student:left', ({ sessionId }) => patch(sessionId, { connected: false }));
  socket.on('student:progress', ({ sessionId, chapter, percent, state }) => {
    const changes = { chapter, percent, state };
    if (state !== 'remediation') changes.remediation = null;
    patch(sessionId, changes);
  });
  socket.on('student:answered', ({ sessionId, verdict, badStreak }) => patch(sessionId, { lastVerdict: verdict, badStreak }));
  socket.on('student:remediation', ({ sessionId, concept, index, total }) => patch(sessionId, { remediation: { concept, index, total } }));
  socket.on('hand:raised', ({ sessionId, question, raisedAt }) => {
    const previous = students.get(sessionId)?.hand;
    const same = previous && previous.raisedAt === raisedAt;
    patch(sessionId, {
      hand: { raisedAt, question: question ?? (same ? previous.question : null), acknowledged: same ? previous.acknowledged : false },
    });
  });
  socket.on('hand:resolved', ({ sessionId, kind }) => {
    const entry = students.get(sessionId);
    patch(sessionId, { hand: null, resolved: { kind, at: Date.now(), question: entry?.hand?.question ?? null } });
  });
  socket.on('hand:acknowledged', ({ sessionId }) => {
    const hand = students.get(sessionId)?.hand;
    if (hand) patch(sessionId, { hand: { ...hand, acknowledged: true } });
  });
  socket.on('monitor:error', (error) => {
    showRoomError(errorText(error, '수업을 열 수 없습니다.'), true);
  });
}

function showRoomError(message, offerForget = false) {
  let forget = null;
  if (offerForget && current) {
    const { classId } = current;
    forget = element('button', { type: 'button', className: 'secondary small', text: '목록에서 지우고 돌아가기' });
    forget.addEventListener('click', () => {
      forgetClass(classId);
      void showSetup();
    });
  }
  roomErrorLine.show(message, forget);
}

function hideRoomError() {
  roomErrorLine.hide();
}

// ---- roster ------------------------------------------------------------------------------------------------------

function resetRoster() {
  students.clear();
  cards.clear();
  handItems.clear();
  roster.replaceChildren();
  queue.replaceChildren();
  refreshCounts();
}

/** A fresh roster (first connect and every reconnect): it replaces everything shown. */
function onRoster({ classId, name, code, students: entries }) {
  if (!current || classId !== current.classId) return;
  if (name !== current.name || code !== current.code) {
    current = { ...current, name, code };
    rememberClass(current);
    showClassHead();
  }
  const seen = new Set(entries.map((entry) => entry.sessionId));
  for (const sessionId of [...students.keys()]) {
    if (seen.has(sessionId)) continue;
    students.delete(sessionId);
    cards.get(sessionId)?.remove();
    cards.delete(sessionId);
  }
  for (const entry of entries) upsert(entry, false);
  // The server's order is join order.
  for (const entry of entries) roster.append(cards.get(entry.sessionId));
  renderQueue();
  refreshCounts();
}

function upsert(entry, render = true) {
  const previous = students.get(entry.sessionId);
  const next = { remediation: null, ...previous, ...entry };
  students.set(entry.sessionId, next);
  let card = cards.get(entry.sessionId);
  if (!card) {
    card = studentCard(entry.sessionId);
    cards.set(entry.sessionId, card);
    roster.append(card);
  }
  updateCard(card, next);
  if (render) {
    renderQueue();
    refreshCounts();
  }
}

function patch(sessionId, changes) {
  const entry = students.get(sessionId);
  // An event for a student this page has not seen yet (it raced the roster): the next roster brings them.
  if (!entry) return;
  upsert({ ...entry, ...changes });
}

function studentCard(sessionId) {
  const card = element('article', { className: 'student', role: 'listitem', 'data-testid': 'roster-entry', 'data-session-id': sessionId });
  const dot = element('span', { className: 'dot', role: 'img' });
  const name = element('strong', { className: 'student-name', 'data-testid': 'student-name' });
  const hand = element('span', { className: 'student-hand', 'data-testid': 'student-hand', text: '손 듦', hidden: true });
  const fill = element('span', { className: 'fill' });
  const bar = element('div', { className: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'data-testid': 'student-bar' }, fill);
  const progress = element('p', { className: 'student-progress', 'data-testid': 'student-progress' });
  const state = element('span', { className: 'badge state', 'data-testid': 'student-state' });
  const verdict = element('span', { className: 'badge', 'data-testid': 'student-verdict' });
  const struggling = element('span', { className: 'badge struggling', 'data-testid': 'struggling', text: '도움 필요' });
  const remediation = element('p', { className: 'student-note muted', 'data-testid': 'student-remediation' });
  card.append(
    element('div', { className: 'student-head' }, dot, name, hand),
    bar,
    progress,
    element('div', { className: 'student-badges' }, state, verdict, struggling),
    remediation,
  );
  card.parts = { dot, name, hand, fill, bar, progress, state, verdict, struggling, remediation };
  return card;
}

function progressText(entry) {
  if (entry.state === 'finished') return '모든 챕터 완료 · 100%';
  if (entry.chapter < 0) return '시작 전 · 0%';
  const chapter = chapters.get(entry.chapter);
  const label = chapter ? `${chapter.number}/${chapters.size}장 ${chapter.title}` : `${entry.chapter + 1}장`;
  return `${label} · ${entry.percent}%`;
}

function updateCard(card, entry) {
  if (!card) return;
  const { dot, name, hand, fill, bar, progress, state, verdict, struggling, remediation } = card.parts;
  const isStruggling = entry.badStreak >= STRUGGLING_STREAK;
  card.dataset.connected = String(entry.connected);
  card.dataset.state = entry.state;
  card.dataset.chapter = String(entry.chapter);
  card.dataset.percent = String(entry.percent);
  card.dataset.struggling = String(isStruggling);
  card.dataset.hand = String(Boolean(entry.hand));
  dot.dataset.connected = String(entry.connected);
  dot.setAttribute('aria-label', entry.connected ? '접속 중' : '접속 끊김');
  dot.title = entry.connected ? '접속 중' : '접속 끊김';
  name.textContent = entry.nickname;
  hand.hidden = !entry.hand;
  fill.style.width = `${Math.max(0, Math.min(100, entry.percent))}%`;
  const text = progressText(entry);
  bar.setAttribute('aria-valuenow', String(entry.percent));
  bar.setAttribute('aria-valuetext', text);
  bar.setAttribute('aria-label', `${entry.nickname} 진행률`);
  progress.textContent = text;
  state.textContent = STATE_LABELS[entry.state] ?? entry.state;
  state.dataset.state = entry.state;
  verdict.hidden = !entry.lastVerdict;
  verdict.className = `badge ${entry.lastVerdict === 'good' ? 'good' : 'bad'}`;
  verdict.dataset.verdict = entry.lastVerdict ?? '';
  verdict.textContent = entry.lastVerdict ? VERDICT_LABELS[entry.lastVerdict] : '';
  struggling.hidden = !isStruggling;
  struggling.title = isStruggling ? `연속으로 ${entry.badStreak}번 어려워했어요` : '';
  let note = '';
  if (entry.remediation && entry.state === 'remediation') note = `보충 학습: ${entry.remediation.concept} (${entry.remediation.index}/${entry.remediation.total})`;
  else if (entry.resolved && !entry.hand && Date.now() - entry.resolved.at < 5 * 60_000) note = `최근 질문: ${RESOLVED_LABELS[entry.resolved.kind] ?? '끝남'}`;
  remediation.textContent = note;
  remediation.hidden = !note;
}

function refreshCounts() {
  const all = [...students.values()];
  const online = all.filter((entry) => entry.connected).length;
  const raised = all.filter((entry) => entry.hand).length;
  const struggling = all.filter((entry) => entry.badStreak >= STRUGGLING_STREAK).length;
  rosterEmpty.hidden = all.length > 0;
  rosterSummary.textContent = all.length === 0 ? '' : `${all.length}명 · 접속 ${online}명 · 손 ${raised}명 · 도움 필요 ${struggling}명`;
}

// ---- raised hands ------------------------------------------------------------------------------------------------

/** The queue in arrival order; items are kept (not rebuilt) so a focused "확인" button keeps its focus. */
function renderQueue() {
  const raised = [...students.values()].filter((entry) => entry.hand).sort((left, right) => left.hand.raisedAt - right.hand.raisedAt);
  const wanted = new Set(raised.map((entry) => entry.sessionId));
  for (const [sessionId, item] of handItems) {
    if (wanted.has(sessionId)) continue;
    item.remove();
    handItems.delete(sessionId);
  }
  raised.forEach((entry, position) => {
    let item = handItems.get(entry.sessionId);
    if (!item) {
      item = handItem(entry.sessionId);
      handItems.set(entry.sessionId, item);
    }
    updateHandItem(item, entry);
    if (queue.children[position] !== item) queue.insertBefore(item, queue.children[position] ?? null);
  });
  queueEmpty.hidden = raised.length > 0;
  queueCount.textContent = String(raised.length);
  queueCount.className = raised.length > 0 ? 'badge raised' : 'badge';
}

function handItem(sessionId) {
  const name = element('strong', { 'data-testid': 'hand-name' });
  const time = element('span', { className: 'muted hand-time', 'data-testid': 'hand-time' });
  const question = element('p', { className: 'hand-question', 'data-testid': 'hand-question' });
  const button = element('button', { type: 'button', className: 'small', 'data-testid': 'hand-ack', text: '확인' });
  const acked = element('span', { className: 'badge good', 'data-testid': 'hand-acked', text: '확인함', hidden: true });
  const error = element('p', { className: 'error hand-error', role: 'alert' });
  const item = element(
    'li',
    { className: 'hand-item', 'data-testid': 'hand-item', 'data-session-id': sessionId },
    element('div', { className: 'hand-item-head' }, name, time, element('span', { className: 'hand-item-action' }, button, acked)),
    question,
    error,
  );
  button.addEventListener('click', async () => {
    button.disabled = true;
    error.textContent = '';
    const ack = await sendCommand(socket, 'hand:acknowledge', { sessionId });
    button.disabled = false;
    if (ack.ok) {
      const hand = students.get(sessionId)?.hand;
      if (hand) patch(sessionId, { hand: { ...hand, acknowledged: true } });
    } else {
      error.textContent = errorText(ack.error, '확인을 보내지 못했습니다.');
    }
  });
  item.parts = { name, time, question, button, acked };
  return item;
}

function updateHandItem(item, entry) {
  const { name, time, question, button, acked } = item.parts;
  const { hand } = entry;
  item.dataset.acknowledged = String(hand.acknowledged);
  item.dataset.raisedAt = String(hand.raisedAt);
  name.textContent = entry.nickname;
  time.textContent = `${clock(hand.raisedAt)} · ${elapsed(hand.raisedAt)}`;
  question.textContent = hand.question ?? '질문을 적는 중…';
  question.classList.toggle('muted', !hand.question);
  button.hidden = hand.acknowledged;
  button.setAttribute('aria-label', `${entry.nickname} 학생이 손 든 것 확인`);
  acked.hidden = !hand.acknowledged;
}

function refreshElapsed() {
  for (const [sessionId, item] of handItems) {
    const entry = students.get(sessionId);
    if (entry?.hand) item.parts.time.textContent = `${clock(entry.hand.raisedAt)} · ${elapsed(entry.hand.raisedAt)}`;
  }
}

// ---- announcements -------------------------------------------------------------------------------------------------

announceInput.addEventListener('input', () => {
  announceCounter.textContent = `${announceInput.value.length}/500`;
  announceError.textContent = '';
});
submitOnCtrlEnter(announceInput, announceForm);
announceForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = requiredText(announceInput, announceError, '공지 내용을 적어 주세요.');
  if (text === null) return;
  announceSend.disabled = true;
  announceSend.textContent = '보내는 중…';
  const ack = await sendCommand(socket, 'class:announce', { text });
  announceSend.disabled = false;
  announceSend.textContent = '모두에게 보내기';
  if (!ack.ok) {
    announceError.textContent = errorText(ack.error, '공지를 보내지 못했습니다.');
    return;
  }
  announceInput.value = '';
  announceCounter.textContent = '0/500';
  announceLog.prepend(
    element(
      'li',
      { className: 'announce-item', 'data-testid': 'announce-item' },
      element('time', { className: 'muted', text: clock(ack.at ?? Date.now()) }),
      element('p', { text }),
    ),
  );
});

// ---- quiz rooms ----------------------------------------------------------------------------------------------------

let quizRoomsCursor = null;

/**
 * The class's quiz rooms (GET /api/rooms, newest first) with their results; the host page link where this browser
 * hosts. A reload shows the first page again; `more` appends the next one.
 */
async function loadQuizRooms({ more = false } = {}) {
  const entry = current;
  if (!entry) return;
  let page;
  try {
    page = await fetchPage('/api/rooms', 'rooms', {
      limit: QUIZ_ROOMS_PAGE,
      cursor: more ? quizRoomsCursor : null,
      headers: { authorization: `Bearer ${entry.instructorToken}` },
    });
  } catch (error) {
    if (current?.classId !== entry.classId) return;
    quizRoomsError.textContent = requestFailure(error);
    return;
  }
  if (current?.classId !== entry.classId) return;
  quizRoomsError.textContent = '';
  const hosted = new Set(hostedRooms().map((room) => room.roomId));
  const items = page.items.map((room) => quizRoomItem(room, hosted.has(room.roomId), entry.instructorToken));
  if (more) quizRoomList.append(...items);
  else quizRoomList.replaceChildren(...items);
  quizRoomsCursor = page.nextCursor;
  quizRoomsMore.hidden = !quizRoomsCursor;
  quizRoomsEmpty.hidden = quizRoomList.children.length > 0;
}

function quizRoomItem(room, hostedHere, token) {
  const created = new Date(room.createdAt).toLocaleString('ko-KR', { dateStyle: 'medium', timeStyle: 'short' });
  const actions = element('div', { className: 'quiz-room-actions' });
  if (hostedHere) actions.append(element('a', { href: `/host.html#room=${encodeURIComponent(room.roomId)}`, text: room.phase === 'ended' ? '진행 화면' : '진행 화면 열기', 'data-testid': 'quiz-room-host' }));
  for (const [kind, url, label] of [['csv', room.csvUrl, '결과 CSV'], ['json', room.resultsUrl, '결과 JSON']]) {
    const button = element('button', { type: 'button', className: 'secondary small', text: label, 'data-testid': `quiz-room-${kind}` });
    button.addEventListener('click', async () => {
      button.disabled = true;
      const failure = await downloadWithToken(url, token, `quiz-${room.code}-results.${kind}`);
      button.disabled = false;
      quizRoomsError.textContent = failure ?? '';
    });
    actions.append(button);
  }
  return element(
    'li',
    { className: 'quiz-room', 'data-testid': 'quiz-room', 'data-room-id': room.roomId, 'data-phase': room.phase },
    element(
      'div',
      { className: 'quiz-room-text' },
      element('strong', { text: room.title }),
      element('span', { className: 'muted', text: `코드 ${room.code} · 참가자 ${room.players}명 · ${created}` }),
    ),
    element('span', { className: 'badge phase', 'data-phase': room.phase, text: PHASE_LABELS[room.phase] ?? room.phase }),
    actions,
  );
}

$('quiz-rooms-refresh').addEventListener('click', () => void loadQuizRooms());
quizRoomsMore.addEventListener('click', () => void loadQuizRooms({ more: true }));

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

backButton.addEventListener('click', () => void showSetup());

// ---- start ---------------------------------------------------------------------------------------------------------

const wanted = localStorage.getItem(CURRENT_CLASS_KEY);
const resumed = storedClasses().find((entry) => entry.classId === wanted);
if (resumed) {
  void loadMaterials();
  void openClass(resumed);
} else {
  void showSetup();
}
