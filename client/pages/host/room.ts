// Quiz host, the live room: run a room over socket.io (`/quiz`, host token) — lobby, questions with the timer and the
// live answer count, the reveal, leaderboards, the podium and the results — and send the host's commands. The
// server's `room:state` snapshot (on every connection, so after a reload too) redraws whatever phase the room is in
// (client/net's followRoom). The lobby and the after-question screens are drawn by host/lobby.ts and host/reveal.ts;
// this module holds the state. Question text, choices and nicknames are untrusted: textContent only.
import type { Phase, PlayerSummary, PublicQuestion, QuestionPayload, RoomOptions, RoomStatePayload } from '../../../src/protocol/wire/index.js';
import { closeSocket, watchConnection } from '../../net/lifecycle.js';
import type { QuizCommands, QuizSocket } from '../../net/quiz-protocol.js';
import { followRoom } from '../../net/room-follow.js';
import { openSocket, sendCommand } from '../../net/socket.js';
import { showConnection } from '../../ui/connection-badge.js';
import { Countdown } from '../../ui/countdown.js';
import { $ } from '../../ui/dom.js';
import { downloadWithToken } from '../../ui/download.js';
import { whileBusy } from '../../ui/forms.js';
import { errorText } from '../../ui/messages.js';
import { choiceAt, choiceNodes } from '../../ui/quiz-pieces.js';
import { actionButton, showScreen, statusLine } from '../../ui/screens.js';
import { hostedRooms, type HostedRoom } from '../../ui/stored-lists.js';
import { clearPlayers, renderLobbyInfo, renderPlayers } from './lobby.js';
import { drawEndedPodium, drawLeaderboard, drawPodium, drawReveal } from './reveal.js';
import { announcer } from '../../ui/announcer.js';
import { setMathText } from '../../ui/math.js';
import { showPicture } from '../../ui/question-picture.js';

const DIFFICULTY_LABELS: Record<string, string> = { easy: '쉬움', medium: '보통', hard: '어려움' };

const game = $('game');
const gameTitle = $('game-title');
const gameProgress = $('game-progress');
const miniCode = $('mini-code');
const connection = $('connection');
const endButton = $<HTMLButtonElement>('end-button');
const lockButton = $<HTMLButtonElement>('lock-button');
const startButton = $<HTMLButtonElement>('start-button');
const questionNumber = $('question-number');
const questionDifficulty = $('question-difficulty');
const questionText = $('question-text');
const questionPicture = { image: $<HTMLImageElement>('question-picture'), page: $<HTMLCanvasElement>('question-page'), token: () => room?.hostToken ?? null };
const timer = $('timer');
const previewNote = $('preview-note');
const pausedNote = $('paused-note');
const questionChoices = $('question-choices');
const answerCount = $('answer-count');
const pauseButton = $<HTMLButtonElement>('pause-button');
const skipButton = $<HTMLButtonElement>('skip-button');
const revealNext = $<HTMLButtonElement>('reveal-next');
const leaderboardNext = $<HTMLButtonElement>('leaderboard-next');
const podiumNext = $<HTMLButtonElement>('podium-next');

const countdown = new Countdown({ bar: $('timer-bar'), label: $('timer-label'), root: timer });

/** The room's fixed facts and counters from the latest snapshot. */
interface RoomInfo {
  totalQuestions: number;
  options: RoomOptions;
  locked: boolean;
  playerCount: number;
}

/** The open room's stored entry. */
let room: HostedRoom | null = null;
let socket: QuizSocket | null = null;
let info: RoomInfo | null = null;
/** The question on screen (preview/open). */
let question: PublicQuestion | null = null;
let answered = 0;
let players: PlayerSummary[] = [];

const { show: showStatus, hide: hideStatus } = statusLine($('status'));

// ---- the room ------------------------------------------------------------------------------------------------------

/** Opens `entry` (a hosted room kept by this browser) and connects; the caller shows the room's section. */
export function openRoom(entry: HostedRoom): void {
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
  connect(entry);
}

export function closeRoom(): void {
  countdown.stop();
  closeSocket(socket);
  socket = null;
  room = null;
}

