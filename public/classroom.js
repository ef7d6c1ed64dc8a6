// Classroom page: pick a material and a nickname, start a session, then follow the live lecture over socket.io
// (`/tutor`). The session (id, token, last seq) lives in sessionStorage so a reload resumes the same session.
//
// Sequencing: every server event carries the session's `seq`. Events at or below `lastSeq` are ignored; a jump
// (seq > lastSeq + 1) asks the server for what was missed with `session:resume {lastSeq}`; a `session:state`
// snapshot replaces everything. A freshly loaded page has rendered nothing, so it always resumes from 0.
//
// A student may also join an instructor's class with its code (POST /api/classes/:code/join): the same session flow,
// plus the class's announcements and the instructor's acknowledgement of a raised hand, which carry no seq (they are
// not session events) and so bypass the seq checks. The raise-hand dialogue lives in classroom-hand.js.
import { PROTOCOL_VERSION } from './protocol.js';
import { HandPanel } from './classroom-hand.js';
import { HAND_REPLY_KINDS, LectureView } from './classroom-view.js';
import { fetchAllPages, requestFailure, sendCommand } from './dom.js';

const STORAGE_KEY = 'lectern.classroom';
const NICKNAME_KEY = 'lectern.nickname';
const SERVER_EVENTS = [
  'lecture:chapter-start',
  'lecture:delta',
  'lecture:chapter-end',
  'lecture:question',
  'tutor:verdict',
  'tutor:subquestion',
  'tutor:reply-start',
  'tutor:reply-delta',
  'tutor:reply-end',
  'lecture:end',
  'session:state',
  'session:error',
  'assistant:prompt',
  'hand:asked',
  'assistant:check',
  'hand:closed',
];
/** Phases from which the server lets a hand go up (a subquestion shows as awaiting-answer). */
const HAND_PHASES = new Set(['streaming', 'awaiting-answer', 'paused']);
const MAX_ANNOUNCEMENTS = 3;
const FALLBACK_MESSAGES = {
  RATE_LIMITED: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  INVALID_PAYLOAD: '보낸 내용이 올바르지 않습니다. 답은 1~2000자로 적어 주세요.',
  NO_PENDING_QUESTION: '지금은 답할 질문이 없습니다.',
  UNKNOWN_QUESTION: '지금 묻고 있는 질문이 아닙니다.',
  NOT_STREAMING: '지금은 강의가 흐르고 있지 않아 일시정지할 수 없습니다.',
  NOT_PAUSED: '일시정지된 상태가 아닙니다.',
  SESSION_NOT_FOUND: '세션을 찾을 수 없습니다. 새로 시작해 주세요.',
  MATERIAL_NOT_FOUND: '강의 자료를 찾을 수 없습니다.',
  UNAUTHORIZED: '입장 권한이 만료되었습니다. 새로 시작해 주세요.',
  MODEL_UNAVAILABLE: 'AI 모델이 응답하지 않습니다. 잠시 후 "계속"을 눌러 다시 시도해 주세요.',
  HAND_ALREADY_RAISED: '이미 손을 들었습니다.',
  HAND_NOT_NOW: '지금은 손을 들 수 없습니다. 잠시 후 다시 시도해 주세요.',
  HAND_NOT_RAISED: '손을 든 상태가 아닙니다.',
  NOT_ASKED: '지금은 보낼 차례가 아닙니다. 도우미의 말을 기다려 주세요.',
  CLASS_NOT_FOUND: '수업을 찾을 수 없습니다. 참여 코드를 확인해 주세요.',
  NICKNAME_TAKEN: '이 수업에서 이미 쓰이는 닉네임입니다. 다른 닉네임을 골라 주세요.',
  MATERIAL_REQUIRED: '이 수업에는 정해진 강의 자료가 없습니다. 아래에서 자료를 고른 뒤 다시 참여해 주세요.',
};

