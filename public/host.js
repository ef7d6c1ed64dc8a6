// Quiz host: pick or make a quiz of one of this browser's classes (their instructor tokens are kept by monitor.js),
// open a room (POST /api/rooms), then run it over socket.io (`/quiz`, host token): lobby with the join code and QR,
// questions with the timer and the live answer count, the reveal with the answer distribution, leaderboards, the
// podium and the results. The host token is kept in localStorage under the room id and the room id sits in the URL
// hash, so a reload reconnects and the server's `room:state` snapshot redraws whatever phase the room is in.
// Question text, choices and nicknames are untrusted: they reach the DOM as textContent only.

import {
  $,
  CLASSES_KEY,
  CHOICES,
  Countdown,
  HOST_ROOMS_KEY,
  choiceNodes,
  distributionChart,
  downloadWithToken,
  element,
  errorText,
  hostedRooms,
  leaderboardRows,
  podiumNodes,
  readList,
  sendCommand,
  setConnection,
  showScreen,
  writeList,
} from './quiz-common.js';

const MAX_SAVED_ROOMS = 20;
const DIFFICULTY_LABELS = { easy: '쉬움', medium: '보통', hard: '어려움' };

const setup = $('setup');
const noClass = $('no-class');
const setupNotice = $('setup-notice');
const roomForm = $('room-form');
const classSelect = $('class-select');
const quizSelect = $('quiz-select');
const generateBox = $('generate-box');
const materialSelect = $('material-select');
const chapterSelect = $('chapter-select');
const difficultySelect = $('difficulty-select');
const generateButton = $('generate-button');
const pasteBox = $('paste-box');
const pasteTitle = $('paste-title');
const pasteItems = $('paste-items');
const pasteButton = $('paste-button');
const quizStatus = $('quiz-status');
const questionSeconds = $('question-seconds');
const previewSeconds = $('preview-seconds');
const maxPlayers = $('max-players');
const lateJoin = $('late-join');
const streakBonus = $('streak-bonus');
const createButton = $('create-button');
const createError = $('create-error');
const roomList = $('room-list');
const roomListEmpty = $('room-list-empty');

const game = $('game');
const gameTitle = $('game-title');
const gameProgress = $('game-progress');
const miniCode = $('mini-code');
const connection = $('connection');
const endButton = $('end-button');
const status = $('status');
const roomCode = $('room-code');
const joinHost = $('join-host');
const joinUrl = $('join-url');
const joinQr = $('join-qr');
const playerCount = $('player-count');
const lockBadge = $('lock-badge');
const lockButton = $('lock-button');
const startButton = $('start-button');
const playerList = $('players');
const playersEmpty = $('players-empty');
const questionNumber = $('question-number');
const questionDifficulty = $('question-difficulty');
const questionText = $('question-text');
const timer = $('timer');
const previewNote = $('preview-note');
const pausedNote = $('paused-note');
const questionChoices = $('question-choices');
const answerCount = $('answer-count');
const pauseButton = $('pause-button');
const skipButton = $('skip-button');
const revealNumber = $('reveal-number');
const revealQuestion = $('reveal-question');
const revealChoices = $('reveal-choices');
const revealChart = $('reveal-chart');
const revealSummary = $('reveal-summary');
const revealExplanation = $('reveal-explanation');
const revealNext = $('reveal-next');
const leaderboardTitle = $('leaderboard-title');
const leaderboard = $('leaderboard');
const leaderboardEmpty = $('leaderboard-empty');
const leaderboardNext = $('leaderboard-next');
const podium = $('podium');
const podiumNext = $('podium-next');
const endedPodium = $('ended-podium');

const countdown = new Countdown({ bar: $('timer-bar'), label: $('timer-label'), root: timer });