function connect(current: HostedRoom): void {
  const live: QuizSocket = openSocket('/quiz', current.hostToken);
  socket = live;
  watchConnection(live, {
    state: (state) => showConnection(connection, state),
    // The handshake refused the host token (expired, room gone).
    refused: (data) => {
      showConnection(connection, 'offline');
      const forget = actionButton('목록에서 지우고 돌아가기', () => {
        hostedRooms.forget(current.roomId);
        location.hash = '';
      });
      showStatus(`이 방을 열 수 없습니다: ${errorText(data, '진행자 접속 권한이 유효하지 않습니다.')}`, forget);
    },
  });
  followRoom(live, {
    state: onState,
    lobby: () => setPhase('lobby'),
    question: (payload, snapshot) => {
      if (snapshot) {
        answered = (snapshot.phase === 'open' ? snapshot.answered : undefined) ?? 0;
        question = null;
      }
      showQuestion(payload, snapshot !== undefined);
    },
    reveal: (reveal) => {
      question = reveal.question;
      setPhase('reveal');
      drawReveal(reveal, (button, payload) => run(button, 'room:review', payload));
      announce(`문제 ${reveal.question.index + 1} 정답 공개. ${$('reveal-summary').textContent ?? ''}`);
    },
    leaderboard: (board) => {
      setPhase('leaderboard');
      drawLeaderboard(board, board.afterQuestion + 1 >= (info?.totalQuestions ?? 0));
      announce(`${board.afterQuestion + 1}번 문제까지 순위. 1위 ${board.top[0]?.nickname ?? '없음'}.`);
    },
    podium: (final) => {
      setPhase('podium');
      drawPodium(final);
      announce(`최종 순위: ${final.top.map((row) => `${row.rank}위 ${row.nickname}`).join(', ') || '없음'}.`);
    },
    ended: (final) => {
      setPhase('ended');
      announce('퀴즈가 끝났습니다.');
      drawEndedPodium(final);
      if (room) hostedRooms.update(room.roomId, { ended: true });
    },
  });
  live.on('room:answer-count', (count) => {
    if (!question || count.questionIndex !== question.index) return;
    answered = count.answered;
    if (info) info.playerCount = count.players;
    renderAnswerCount();
  });
  live.on('room:players', (update) => {
    players = update.players;
    if (info) info.playerCount = update.playerCount;
    renderPlayerList();
    renderAnswerCount();
  });
}

/** A full snapshot: sent on every (re)connection and after lock/unlock. It replaces everything shown. */
function onState(state: RoomStatePayload): void {
  info = { totalQuestions: state.totalQuestions, options: state.options, locked: state.locked, playerCount: state.playerCount };
  players = state.players ?? [];
  if (room && (room.code !== state.code || room.title !== state.title)) {
    room = { ...room, code: state.code, title: state.title };
    hostedRooms.update(room.roomId, { code: state.code, title: state.title });
  }
  gameTitle.textContent = state.title;
  miniCode.textContent = state.code;
  document.title = `${state.title} — lectern 퀴즈 진행`;
  renderLobbyInfo(state);
  renderPlayerList();
}

const announce = announcer();

function setPhase(next: Phase, screen: string = next): void {
  game.dataset.phase = next;
  showScreen(game, screen);
  endButton.hidden = next === 'ended';
  if (next !== 'preview' && next !== 'open') countdown.stop();
  const total = info?.totalQuestions ?? 0;
  const progress: Record<Phase, string> = {
    lobby: `대기실 · ${total}문제`,
    preview: question ? `문제 ${question.index + 1} / ${total}` : '',
    open: question ? `문제 ${question.index + 1} / ${total}` : '',
    reveal: '정답 공개',
    leaderboard: '순위',
    podium: '최종 순위',
    ended: '끝남',
  };
  gameProgress.textContent = progress[next] ?? '';
}

// ---- lobby -------------------------------------------------------------------------------------------------------

function renderPlayerList(): void {
  renderPlayers(
    players,
    info?.playerCount ?? players.length,
    (button, playerId) => run(button, 'room:kick', { playerId }),
    (button, playerId, seconds) => run(button, 'room:extra-time', { playerId, seconds }),
  );
}

