// Quiz host, the live room: run a room over socket.io (`/quiz`, host token) — lobby, questions with the timer and the
// live answer count, the reveal, leaderboards, the podium and the results — and send the host's commands. The
// server's `room:state` snapshot (on every connection, so after a reload too) redraws whatever phase the room is in.
// The lobby and the after-question screens are drawn by host-lobby.js and host-reveal.js; this module holds the state.
// Question text, choices and nicknames are untrusted: they reach the DOM as textContent only.

import { PROTOCOL_VERSION } from './protocol.js';
import {
  $,
  CHOICES,
  Countdown,
  choiceNodes,
  downloadWithToken,
  element,
  errorText,
  forgetHostedRoom,
  sendCommand,
  setConnection,
  showScreen,
  statusLine,
  updateHostedRoom,
} from './quiz-common.js';
import { clearPlayers, renderLobbyInfo, renderPlayers } from './host-lobby.js';
import { drawEndedPodium, drawLeaderboard, drawPodium, drawReveal } from './host-reveal.js';

const DIFFICULTY_LABELS = { easy: '쉬움', medium: '보통', hard: '어려움' };

const game = $('game');
const gameTitle = $('game-title');
const gameProgress = $('game-progress');
const miniCode = $('mini-code');
const connection = $('connection');
const endButton = $('end-button');
const lockButton = $('lock-button');
const startButton = $('start-button');
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
const revealNext = $('reveal-next');
const leaderboardNext = $('leaderboard-next');
const podiumNext = $('podium-next');

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

const { show: showStatus, hide: hideStatus } = statusLine($('status'));

// ---- the room ------------------------------------------------------------------------------------------------------

/** Opens `entry` (a hosted room kept by this browser) and connects; the caller shows the room's section. */
export function openRoom(entry) {
  closeRoom();
  room = entry;
  info = null;
  question = null;
  players = [];
  clearPlayers();
  hideStatus();
  gameTitle.textContent = entry.title || '퀴즈';
  miniCode.textContent = entry.code;
  showScreen(game, '');
  connect();
}

export function closeRoom() {
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
  socket = io('/quiz', { auth: { protocolVersion: PROTOCOL_VERSION, token: current.hostToken }, transports: ['websocket'] });
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
      forgetHostedRoom(current.roomId);
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
    renderPlayerList();
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
    updateHostedRoom(room.roomId, { code: state.code, title: state.title });
  }
  gameTitle.textContent = state.title;
  miniCode.textContent = state.code;
  document.title = `${state.title} — lectern 퀴즈 진행`;
  renderLobbyInfo(info);
  renderPlayerList();
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

function renderPlayerList() {
  renderPlayers(players, info?.playerCount ?? players.length, (button, playerId) => run(button, 'room:kick', { playerId }));
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
  drawReveal(reveal);
}

function showLeaderboard(board) {
  setPhase('leaderboard');
  drawLeaderboard(board, board.afterQuestion + 1 >= (info?.totalQuestions ?? 0));
}

function showPodium(final) {
  setPhase('podium');
  drawPodium(final);
}

function showEnded(final) {
  setPhase('ended');
  drawEndedPodium(final);
  if (room) updateHostedRoom(room.roomId, { ended: true });
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

// ---- commands ------------------------------------------------------------------------------------------------------

/** Sends a host command with `button` disabled meanwhile; a refusal shows the server's (Korean) message. */
async function run(button, command, payload = {}) {
  button.disabled = true;
  const ack = await sendCommand(socket, command, payload);
  button.disabled = false;
  if (ack.ok) hideStatus();
  else showStatus(errorText(ack.error, '명령을 처리하지 못했습니다.'));
  return ack;
}