const $ = (id) => document.getElementById(id);
const setup = $('setup');
const setupForm = $('setup-form');
const materialList = $('material-list');
const nicknameInput = $('nickname');
const startButton = $('start-button');
const setupError = $('setup-error');
const classroom = $('classroom');
const materialTitle = $('material-title');
const sessionInfo = $('session-info');
const connection = $('connection');
const progressBar = $('progress');
const progressLabel = $('progress-label');
const pauseButton = $('pause-button');
const speedInput = $('speed');
const speedValue = $('speed-value');
const leaveButton = $('leave-button');
const controlError = $('control-error');
const errorBox = $('session-error');
const errorText = $('session-error-text');
const errorResume = $('session-error-resume');
const errorRestart = $('session-error-restart');
const lecture = $('lecture');
const joinForm = $('join-form');
const classCodeInput = $('class-code');
const joinButton = $('join-button');
const joinError = $('join-error');
const raiseButton = $('raise-hand');
const announcements = $('announcements');
const handPaused = $('hand-paused');

const view = new LectureView(lecture, { onAnswer: submitAnswer });
const hand = new HandPanel({
  view,
  onAsk: (text) => handCommand('hand:ask', { text }),
  onReply: (text) => handCommand('hand:reply', { text }),
  onLower: () => handCommand('hand:lower', {}),
  // A step that failed waits; a resume wakes the session, which runs the step again.
  onRetry: () => handCommand('session:resume', { lastSeq }),
  onDismiss: () => raiseButton.focus(),
});
view.hand = hand;

/** The stored session: { sessionId, token, lastSeq, started, nickname, material: {id, title, chapters} }. */
let session = null;
let socket = null;
let lastSeq = 0;
let highestSeen = 0;
let phase = { kind: 'idle' };
let resumeInFlight = false;
let resumeRetries = 0;
let resumeTimer = 0;
let errorMode = 'resume';
/** The phase when the hand went up (restored when the dialogue closes). */
let phaseBeforeHand = null;

// ---- storage -----------------------------------------------------------------------------------------------------

function loadSession() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    return saved && typeof saved.token === 'string' && saved.material ? saved : null;
  } catch {
    return null;
  }
}

function saveSession() {
  if (!session) return;
  session.lastSeq = lastSeq;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  } catch {
    // Private mode without storage: the page still works, only a reload starts over.
  }
}

function forgetSession() {
  sessionStorage.removeItem(STORAGE_KEY);
  session = null;
}

// ---- setup -------------------------------------------------------------------------------------------------------

async function showSetup() {
  classroom.hidden = true;
  setup.hidden = false;
  document.title = '강의실 입장 — lectern';
  nicknameInput.value = localStorage.getItem(NICKNAME_KEY) ?? '';
  const code = new URLSearchParams(location.search).get('code');
  if (code && !classCodeInput.value) classCodeInput.value = code.trim().toUpperCase().slice(0, 6);
  await loadMaterials();
}

async function loadMaterials() {
  materialList.replaceChildren(note('자료 목록을 불러오는 중…'));
  let materials;
  try {
    // The list is paginated; a student picks among all of them.
    materials = (await fetchAllPages('/api/materials', 'materials')).items;
  } catch {
    materialList.replaceChildren(note('자료 목록을 불러오지 못했습니다. 새로고침해 주세요.', 'error'));
    return;
  }
  if (materials.length === 0) {
    const empty = note('아직 강의 자료가 없습니다. ');
    const link = document.createElement('a');
    link.href = '/upload.html';
    link.textContent = '자료를 먼저 올려 주세요.';
    empty.append(link);
    materialList.replaceChildren(empty);
    return;
  }
  const wanted = new URLSearchParams(location.search).get('material');
  const selected = materials.some((material) => material.id === wanted) ? wanted : materials[0].id;
  materialList.replaceChildren(
    ...materials.map((material) => {
      const option = document.createElement('label');
      option.className = 'material-option';
      option.dataset.testid = 'material-option';
      option.dataset.materialId = material.id;
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'material';
      radio.value = material.id;
      radio.checked = material.id === selected;
      radio.material = material;
      const title = document.createElement('strong');
      title.textContent = material.title;
      const meta = document.createElement('span');
      meta.className = 'muted';
      meta.textContent = `${material.pageCount}쪽 · 챕터 ${material.chapters.length}개`;
      const chapters = document.createElement('span');
      chapters.className = 'material-chapters muted';
      chapters.textContent = material.chapters.map((chapter) => chapter.title).join(' · ');
      const text = document.createElement('span');
      text.className = 'material-text';
      text.append(title, meta, chapters);
      option.append(radio, text);
      return option;
    }),
  );
}