/** The open room's stored entry: { roomId, code, hostToken, title, classId, createdAt }. */
let room = null;
let socket = null;
/** The room's fixed facts and counters from the latest snapshot. */
let info = null;
/** The question on screen (preview/open): { index, total, question, choices, difficulty } and its timing. */
let question = null;
let answered = 0;
let players = [];

// ---- HTTP --------------------------------------------------------------------------------------------------------

async function api(path, { method = 'GET', token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Error('서버에 연결할 수 없습니다.');
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(errorText(data.error, `요청을 처리하지 못했습니다 (HTTP ${response.status}).`));
  return data;
}

// ---- stored classes and rooms --------------------------------------------------------------------------------------

const storedClasses = () => readList(CLASSES_KEY, (entry) => typeof entry.classId === 'string' && typeof entry.instructorToken === 'string');
const selectedClass = () => storedClasses().find((entry) => entry.classId === classSelect.value) ?? null;

function rememberRoom(entry) {
  writeList(HOST_ROOMS_KEY, [entry, ...hostedRooms().filter((other) => other.roomId !== entry.roomId)].slice(0, MAX_SAVED_ROOMS));
}

function updateRoom(roomId, changes) {
  writeList(
    HOST_ROOMS_KEY,
    hostedRooms().map((entry) => (entry.roomId === roomId ? { ...entry, ...changes } : entry)),
  );
}

function forgetRoom(roomId) {
  writeList(HOST_ROOMS_KEY, hostedRooms().filter((entry) => entry.roomId !== roomId));
}

const roomIdFromHash = () => new URLSearchParams(location.hash.slice(1)).get('room');

// ---- setup -------------------------------------------------------------------------------------------------------

function showSetup(notice = '') {
  closeRoom();
  game.hidden = true;
  setup.hidden = false;
  document.title = '퀴즈 진행 — lectern';
  setupNotice.textContent = notice;
  setupNotice.hidden = !notice;
  renderClasses();
  renderRoomList();
  void loadMaterials();
}

function renderClasses() {
  const classes = storedClasses();
  noClass.hidden = classes.length > 0;
  roomForm.hidden = classes.length === 0;
  const wanted = classSelect.value || new URLSearchParams(location.search).get('class') || localStorage.getItem('lectern.monitor.current');
  classSelect.replaceChildren(
    ...classes.map((entry) => element('option', { value: entry.classId, text: `${entry.name} (코드 ${entry.code})` })),
  );
  if (classes.some((entry) => entry.classId === wanted)) classSelect.value = wanted;
  void loadQuizzes();
}

async function loadQuizzes(selectId = quizSelect.value) {
  const entry = selectedClass();
  if (!entry) return;
  quizSelect.replaceChildren(element('option', { value: '', text: '퀴즈 목록을 불러오는 중…' }));
  let quizzes;
  try {
    quizzes = (await api('/api/quizzes', { token: entry.instructorToken })).quizzes ?? [];
  } catch (error) {
    quizSelect.replaceChildren(element('option', { value: '', text: '퀴즈 목록을 불러오지 못했습니다' }));
    setQuizStatus(error.message, true);
    return;
  }
  if (quizzes.length === 0) {
    quizSelect.replaceChildren(element('option', { value: '', text: '아직 퀴즈가 없습니다. 아래에서 만들어 주세요.' }));
    return;
  }
  quizSelect.replaceChildren(
    ...quizzes.map((quiz) =>
      element('option', { value: quiz.quizId, text: `${quiz.title} (${quiz.itemCount}문제)`, 'data-title': quiz.title }),
    ),
  );
  if (quizzes.some((quiz) => quiz.quizId === selectId)) quizSelect.value = selectId;
}

let materials = [];

async function loadMaterials() {
  try {
    materials = (await api('/api/materials')).materials ?? [];
  } catch {
    materials = [];
  }
  if (materials.length === 0) {
    materialSelect.replaceChildren(element('option', { value: '', text: '올린 강의 자료가 없습니다' }));
  } else {
    const wanted = materialSelect.value || selectedClass()?.materialId;
    materialSelect.replaceChildren(...materials.map((material) => element('option', { value: material.id, text: material.title })));
    if (materials.some((material) => material.id === wanted)) materialSelect.value = wanted;
  }
  generateButton.disabled = materials.length === 0;
  renderChapters();
}

function renderChapters() {
  const material = materials.find((entry) => entry.id === materialSelect.value);
  chapterSelect.replaceChildren(
    element('option', { value: '', text: '자료 전체' }),
    ...(material?.chapters ?? []).map((chapter, index) => element('option', { value: String(index), text: `${index + 1}장 ${chapter.title}` })),
  );
}

function setQuizStatus(message, isError = false) {
  quizStatus.textContent = message;
  quizStatus.classList.toggle('error', isError);
}

classSelect.addEventListener('change', () => {
  setQuizStatus('');
  void loadQuizzes('');
  void loadMaterials();
});
materialSelect.addEventListener('change', renderChapters);

generateButton.addEventListener('click', async () => {
  const entry = selectedClass();
  const materialId = materialSelect.value;
  if (!entry || !materialId) return;
  const body = {};
  if (chapterSelect.value !== '') body.chapter = Number(chapterSelect.value);
  if (difficultySelect.value) body.difficulty = difficultySelect.value;
  generateButton.disabled = true;
  generateButton.textContent = '만드는 중…';
  setQuizStatus('AI가 문제를 만들고 있습니다…');
  try {
    const quiz = await api(`/api/materials/${encodeURIComponent(materialId)}/quiz`, { method: 'POST', token: entry.instructorToken, body });
    await loadQuizzes(quiz.quizId);
    setQuizStatus(`"${quiz.title}" 퀴즈를 만들었습니다 (${quiz.items.length}문제).`);
    generateBox.open = false;
  } catch (error) {
    setQuizStatus(error.message, true);
  } finally {
    generateButton.disabled = false;
    generateButton.textContent = '문제 5개 만들기';
  }
});

/** The pasted quiz: an array of items, or `{title, items}`. Returns { title, items } or throws a Korean message. */
function pastedQuiz() {
  let parsed;
  try {
    parsed = JSON.parse(pasteItems.value);
  } catch (error) {
    throw new Error(`JSON 형식이 올바르지 않습니다: ${error.message}`);
  }
  const items = Array.isArray(parsed) ? parsed : parsed?.items;
  if (!Array.isArray(items) || items.length === 0) throw new Error('문제 배열이 비어 있거나 없습니다.');
  const title = pasteTitle.value.trim() || (typeof parsed?.title === 'string' ? parsed.title.trim() : '');
  if (!title) throw new Error('퀴즈 제목을 적어 주세요.');
  return { title, items };
}

pasteButton.addEventListener('click', async () => {
  const entry = selectedClass();
  if (!entry) return;
  let body;
  try {
    body = pastedQuiz();
  } catch (error) {
    setQuizStatus(error.message, true);
    return;
  }
  pasteButton.disabled = true;
  try {
    const quiz = await api('/api/quizzes', { method: 'POST', token: entry.instructorToken, body });
    await loadQuizzes(quiz.quizId);
    setQuizStatus(`"${quiz.title}" 퀴즈를 저장했습니다 (${quiz.items.length}문제).`);
    pasteItems.value = '';
    pasteTitle.value = '';
    pasteBox.open = false;
  } catch (error) {
    setQuizStatus(error.message, true);
  } finally {
    pasteButton.disabled = false;
  }
});

// Enter in the quiz title saves the pasted quiz; it must not submit the room form around it.
pasteTitle.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  pasteButton.click();
});