lockButton.addEventListener('click', () => void run(lockButton, info?.locked ? 'room:unlock' : 'room:lock', {}));
startButton.addEventListener('click', () => void run(startButton, 'room:start', {}));

// ---- questions -------------------------------------------------------------------------------------------------

/** A question's preview or opening, or its pause/resume; `fromState` keeps the snapshot's answer count. */
function showQuestion(payload: QuestionPayload, fromState = false): void {
  const { question: next, remainingMs, paused } = payload;
  if (!question || question.index !== next.index || questionChoices.childElementCount === 0) {
    if (!fromState) answered = 0;
    setMathText(questionText, next.question);
    showPicture(questionPicture, next);
    questionChoices.replaceChildren(...choiceNodes(next.choices, 'li', (index) => ({ 'aria-label': `${choiceAt(index).name}: ${next.choices[index]}` })));
  }
  if (question?.index !== next.index || game.dataset.phase !== payload.phase || game.dataset.paused !== String(paused)) {
    announce(paused ? '잠시 멈췄습니다.' : `문제 ${next.index + 1} / ${next.total}${payload.phase === 'preview' ? ' 미리 보기' : ', 답을 받는 중'}: ${next.question}`);
  }
  question = next;
  setPhase(payload.phase, 'question');
  questionNumber.textContent = `문제 ${next.index + 1} / ${next.total}`;
  questionDifficulty.textContent = DIFFICULTY_LABELS[next.difficulty] ?? next.difficulty;
  const totalMs = (payload.phase === 'preview' ? (info?.options.previewSeconds ?? 0) : (info?.options.questionSeconds ?? 20)) * 1000;
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

function renderAnswerCount(): void {
  const total = info?.playerCount ?? players.length;
  answerCount.textContent = `${answered} / ${total}명 응답`;
  answerCount.dataset.answered = String(answered);
  answerCount.dataset.players = String(total);
}

pauseButton.addEventListener('click', () => void run(pauseButton, pauseButton.dataset.paused === 'true' ? 'room:resume' : 'room:pause', {}));
skipButton.addEventListener('click', () => void run(skipButton, 'room:skip', {}));

// ---- after the question -------------------------------------------------------------------------------------------

revealNext.addEventListener('click', () => void run(revealNext, 'room:next', {}));
leaderboardNext.addEventListener('click', () => void run(leaderboardNext, 'room:next', {}));
podiumNext.addEventListener('click', () => void run(podiumNext, 'room:next', {}));
endButton.addEventListener('click', () => {
  if (!window.confirm('퀴즈를 지금 끝낼까요? 진행 중인 문제는 지금까지 받은 답으로 마감됩니다.')) return;
  void run(endButton, 'room:end', {});
});

async function download(kind: 'csv' | 'json'): Promise<void> {
  if (!room) return;
  const button = $<HTMLButtonElement>(kind === 'csv' ? 'download-csv' : 'download-json');
  const path = `/api/rooms/${encodeURIComponent(room.roomId)}/results${kind === 'csv' ? '.csv' : ''}`;
  const { hostToken, code } = room;
  const failure = await whileBusy(button, null, () => downloadWithToken(path, hostToken, `quiz-${code}-results.${kind}`));
  if (failure) showStatus(failure);
  else hideStatus();
}
$('download-csv').addEventListener('click', () => void download('csv'));
$('download-json').addEventListener('click', () => void download('json'));
$('new-room').addEventListener('click', () => {
  location.hash = '';
});

// ---- commands ------------------------------------------------------------------------------------------------------

type HostCommandName = Exclude<keyof QuizCommands, 'room:join' | 'answer:submit'>;

/** Sends a host command with `button` disabled meanwhile; a refusal shows the server's (Korean) message. */
async function run<K extends HostCommandName>(button: HTMLButtonElement, command: K, payload: QuizCommands[K]['payload']): Promise<void> {
  const ack = await whileBusy(button, null, () => sendCommand<QuizCommands, K>(socket, command, payload));
  if (ack.ok) hideStatus();
  else showStatus(errorText(ack.error, '명령을 처리하지 못했습니다.'));
}