function note(text, className = 'muted') {
  const paragraph = document.createElement('p');
  paragraph.className = className;
  paragraph.textContent = text;
  return paragraph;
}

/** The nickname typed on the setup screen, or null (with the error shown in `errorLine`). */
function readNickname(errorLine) {
  const nickname = nicknameInput.value.trim();
  if (!nickname) {
    errorLine.textContent = '닉네임을 적어 주세요.';
    nicknameInput.focus();
    return null;
  }
  return nickname;
}

const httpError = (body, fallback) => new Error(body.error?.message || FALLBACK_MESSAGES[body.error?.code] || fallback);

classCodeInput.addEventListener('input', () => {
  const upper = classCodeInput.value.toUpperCase().replace(/\s+/g, '');
  if (upper !== classCodeInput.value) classCodeInput.value = upper;
  joinError.textContent = '';
});

joinForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  joinError.textContent = '';
  const code = classCodeInput.value.trim().toUpperCase();
  if (!/^[A-Z0-9]{6}$/.test(code)) {
    joinError.textContent = '수업 코드는 6자리입니다. 선생님 화면의 코드를 확인해 주세요.';
    classCodeInput.focus();
    return;
  }
  const nickname = readNickname(joinError);
  if (!nickname) return;
  joinButton.disabled = true;
  joinButton.textContent = '참여하는 중…';
  try {
    const post = (body) =>
      fetch(`/api/classes/${encodeURIComponent(code)}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let response = await post({ nickname });
    let body = await response.json().catch(() => ({}));
    const chosen = setupForm.querySelector('input[name=material]:checked');
    if (!response.ok && body.error?.code === 'MATERIAL_REQUIRED' && chosen) {
      // A class without its own material: the student studies the one picked below.
      response = await post({ nickname, materialId: chosen.value });
      body = await response.json().catch(() => ({}));
    }
    if (!response.ok) throw httpError(body, '수업에 참여하지 못했습니다.');
    localStorage.setItem(NICKNAME_KEY, nickname);
    session = {
      sessionId: body.sessionId,
      token: body.token,
      lastSeq: 0,
      started: false,
      nickname,
      classId: body.classId,
      classCode: code,
      material: await materialSummary(body.materialId),
    };
    saveSession();
    enterClassroom();
  } catch (error) {
    joinError.textContent = requestFailure(error);
  } finally {
    joinButton.disabled = false;
    joinButton.textContent = '수업 참여';
  }
});

/** `{id, title, chapters}` of a material (the first snapshot fills in whatever this cannot get). */
async function materialSummary(id) {
  const listed = [...setupForm.querySelectorAll('input[name=material]')].find((radio) => radio.value === id)?.material;
  let material = listed;
  if (!material) {
    try {
      const response = await fetch(`/api/materials/${encodeURIComponent(id)}`);
      if (response.ok) material = await response.json();
    } catch {
      // The snapshot brings the material too.
    }
  }
  return {
    id,
    title: material?.title ?? '수업 강의',
    chapters: (material?.chapters ?? []).map((chapter) => ({ index: chapter.index, title: chapter.title })),
  };
}

setupForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  setupError.textContent = '';
  const radio = setupForm.querySelector('input[name=material]:checked');
  if (!radio) {
    setupError.textContent = '강의 자료를 골라 주세요.';
    return;
  }
  const nickname = readNickname(setupError);
  if (!nickname) return;
  startButton.disabled = true;
  startButton.textContent = '준비 중…';
  try {
    const response = await fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId: radio.value, nickname }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw httpError(body, '강의를 시작하지 못했습니다.');
    localStorage.setItem(NICKNAME_KEY, nickname);
    const { id, title, chapters } = radio.material;
    session = {
      sessionId: body.sessionId,
      token: body.token,
      lastSeq: 0,
      started: false,
      nickname,
      material: { id, title, chapters: chapters.map((chapter) => ({ index: chapter.index, title: chapter.title })) },
    };
    saveSession();
    enterClassroom();
  } catch (error) {
    setupError.textContent = requestFailure(error);
  } finally {
    startButton.disabled = false;
    startButton.textContent = '강의 시작';
  }
});

// ---- classroom -------------------------------------------------------------------------------------------------

function enterClassroom() {
  setup.hidden = true;
  classroom.hidden = false;
  document.title = `${session.material.title} — lectern 강의실`;
  materialTitle.textContent = session.material.title;
  showSessionInfo();
  view.clear();
  hand.reset();
  announcements.replaceChildren();
  view.setMaterial(session.material);
  // This page has rendered nothing yet: resume from 0 (a snapshot when anything happened).
  lastSeq = 0;
  highestSeen = 0;
  setPhase({ kind: 'idle' });
  connect();
}

function showSessionInfo() {
  sessionInfo.textContent = session.classCode ? `${session.nickname} 님 · 수업 ${session.classCode}` : `${session.nickname} 님의 강의실`;
}

function connect() {
  socket = io('/tutor', { auth: { protocolVersion: PROTOCOL_VERSION, token: session.token }, transports: ['websocket'] });
  setConnection('connecting');
  socket.on('connect', onConnect);
  socket.on('disconnect', (reason) => {
    // 'io server disconnect' is the server refusing the session; the session:error before it explains.
    if (reason !== 'io server disconnect') setConnection('reconnecting');
  });
  socket.on('connect_error', (error) => {
    if (socket.active) {
      setConnection('reconnecting');
      return;
    }
    // Refused by the handshake (bad or expired token): socket.io does not retry these.
    const message = error.data?.message ?? FALLBACK_MESSAGES.UNAUTHORIZED;
    fatal(`이전 강의에 다시 들어갈 수 없습니다: ${message}`);
  });
  for (const name of SERVER_EVENTS) socket.on(name, (payload) => receive(name, payload));
  // Notices from the class's instructor: no seq, never replayed, never dropped by the seq checks.
  socket.on('class:announcement', (payload) => {
    if (payload && typeof payload.text === 'string') showAnnouncement(payload.text, payload.at);
  });
  socket.on('hand:acknowledged', () => {
    if (!hand.acknowledged()) showAnnouncement('선생님이 손 든 것을 확인했어요', Date.now(), 'ack');
  });
}

async function onConnect() {
  setConnection('connected');
  if (errorMode === 'reconnect') hideSessionError();
  resumeRetries = 0;
  await requestResume();
  if (session && !session.started) {
    const ack = await command('lecture:start', {});
    if (ack.ok) {
      session.started = true;
      saveSession();
    } else {
      showControlError(ack);
    }
  }
}

function setConnection(state) {
  connection.dataset.state = state;
  connection.textContent = { connected: '연결됨', connecting: '연결 중…', reconnecting: '다시 연결 중…', offline: '연결 끊김' }[state];
}

/** Sends a command and resolves with its ack (a local error when offline or when the server stays silent). */
const command = (name, payload) => sendCommand(socket, name, payload);

const errorMessage = (ack) => ack.error?.message || FALLBACK_MESSAGES[ack.error?.code] || '요청을 처리하지 못했습니다.';

function showControlError(ack) {
  controlError.textContent = ack ? errorMessage(ack) : '';
}

/** Asks for the events after lastSeq (or a snapshot); repeats while the ack says more exists than arrived. */
async function requestResume() {
  clearTimeout(resumeTimer);
  if (resumeInFlight) return;
  resumeInFlight = true;
  const before = lastSeq;
  const ack = await command('session:resume', { lastSeq });
  resumeInFlight = false;
  if (!ack.ok) {
    if (ack.error?.code !== 'OFFLINE') showControlError(ack);
    return;
  }
  resumeRetries = lastSeq > before ? 0 : resumeRetries + 1;
  const target = Math.max(ack.seq ?? 0, highestSeen);
  if (lastSeq < target && resumeRetries < 5) {
    // Events numbered just before the ack may still be on their way: look again shortly.
    resumeTimer = setTimeout(() => {
      if (lastSeq < target) void requestResume();
    }, 300);
  }
}

function receive(name, payload) {
  if (!payload || typeof payload !== 'object') return;
  if (name === 'session:state') {
    applySnapshot(payload);
    return;
  }
  const seq = payload.seq;
  if (name === 'session:error' && !(seq > 0) && payload.retryable) {
    // The store is away for a moment: the server holds the lecture and sends a snapshot (session:state) when it is
    // back, so there is nothing to press.
    showSessionError(payload.message || FALLBACK_MESSAGES[payload.code] || '잠시 연결이 불안정합니다. 곧 저절로 이어집니다.', 'wait');
    return;
  }
  if (name === 'session:error' && !(seq > 0)) {
    // Not a numbered session event: the server could not open the session for this socket.
    fatal(payload.message || FALLBACK_MESSAGES[payload.code] || '강의에 들어갈 수 없습니다.', payload.code === 'SESSION_BUSY' || payload.code === 'STORE_UNAVAILABLE');
    return;
  }
  if (typeof seq !== 'number') return;
  highestSeen = Math.max(highestSeen, seq);
  if (seq <= lastSeq) return;
  if (seq > lastSeq + 1) {
    void requestResume();
    return;
  }
  lastSeq = seq;
  apply(name, payload);
  saveSession();
}

function apply(name, payload) {
  switch (name) {
    case 'lecture:chapter-start':
      view.chapterStart(payload.chapter, payload.title);
      setPhase({ kind: 'streaming', chapter: payload.chapter });
      break;
    case 'lecture:delta':
      view.appendText(payload.chapter, payload.text);
      if (phase.kind !== 'paused') setPhase({ kind: 'streaming', chapter: payload.chapter });
      break;
    case 'lecture:chapter-end':
      view.chapterEnd(payload.chapter);
      updateProgress();
      break;
    case 'lecture:question':
      view.question(payload, { pending: true });
      setPhase({ kind: 'awaiting-answer', chapter: payload.chapter, questionId: payload.questionId });
      view.flush();
      view.focusAnswer(payload.questionId);
      break;
    case 'tutor:subquestion':
      view.subquestion(payload, { pending: true });
      setPhase({ kind: 'awaiting-answer', chapter: phase.chapter, questionId: payload.questionId, parentQuestionId: payload.parentQuestionId });
      view.flush();
      view.focusAnswer(payload.questionId);
      break;
    case 'tutor:verdict':
      view.verdict(payload);
      setPhase({ kind: 'tutoring', chapter: phase.chapter });
      break;
    case 'tutor:reply-start':
      if (HAND_REPLY_KINDS.has(payload.kind)) {
        enterHandPhase(null);
        view.replyStart(payload, undefined, hand.replyContainer());
        break;
      }
      view.replyStart(payload);
      if (phase.kind !== 'paused') setPhase({ kind: 'tutoring', chapter: phase.chapter });
      break;
    case 'tutor:reply-delta':
      view.replyDelta(payload);
      break;
    case 'tutor:reply-end':
      view.replyEnd(payload);
      break;
    case 'lecture:end':
      view.end();
      setPhase({ kind: 'finished' });
      break;
    case 'assistant:prompt':
      enterHandPhase('ask');
      hand.prompt(payload);
      break;
    case 'hand:asked':
      enterHandPhase(null);
      hand.asked(payload);
      break;
    case 'assistant:check':
      enterHandPhase('reply');
      hand.check(payload);
      break;
    case 'hand:closed':
      view.flush();
      hand.closed(payload);
      leaveHandPhase();
      break;
    case 'session:error':
      if (phase.kind === 'hand-raised') {
        // The dialogue's step failed and waits: the panel offers a retry, and lowering the hand always works.
        hand.failed(payload.message || FALLBACK_MESSAGES[payload.code] || '문제가 생겨 질문 대화가 멈췄습니다.');
        break;
      }
      setPhase({ kind: 'paused', chapter: phase.chapter, reason: 'error' });
      showSessionError(payload.message || FALLBACK_MESSAGES[payload.code] || '문제가 생겨 강의가 멈췄습니다.');
      break;
  }
}

function applySnapshot({ seq, state }) {
  if (typeof seq !== 'number' || !state) return;
  if (errorMode === 'wait') hideSessionError();
  lastSeq = seq;
  highestSeen = Math.max(highestSeen, seq);
  session.material = state.material;
  session.nickname = state.nickname;
  session.started = session.started || state.phase.kind !== 'idle';
  saveSession();
  showSessionInfo();
  materialTitle.textContent = state.material.title;
  setSpeed(state.speed);
  view.renderSnapshot(state);
  phaseBeforeHand = null;
  setPhase(state.phase);
  if (state.phase.kind === 'paused' && state.phase.reason === 'error') {
    showSessionError('문제가 생겨 강의가 멈춰 있습니다. "계속"을 눌러 다시 시도해 주세요.');
  }
}

// ---- phase, progress and controls ----------------------------------------------------------------------------------

function setPhase(next) {
  phase = next;
  lecture.dataset.phase = next.kind;
  lecture.setAttribute('aria-busy', String(next.kind === 'streaming'));
  const paused = next.kind === 'paused';
  pauseButton.textContent = paused ? '계속' : '일시정지';
  pauseButton.setAttribute('aria-label', paused ? '강의 계속' : '강의 일시정지');
  pauseButton.setAttribute('aria-pressed', String(paused));
  pauseButton.disabled = !(paused || next.kind === 'streaming' || next.kind === 'tutoring');
  const handUp = next.kind === 'hand-raised';
  raiseButton.disabled = handUp || !HAND_PHASES.has(next.kind);
  raiseButton.setAttribute('aria-pressed', String(handUp));
  raiseButton.textContent = handUp ? '손 든 중' : '손 들기';
  handPaused.hidden = !handUp;
  if (next.kind !== 'paused' && next.kind !== 'idle' && errorMode === 'resume') hideSessionError();
  updateProgress();
}

function updateProgress() {
  const chapters = session?.material.chapters ?? [];
  const total = chapters.length;
  const finished = phase.kind === 'finished';
  const currentIndex = phase.chapter ?? view.current?.index;
  const position = chapters.findIndex((chapter) => chapter.index === currentIndex);
  const done = finished ? total : chapters.filter((chapter) => view.chapters.get(chapter.index)?.complete).length;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  if (progressBar.childElementCount !== total) {
    progressBar.replaceChildren(
      ...chapters.map((chapter) => {
        const segment = document.createElement('span');
        segment.className = 'segment';
        segment.title = chapter.title;
        return segment;
      }),
    );
  }
  chapters.forEach((chapter, i) => {
    const segment = progressBar.children[i];
    const complete = finished || view.chapters.get(chapter.index)?.complete;
    segment.dataset.state = complete ? 'done' : i === position ? 'current' : 'todo';
  });
  progressBar.setAttribute('aria-valuenow', String(percent));
  progressBar.dataset.percent = String(percent);
  let label;
  if (finished) label = `${total}/${total}장 · 100% · 수업 완료`;
  else if (position < 0) label = `${total}개 챕터 · 시작 전`;
  else label = `${position + 1}/${total}장 · ${chapters[position].title} · ${percent}%`;
  progressLabel.textContent = label;
  progressBar.setAttribute('aria-valuetext', label);
}

pauseButton.addEventListener('click', async () => {
  showControlError(null);
  const resuming = phase.kind === 'paused';
  pauseButton.disabled = true;
  const ack = await command(resuming ? 'lecture:resume' : 'lecture:pause', {});
  if (ack.ok) {
    const kind = ack.state ?? (resuming ? 'streaming' : 'paused');
    setPhase({ ...phase, kind, ...(kind === 'paused' ? { reason: 'student' } : {}) });
  } else {
    showControlError(ack);
    setPhase(phase);
  }
});

function setSpeed(value) {
  speedInput.value = String(value);
  speedValue.textContent = String(value);
  speedInput.setAttribute('aria-valuetext', `초당 ${value}토큰`);
}

speedInput.addEventListener('input', () => setSpeed(Number(speedInput.value)));
speedInput.addEventListener('change', async () => {
  showControlError(null);
  const ack = await command('lecture:speed', { tokensPerSecond: Number(speedInput.value) });
  if (ack.ok) setSpeed(ack.speed);
  else showControlError(ack);
});

// ---- raise hand ----------------------------------------------------------------------------------------------------

/** The session is in the raise-hand dialogue; `waiting`: what the assistant waits for ('ask', 'reply' or null). */
function enterHandPhase(waiting) {
  if (phase.kind !== 'hand-raised') phaseBeforeHand = phase;
  setPhase({ kind: 'hand-raised', chapter: phase.chapter ?? view.current?.index, waiting });
}

/** The dialogue closed: the lecture goes on where it waited (a pending question is asked again). */
function leaveHandPhase() {
  const chapter = phase.chapter ?? view.current?.index;
  const pending = view.pendingQuestion();
  const before = phaseBeforeHand;
  phaseBeforeHand = null;
  if (pending) setPhase({ kind: 'awaiting-answer', chapter, ...pending });
  else if (before && before.kind === 'streaming') setPhase(before);
  else setPhase({ kind: 'streaming', chapter });
}

async function handCommand(name, payload) {
  const ack = await command(name, payload);
  return ack.ok ? { ok: true } : { ok: false, message: errorMessage(ack) };
}

raiseButton.addEventListener('click', async () => {
  showControlError(null);
  raiseButton.disabled = true;
  const ack = await command('hand:raise', {});
  if (ack.ok) {
    if (phase.kind !== 'hand-raised') enterHandPhase(null);
    hand.raised();
  } else {
    showControlError(ack);
    setPhase(phase);
  }
});

function showAnnouncement(text, at, kind = 'announcement') {
  const time = new Date(typeof at === 'number' ? at : Date.now()).toLocaleTimeString('ko-KR', { hour: '2-digit', minute: '2-digit' });
  const item = document.createElement('div');
  item.className = `announcement announcement-${kind}`;
  item.dataset.testid = kind === 'ack' ? 'hand-ack-toast' : 'announcement';
  const label = document.createElement('strong');
  label.textContent = kind === 'ack' ? '✓ 선생님' : '선생님 공지';
  const body = document.createElement('p');
  body.textContent = text;
  const stamp = document.createElement('time');
  stamp.className = 'muted';
  stamp.textContent = time;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'announcement-close';
  close.setAttribute('aria-label', '공지 닫기');
  close.textContent = '×';
  close.addEventListener('click', () => item.remove());
  item.append(label, body, stamp, close);
  announcements.append(item);
  while (announcements.childElementCount > MAX_ANNOUNCEMENTS) announcements.firstElementChild.remove();
}

async function submitAnswer(questionId, text) {
  if (phase.kind === 'hand-raised') return { ok: false, message: '질문 대화가 끝난 뒤에 답해 주세요. (손 내리기로 바로 돌아올 수 있어요)' };
  const ack = await command('answer:submit', { questionId, text });
  if (!ack.ok) return { ok: false, message: errorMessage(ack) };
  if (phase.questionId === questionId) setPhase({ kind: 'tutoring', chapter: phase.chapter });
  return { ok: true };
}

// ---- errors --------------------------------------------------------------------------------------------------------

function showSessionError(message, mode = 'resume') {
  errorMode = mode;
  errorText.textContent = message;
  // 'wait': the server recovers by itself (a store outage); no button to press.
  errorResume.hidden = mode === 'fatal' || mode === 'wait';
  errorResume.textContent = mode === 'reconnect' ? '다시 연결' : '계속';
  errorResume.setAttribute('aria-label', mode === 'reconnect' ? '다시 연결' : '강의 계속');
  errorRestart.hidden = mode === 'resume' || mode === 'wait';
  errorBox.hidden = false;
}

function hideSessionError() {
  errorBox.hidden = true;
  errorMode = 'resume';
}

/** The session cannot go on on this socket (unknown session, bad token, busy elsewhere). */
function fatal(message, retryable = false) {
  setConnection('offline');
  showSessionError(message, retryable ? 'reconnect' : 'fatal');
}

errorResume.addEventListener('click', async () => {
  if (errorMode === 'reconnect') {
    setConnection('connecting');
    socket?.connect();
    return;
  }
  errorResume.disabled = true;
  const ack = await command('lecture:resume', {});
  errorResume.disabled = false;
  if (ack.ok) {
    hideSessionError();
    setPhase({ ...phase, kind: ack.state ?? 'streaming' });
  } else if (ack.error?.code === 'NOT_PAUSED') {
    hideSessionError();
  } else {
    errorText.textContent = errorMessage(ack);
  }
});

function leave() {
  socket?.disconnect();
  socket = null;
  forgetSession();
  hideSessionError();
  showControlError(null);
  view.clear();
  hand.reset();
  announcements.replaceChildren();
  phaseBeforeHand = null;
  void showSetup();
}

errorRestart.addEventListener('click', leave);
leaveButton.addEventListener('click', () => {
  if (window.confirm('이 강의를 끝내고 처음 화면으로 돌아갈까요?')) leave();
});

// ---- start ---------------------------------------------------------------------------------------------------------

session = loadSession();
if (session) enterClassroom();
else void showSetup();