/** A whole number within [min, max] from a number box, or null after showing what is wrong. */
function numberField(input, label) {
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
  };
  if (options.questionSeconds === null || options.previewSeconds === null || options.maxPlayers === null) return;
  createButton.disabled = true;
  createButton.textContent = '여는 중…';
  try {
    const created = await api('/api/rooms', { method: 'POST', token: entry.instructorToken, body: { quizId, options } });
    const title = quizSelect.selectedOptions[0]?.dataset.title ?? '';
    const stored = { roomId: created.roomId, code: created.code, hostToken: created.hostToken, title, classId: entry.classId, createdAt: Date.now() };
    rememberRoom(stored);
    // The hash change opens the room (see route()).
    location.hash = `room=${created.roomId}`;
  } catch (error) {
    createError.textContent = error.message;
  } finally {
    createButton.disabled = false;
    createButton.textContent = '방 만들기';
  }
});

function renderRoomList() {
  const rooms = hostedRooms();
  roomListEmpty.hidden = rooms.length > 0;
  roomList.replaceChildren(
    ...rooms.map((entry) => {
      const open = element('a', { className: 'button small-button', href: `#room=${entry.roomId}`, text: entry.ended ? '결과 보기' : '다시 열기', 'data-testid': 'room-open' });
      const remove = element('button', { type: 'button', className: 'secondary small', text: '목록에서 지우기' });
      remove.addEventListener('click', () => {
        forgetRoom(entry.roomId);
        renderRoomList();
      });
      const created = entry.createdAt ? new Date(entry.createdAt).toLocaleString('ko-KR', { dateStyle: 'medium', timeStyle: 'short' }) : '';
      return element(
        'li',
        { className: 'room-item', 'data-testid': 'room-item', 'data-room-id': entry.roomId },
        element(
          'div',
          { className: 'room-item-text' },
          element('strong', { text: entry.title || '퀴즈 방' }),
          element('span', { className: 'muted', text: `코드 ${entry.code}${created ? ` · ${created}` : ''}${entry.ended ? ' · 끝남' : ''}` }),
        ),
        element('div', { className: 'room-item-actions' }, open, remove),
      );
    }),
  );
}

// ---- the room ------------------------------------------------------------------------------------------------------

function route() {
  const roomId = roomIdFromHash();
  if (!roomId) {
    showSetup();
    return;
  }
  const entry = hostedRooms().find((saved) => saved.roomId === roomId);
  if (!entry) {
    showSetup('이 브라우저에는 이 방의 진행자 정보가 없습니다. 방을 만든 브라우저에서 열거나 새 방을 만들어 주세요.');
    return;
  }
  openRoom(entry);
}

function openRoom(entry) {
  closeRoom();
  room = entry;
  info = null;
  question = null;
  players = [];
  playerChips.clear();
  playerList.replaceChildren();
  setup.hidden = true;
  game.hidden = false;
  hideStatus();
  gameTitle.textContent = entry.title || '퀴즈';
  miniCode.textContent = entry.code;
  showScreen(game, '');
  connect();
}

function closeRoom() {
  countdown.stop();
  if (socket) {
    socket.removeAllListeners();
    socket.disconnect();
    socket = null;
  }
  room = null;
}

function connect() {
  const current = room;
  socket = io('/quiz', { auth: { token: current.hostToken }, transports: ['websocket'] });
  setConnection(connection, 'connecting');
  socket.on('connect', () => setConnection(connection, 'connected'));
  socket.on('disconnect', (reason) => setConnection(connection, reason === 'io server disconnect' ? 'offline' : 'reconnecting'));
  socket.on('connect_error', (error) => {
    if (socket?.active) {
      setConnection(connection, 'reconnecting');
      return;
    }
    // The handshake refused the host token (expired, room gone): socket.io does not retry.
    setConnection(connection, 'offline');
    const forget = element('button', { type: 'button', className: 'secondary small', text: '목록에서 지우고 돌아가기' });
    forget.addEventListener('click', () => {
      forgetRoom(current.roomId);
      location.hash = '';
    });
    showStatus(`이 방을 열 수 없습니다: ${errorText(error.data, '진행자 토큰이 유효하지 않습니다.')}`, forget);
  });
  socket.on('room:state', onState);
  socket.on('room:question', (payload) => showQuestion(payload));
  socket.on('room:answer-count', (count) => {
    if (!question || count.questionIndex !== question.index) return;
    answered = count.answered;
    if (info) info.playerCount = count.players;
    renderAnswerCount();
  });
  socket.on('room:reveal', showReveal);
  socket.on('room:leaderboard', showLeaderboard);
  socket.on('room:podium', showPodium);
  socket.on('room:ended', ({ podium: final }) => showEnded(final));
  socket.on('room:players', (update) => {
    players = update.players;
    if (info) info.playerCount = update.playerCount;
    renderPlayers();
    renderAnswerCount();
  });
}

/** A full snapshot: sent on every (re)connection and after lock/unlock. It replaces everything shown. */
function onState(state) {
  info = {
    roomId: state.roomId,
    code: state.code,
    title: state.title,
    totalQuestions: state.totalQuestions,
    options: state.options,
    locked: state.locked,
    playerCount: state.playerCount,
  };
  players = state.players ?? [];
  if (room && (room.code !== state.code || room.title !== state.title)) {
    room = { ...room, code: state.code, title: state.title };
    updateRoom(room.roomId, { code: state.code, title: state.title });
  }
  gameTitle.textContent = state.title;
  miniCode.textContent = state.code;
  document.title = `${state.title} — lectern 퀴즈 진행`;
  renderLobbyInfo();
  renderPlayers();
  switch (state.phase) {
    case 'lobby':
      setPhase('lobby');
      break;
    case 'preview':
    case 'open':
      answered = state.answered ?? 0;
      question = null;
      showQuestion({ phase: state.phase, question: state.question, remainingMs: state.remainingMs, paused: state.paused }, true);
      break;
    case 'reveal':
      showReveal(state.reveal);
      break;
    case 'leaderboard':
      showLeaderboard(state.leaderboard);
      break;
    case 'podium':
      showPodium(state.podium);
      break;
    case 'ended':
      showEnded(state.podium);
      break;
  }
}

function setPhase(next, screen = next) {
  game.dataset.phase = next;
  showScreen(game, screen);
  endButton.hidden = next === 'ended';
  if (next !== 'preview' && next !== 'open') countdown.stop();
  const total = info?.totalQuestions ?? 0;
  const progress = {
    lobby: `대기실 · ${total}문제`,
    preview: question ? `문제 ${question.index + 1} / ${total}` : '',
    open: question ? `문제 ${question.index + 1} / ${total}` : '',
    reveal: '정답 공개',
    leaderboard: '순위',
    podium: '최종 순위',
    ended: '끝남',
  }[next];
  gameProgress.textContent = progress ?? '';
}

// ---- lobby -------------------------------------------------------------------------------------------------------

function renderLobbyInfo() {
  if (!info) return;
  const link = `${location.origin}/play.html?code=${info.code}`;
  roomCode.textContent = info.code;
  roomCode.setAttribute('aria-label', `참여 코드 ${info.code.split('').join(' ')}`);
  joinHost.textContent = `${location.host}/play.html`;
  joinUrl.href = `/play.html?code=${info.code}`;
  joinUrl.textContent = link;
  const qr = `/api/rooms/join-qr.svg?code=${info.code}`;
  if (joinQr.getAttribute('src') !== qr) joinQr.src = qr;
  lockBadge.hidden = !info.locked;
  lockButton.textContent = info.locked ? '잠금 풀기' : '방 잠그기';
  lockButton.dataset.locked = String(info.locked);
}

/** Player chips, keyed by player id: an update moves, adds or removes chips without redrawing (and re-animating) all. */
const playerChips = new Map();

function renderPlayers() {
  const count = info?.playerCount ?? players.length;
  playerCount.textContent = String(count);
  playersEmpty.hidden = players.length > 0;
  const wanted = new Set(players.map((player) => player.playerId));
  for (const [playerId, chip] of playerChips) {
    if (wanted.has(playerId)) continue;
    chip.remove();
    playerChips.delete(playerId);
  }
  players.forEach((player, position) => {
    let chip = playerChips.get(player.playerId);
    if (!chip) playerChips.set(player.playerId, (chip = playerChip(player)));
    chip.dataset.connected = String(player.connected);
    const label = player.connected ? '접속 중' : '접속 끊김';
    chip.parts.dot.title = label;
    chip.parts.dot.setAttribute('aria-label', label);
    if (playerList.children[position] !== chip) playerList.insertBefore(chip, playerList.children[position] ?? null);
  });
}

function playerChip(player) {
  const kick = element('button', { type: 'button', className: 'kick', text: '✕', title: '내보내기', 'aria-label': `${player.nickname} 내보내기`, 'data-testid': 'kick' });
  kick.addEventListener('click', async () => {
    if (!window.confirm(`${player.nickname} 님을 이 방에서 내보낼까요? 같은 기기로 다시 들어올 수 없습니다.`)) return;
    await run(kick, 'room:kick', { playerId: player.playerId });
  });
  const dot = element('span', { className: 'dot', role: 'img' });
  const chip = element(
    'li',
    { className: 'player', 'data-testid': 'player-item', 'data-player-id': player.playerId },
    dot,
    element('span', { className: 'player-name', 'data-testid': 'player-name', text: player.nickname }),
    kick,
  );
  chip.parts = { dot };
  return chip;
}

lockButton.addEventListener('click', () => void run(lockButton, info?.locked ? 'room:unlock' : 'room:lock'));
startButton.addEventListener('click', () => void run(startButton, 'room:start'));

// ---- questions -------------------------------------------------------------------------------------------------

/** A question's preview or opening, or its pause/resume; `fromState` keeps the snapshot's answer count. */
function showQuestion(payload, fromState = false) {
  const { question: next, remainingMs, paused } = payload;
  if (!question || question.index !== next.index || questionChoices.childElementCount === 0) {
    if (!fromState) answered = 0;
    questionText.textContent = next.question;
    questionChoices.replaceChildren(...choiceNodes(next.choices, 'li', (index) => ({ 'aria-label': `${CHOICES[index].name}: ${next.choices[index]}` })));
  }
  question = next;
  setPhase(payload.phase, 'question');
  questionNumber.textContent = `문제 ${next.index + 1} / ${next.total}`;
  questionDifficulty.textContent = DIFFICULTY_LABELS[next.difficulty] ?? next.difficulty;
  const totalMs = (payload.phase === 'preview' ? info?.options.previewSeconds ?? 0 : info?.options.questionSeconds ?? 20) * 1000;
  countdown.set(remainingMs, totalMs, paused, payload.phase === 'open');
  game.dataset.paused = String(paused);
  previewNote.hidden = payload.phase !== 'preview' || paused;
  pausedNote.hidden = !paused;
  questionChoices.hidden = payload.phase === 'preview';
  answerCount.hidden = payload.phase === 'preview';
  pauseButton.textContent = paused ? '다시 시작' : '일시정지';
  pauseButton.dataset.paused = String(paused);
  skipButton.textContent = payload.phase === 'preview' ? '바로 보기 열기' : '지금 마감';
  skipButton.disabled = payload.phase === 'preview' && paused;
  renderAnswerCount();
}

function renderAnswerCount() {
  const total = info?.playerCount ?? players.length;
  answerCount.textContent = `${answered} / ${total}명 응답`;
  answerCount.dataset.answered = String(answered);
  answerCount.dataset.players = String(total);
}

pauseButton.addEventListener('click', () => void run(pauseButton, pauseButton.dataset.paused === 'true' ? 'room:resume' : 'room:pause'));
skipButton.addEventListener('click', () => void run(skipButton, 'room:skip'));

// ---- reveal, leaderboard, podium, end -----------------------------------------------------------------------------

function showReveal(reveal) {
  question = reveal.question;
  setPhase('reveal');
  const { correctChoice, distribution } = reveal;
  revealNumber.textContent = `문제 ${reveal.question.index + 1} / ${reveal.question.total} · 정답 공개`;
  revealQuestion.textContent = reveal.question.question;
  revealChoices.replaceChildren(
    ...choiceNodes(reveal.question.choices, 'li', (index) => ({
      'data-correct': String(index === correctChoice),
      'aria-label': `${CHOICES[index].name}: ${reveal.question.choices[index]}${index === correctChoice ? ' (정답)' : ''}`,
    })),
  );
  revealChart.replaceChildren(distributionChart(distribution, correctChoice, reveal.question.choices));
  revealSummary.textContent = `${reveal.answered}명 응답 · 정답 ${distribution[correctChoice]}명`;
  revealExplanation.textContent = reveal.explanation;
  revealNext.focus({ preventScroll: true });
}

function showLeaderboard(board) {
  setPhase('leaderboard');
  leaderboardTitle.textContent = `${board.afterQuestion + 1}번 문제까지 순위`;
  leaderboard.replaceChildren(...leaderboardRows(board.top));
  leaderboardEmpty.hidden = board.top.length > 0;
  const last = board.afterQuestion + 1 >= (info?.totalQuestions ?? 0);
  leaderboardNext.textContent = last ? '최종 순위 보기' : '다음 문제';
  leaderboardNext.focus({ preventScroll: true });
}

function showPodium(final) {
  setPhase('podium');
  podium.replaceChildren(...podiumNodes(final.top));
}

function showEnded(final) {
  setPhase('ended');
  endedPodium.replaceChildren(...podiumNodes(final.top));
  if (room) updateRoom(room.roomId, { ended: true });
}

revealNext.addEventListener('click', () => void run(revealNext, 'room:next'));
leaderboardNext.addEventListener('click', () => void run(leaderboardNext, 'room:next'));
podiumNext.addEventListener('click', () => void run(podiumNext, 'room:next'));
endButton.addEventListener('click', () => {
  if (!window.confirm('퀴즈를 지금 끝낼까요? 진행 중인 문제는 지금까지 받은 답으로 마감됩니다.')) return;
  void run(endButton, 'room:end');
});

async function download(kind) {
  if (!room) return;
  const button = kind === 'csv' ? $('download-csv') : $('download-json');
  button.disabled = true;
  const path = `/api/rooms/${encodeURIComponent(room.roomId)}/results${kind === 'csv' ? '.csv' : ''}`;
  const failure = await downloadWithToken(path, room.hostToken, `quiz-${room.code}-results.${kind}`);
  button.disabled = false;
  if (failure) showStatus(failure);
  else hideStatus();
}
$('download-csv').addEventListener('click', () => void download('csv'));
$('download-json').addEventListener('click', () => void download('json'));
$('new-room').addEventListener('click', () => {
  location.hash = '';
});

// ---- commands and the status line ----------------------------------------------------------------------------------

/** Sends a host command with `button` disabled meanwhile; a refusal shows the server's (Korean) message. */
async function run(button, command, payload = {}) {
  button.disabled = true;
  const ack = await sendCommand(socket, command, payload);
  button.disabled = false;
  if (ack.ok) hideStatus();
  else showStatus(errorText(ack.error, '명령을 처리하지 못했습니다.'));
  return ack;
}

function showStatus(message, action = null) {
  status.replaceChildren(element('span', { text: message }), ...(action ? [action] : []));
  status.hidden = false;
}

function hideStatus() {
  status.hidden = true;
  status.replaceChildren();
}

// ---- start ---------------------------------------------------------------------------------------------------------

window.addEventListener('hashchange', route);
route();
