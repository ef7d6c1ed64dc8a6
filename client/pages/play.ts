// Quiz player (a phone): join a live room with its 6-digit code (prefilled from ?code=, the QR link) and a nickname,
// then follow the room over socket.io (`/quiz`): questions with a timer and four big answer buttons, the result after
// each reveal, the leaderboard rank, the podium. The player token from `room:join` is kept in localStorage per room,
// so a reload reconnects with it and the server's `room:state` snapshot (with `me`: score, rank and the answer already
// sent) redraws the same screen (client/net's followRoom). Kicked or expired players go back to the join form.
// Question text, choices and nicknames are untrusted: they reach the DOM as textContent only.
import '../ui/storage-fallback.js';
import type { AnswerResponse, LeaderboardPayload, PublicQuestion, QuestionPayload, RecordedResponse, RevealPayload, RoomOptions } from '../../src/protocol/wire/index.js';
import { closeSocket, watchConnection } from '../net/lifecycle.js';
import type { QuizCommands, QuizSocket } from '../net/quiz-protocol.js';
import { followRoom } from '../net/room-follow.js';
import { teamLabel } from '../ui/team-pieces.js';
import { handshakeAuth, openSocket, sendCommand } from '../net/socket.js';
import { showConnection } from '../ui/connection-badge.js';
import { Countdown } from '../ui/countdown.js';
import { $ } from '../ui/dom.js';
import { errorText, type ErrorLike } from '../ui/messages.js';
import { answerForm, responseText, type AnswerForm } from './play/answer-forms.js';
import { announcer } from '../ui/announcer.js';
import { RememberedList } from '../ui/remembered-list.js';
import { actionButton, showScreen, statusLine } from '../ui/screens.js';
import { drawBoard, drawFinal, drawReveal } from './play/results.js';
import { setMathText } from '../ui/math.js';
import { showPicture } from '../ui/question-picture.js';
import { decodeHandoff } from './classroom/lti-handoff.js';

/** A room this browser joined as a player (the player token re-enters it). */
interface PlayerRoom {
  roomId: string;
  code: string;
  playerId: string;
  playerToken: string;
  nickname: string;
  joinedAt: number;
  ended?: boolean;
}

const NICKNAME_KEY = 'lectern.nickname';
const RESUME_WITHIN_MS = 24 * 60 * 60_000;
const CONNECT_TIMEOUT_MS = 10_000;

const playerRooms = new RememberedList<PlayerRoom>(
  'lectern.play.rooms',
  (entry) => entry.roomId,
  (entry) => typeof entry.playerToken === 'string' && typeof entry.roomId === 'string',
  10,
);

const joinSection = $('join');
const joinNotice = $('join-notice');
const joinForm = $<HTMLFormElement>('join-form');
const codeInput = $<HTMLInputElement>('join-code');
const nicknameInput = $<HTMLInputElement>('join-nickname');
const joinButton = $<HTMLButtonElement>('join-button');
const joinError = $('join-error');
const connection = $('connection');
const game = $('game');
const meName = $('me-name');
const meProgress = $('me-progress');
const meScore = $('me-score');
const lobbyTitle = $('lobby-title');
const myTeam = $('my-team');
const teamPicks = $('team-picks');
const questionNumber = $('question-number');
const questionText = $('question-text');
const questionPicture = { image: $<HTMLImageElement>('question-picture'), page: $<HTMLCanvasElement>('question-page'), token: () => entry?.playerToken ?? null };
const timer = $('timer');
const previewNote = $('preview-note');
const pausedNote = $('paused-note');
const answers = $('answers');
const answerSent = $('answer-sent');

const announce = announcer();
const countdown = new Countdown({ bar: $('timer-bar'), label: $('timer-label'), root: timer });
const { show: showStatus, hide: hideStatus } = statusLine($('status'));

/** The joined room. */
let entry: PlayerRoom | null = null;
let socket: QuizSocket | null = null;

/** Team mode: the player's team, and in the lobby of a room that allows it, one button per team to move to it. */
function showTeam(team: number | undefined, roomOptions: RoomOptions, lobby: boolean): void {
  myTeam.hidden = team === undefined;
  myTeam.textContent = team === undefined ? '' : `내 팀: ${teamLabel(team)}`;
  const count = roomOptions.teams ?? 0;
  teamPicks.hidden = !(lobby && roomOptions.teamPick && count > 0);
  if (teamPicks.hidden) return teamPicks.replaceChildren();
  teamPicks.replaceChildren(
    ...Array.from({ length: count }, (_, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button';
      button.dataset.testid = 'team-pick';
      button.textContent = teamLabel(index);
      button.setAttribute('aria-pressed', String(index === team));
      button.addEventListener('click', () => void pickTeam(index, roomOptions));
      return button;
    }),
  );
}

async function pickTeam(team: number, roomOptions: RoomOptions): Promise<void> {
  if (!socket) return;
  const ack = await sendCommand<QuizCommands, 'team:pick'>(socket, 'team:pick', { team });
  if (ack.ok) showTeam(ack.team, roomOptions, true);
  else showStatus(errorText(ack.error, '팀을 바꾸지 못했습니다.'));
}
let options: RoomOptions | null = null;
/** The question on screen and its phase, and whether it is paused. */
let question: PublicQuestion | null = null;
let questionPhase: QuestionPayload['phase'] | null = null;
let paused = false;
/** The answer recorded for the current question (from the ack or the snapshot). */
let myAnswer: { questionIndex: number; response: RecordedResponse } | null = null;
/** The controls of the question on screen (by type: see play/answer-forms.ts). */
let form: AnswerForm | null = null;
let submitting = false;
let kicked = false;

function updateEntry(changes: Partial<PlayerRoom>): void {
  if (!entry) return;
  entry = { ...entry, ...changes };
  playerRooms.remember(entry);
}

// ---- join ----------------------------------------------------------------------------------------------------------

function showJoin(notice = ''): void {
  dropSocket();
  entry = null;
  game.hidden = true;
  joinSection.hidden = false;
  connection.hidden = true;
  document.title = '퀴즈 참여 — lectern';
  joinNotice.textContent = notice;
  joinNotice.hidden = !notice;
  joinError.textContent = '';
  setJoinBusy(false);
  (codeInput.value ? nicknameInput : codeInput).focus({ preventScroll: true });
}

function setJoinBusy(busy: boolean): void {
  joinButton.disabled = busy;
  joinButton.textContent = busy ? '들어가는 중…' : '참여하기';
}

/** A join refusal in plain words (the server's INVALID_PAYLOAD messages are already Korean sentences for people). */
function joinErrorText(error: ErrorLike): string {
  return errorText(error, '참여하지 못했습니다. 잠시 후 다시 시도해 주세요.');
}

codeInput.addEventListener('input', () => {
  const digits = codeInput.value.replace(/\D/g, '').slice(0, 6);
  if (digits !== codeInput.value) codeInput.value = digits;
});

joinForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  joinError.textContent = '';
  const code = codeInput.value.trim();
  const nickname = nicknameInput.value.trim();
  if (!/^\d{6}$/.test(code)) {
    joinError.textContent = '방 코드는 숫자 6자리입니다.';
    codeInput.focus();
    return;
  }
  if (!nickname) {
    joinError.textContent = '닉네임을 입력해 주세요.';
    nicknameInput.focus();
    return;
  }
  setJoinBusy(true);
  dropSocket();
  const guest = connectAs(null);
  if (!(await connected(guest))) {
    dropSocket();
    setJoinBusy(false);
    joinError.textContent = '서버에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.';
    return;
  }
  const ack = await sendCommand<QuizCommands, 'room:join'>(guest, 'room:join', { code, nickname });
  if (!ack.ok) {
    dropSocket();
    setJoinBusy(false);
    joinError.textContent = joinErrorText(ack.error);
    if (ack.error.code === 'NICKNAME_TAKEN') nicknameInput.select();
    return;
  }
  try {
    localStorage.setItem(NICKNAME_KEY, nickname);
  } catch {
    // No storage: nothing to prefill next time.
  }
  entry = { roomId: ack.roomId, code, playerId: ack.playerId, playerToken: ack.playerToken, nickname, joinedAt: Date.now() };
  playerRooms.remember(entry);
  // Reconnections of this socket (a network blip) now come back as this player, not as a guest.
  guest.auth = handshakeAuth(ack.playerToken);
  enterGame(entry);
  showConnection(connection, 'connected');
});

/** Resolves true once `candidate` connects, false when it is refused or takes too long. */
function connected(candidate: QuizSocket): Promise<boolean> {
  return new Promise((resolve) => {
    if (candidate.connected) return resolve(true);
    const done = (value: boolean) => {
      clearTimeout(timeout);
      candidate.off('connect', yes);
      candidate.off('connect_error', no);
      resolve(value);
    };
    const yes = () => done(true);
    const no = () => done(false);
    const timeout = setTimeout(() => done(false), CONNECT_TIMEOUT_MS);
    candidate.once('connect', yes);
    candidate.once('connect_error', no);
  });
}

// ---- the socket ----------------------------------------------------------------------------------------------------

function resume(saved: PlayerRoom): void {
  entry = saved;
  enterGame(saved);
  connectAs(saved.playerToken);
}

function enterGame(joined: PlayerRoom): void {
  kicked = false;
  options = null;
  question = null;
  myAnswer = null;
  joinSection.hidden = true;
  game.hidden = false;
  connection.hidden = false;
  hideStatus();
  meName.textContent = joined.nickname ?? '';
  showScreen(game, '');
}

/** The player's socket: with a token (re-entering a room) or as a guest (joining). */
function connectAs(token: string | null): QuizSocket {
  const current: QuizSocket = openSocket('/quiz', token);
  socket = current;
  watchConnection(current, {
    state: (state) => {
      if (state === 'connected') hideStatus();
      showConnection(connection, state);
    },
    closedByServer: () => {
      if (kicked) return;
      showConnection(connection, 'offline');
      showStatus(
        '서버와 연결이 끊겼습니다.',
        actionButton('다시 연결', () => current.connect()),
      );
    },
    refused: (data) => {
      if (!entry) return; // a guest's join attempt: the form reports it
      // The player token was refused. Back to the join form.
      const { roomId, code: roomCode } = entry;
      playerRooms.forget(roomId);
      if (!codeInput.value) codeInput.value = roomCode ?? '';
      if (data?.code === 'KICKED') showJoin(errorText(data, '진행자가 이 방에서 내보냈습니다.'));
      else showJoin(`이전 참여 정보를 쓸 수 없어 다시 참여해야 합니다. (${errorText(data, '참여 정보가 만료되었습니다.')})`);
    },
  });
  followRoom(current, {
    state: (state) => {
      options = state.options;
      if (state.me) {
        updateEntry({ nickname: state.me.nickname, playerId: state.me.playerId, code: state.code });
        meName.textContent = state.me.nickname;
        setScore(state.me.score, state.me.rank);
        showTeam(state.me.team, state.options, state.phase === 'lobby');
      }
      document.title = `${state.title} — lectern 퀴즈`;
      lobbyTitle.textContent = `${state.title} · ${state.totalQuestions}문제`;
    },
    lobby: () => setScreen('lobby', '대기 중'),
    question: (payload, snapshot) => {
      if (snapshot) {
        const answer = snapshot.me?.answer;
        myAnswer =
          answer && answer.questionIndex === snapshot.question.index
            ? { questionIndex: answer.questionIndex, response: answer.response ?? { choice: answer.choice } }
            : null;
        question = null;
      }
      showQuestion(payload);
    },
    reveal: showReveal,
    leaderboard: showBoard,
    podium: (payload) => {
      setScreen('podium', '최종 순위');
      drawFinal(payload, 'podium');
      announce(`최종 순위 발표.${payload.you ? ` ${payload.you.score === 0 && payload.you.rank === 1 ? '순위 없음' : `${payload.you.rank}위`}, ${payload.you.score.toLocaleString('ko-KR')}점.` : ''}`);
      if (payload.you) setScore(payload.you.score, payload.you.rank);
    },
    ended: (payload) => {
      setScreen('ended', '끝남');
      announce('퀴즈가 끝났습니다.');
      drawFinal(payload, 'ended');
      if (payload.you) setScore(payload.you.score, payload.you.rank);
      updateEntry({ ended: true });
    },
  });
  current.on('room:kicked', ({ reason }) => {
    kicked = true;
    if (entry) playerRooms.forget(entry.roomId);
    codeInput.value = '';
    showJoin(reason || '진행자가 이 방에서 내보냈습니다.');
  });
  return current;
}

function dropSocket(): void {
  countdown.stop();
  closeSocket(socket);
  socket = null;
}

function setScreen(name: string, progress: string): void {
  game.dataset.phase = name;
  showScreen(game, name);
  meProgress.textContent = progress;
  if (name !== 'question') countdown.stop();
}

function setScore(score: number, rank: number | null): void {
  meScore.textContent = `${score.toLocaleString('ko-KR')}점${rank && !(score === 0 && rank === 1) ? ` · ${rank}위` : ''}`;
  meScore.dataset.score = String(score);
}

// ---- questions -------------------------------------------------------------------------------------------------

function showQuestion(payload: QuestionPayload): void {
  const next = payload.question;
  if (!question || question.index !== next.index || answers.childElementCount === 0) {
    if (myAnswer && myAnswer.questionIndex !== next.index) myAnswer = null;
    setMathText(questionText, next.question);
    showPicture(questionPicture, next);
    form = answerForm(answers, next, (response) => void submit(response));
    hideStatus();
  }
  if (question?.index !== next.index || questionPhase !== payload.phase || paused !== payload.paused) {
    const seconds = Math.round(payload.remainingMs / 1000);
    const how = TYPE_HINTS[next.type];
    announce(
      payload.paused
        ? `문제 ${next.index + 1}: 잠시 멈췄습니다.`
        : payload.phase === 'preview'
          ? `문제 ${next.index + 1} / ${next.total} 미리 보기: ${next.question}`
          : `문제 ${next.index + 1} / ${next.total}, ${how}. 남은 시간 ${seconds}초.`,
    );
  }
  question = next;
  questionPhase = payload.phase;
  paused = payload.paused;
  setScreen('question', `문제 ${next.index + 1} / ${next.total}`);
  questionNumber.textContent = `문제 ${next.index + 1} / ${next.total}`;
  const seconds = payload.phase === 'preview' ? (options?.previewSeconds ?? 0) : (options?.questionSeconds ?? 20);
  countdown.set(payload.remainingMs, seconds * 1000, paused, payload.phase === 'open');
  game.dataset.questionPhase = payload.phase;
  previewNote.hidden = payload.phase !== 'preview' || paused;
  pausedNote.hidden = !paused;
  answers.hidden = payload.phase === 'preview';
  renderAnswers();
}

function renderAnswers(): void {
  const locked = questionPhase !== 'open' || paused || submitting || myAnswer !== null;
  answers.dataset.answered = String(myAnswer !== null);
  form?.lock(locked);
  form?.mark(myAnswer?.response ?? null);
  if (myAnswer) {
    setMathText(answerSent, `답을 보냈습니다: ${responseText(question, myAnswer.response)}`);
    answerSent.dataset.choice = 'choice' in myAnswer.response ? String(myAnswer.response.choice) : '';
    answerSent.hidden = false;
  } else {
    answerSent.hidden = true;
  }
}

async function submit(response: AnswerResponse): Promise<void> {
  if (!question || myAnswer || submitting) return;
  const questionIndex = question.index;
  submitting = true;
  renderAnswers();
  const ack = await sendCommand<QuizCommands, 'answer:submit'>(socket, 'answer:submit', { questionIndex, ...response });
  submitting = false;
  if (ack.ok) {
    if (question?.index === questionIndex) myAnswer = { questionIndex, response: ack.response };
    hideStatus();
  } else {
    showStatus(errorText(ack.error, '답을 보내지 못했습니다.'));
  }
  if (question?.index === questionIndex) renderAnswers();
}

/** How each type is answered, said when its question opens. */
const TYPE_HINTS: Record<PublicQuestion['type'], string> = {
  choice: '보기 하나를 고르세요',
  truefalse: '참 또는 거짓을 고르세요',
  multi: '맞는 보기를 모두 고른 뒤 보내세요',
  ordering: '위로, 아래로 버튼으로 순서를 맞춘 뒤 보내세요',
  numeric: '수를 입력해 보내세요',
  poll: '설문입니다. 하나를 고르세요',
  short: '답을 글로 적어 보내세요',
  cloud: '떠오르는 단어를 적어 보내세요. 점수는 없습니다',
};

/** The reveal's verdict, points and answer as drawn (play/results.ts fills them in). */
function revealSentence(): string {
  return ['verdict', 'points', 'reveal-mine', 'reveal-correct'].map((id) => $(id).textContent?.trim() ?? '').filter(Boolean).join('. ');
}

// ---- results -------------------------------------------------------------------------------------------------------

function showReveal(reveal: RevealPayload): void {
  question = reveal.question;
  setScreen('reveal', `문제 ${reveal.question.index + 1} / ${reveal.question.total} 결과`);
  drawReveal(reveal);
  announce(`문제 ${reveal.question.index + 1} 결과: ${revealSentence()}`);
  if (reveal.you) setScore(reveal.you.score, reveal.you.rank);
  hideStatus();
}

function showBoard(payload: LeaderboardPayload): void {
  setScreen('leaderboard', '순위');
  if (payload.you) announce(`순위: ${payload.players}명 중 ${payload.you.score === 0 && payload.you.rank === 1 ? '순위 없음' : `${payload.you.rank}위`}, ${payload.you.score.toLocaleString('ko-KR')}점.`);
  drawBoard(payload, entry?.playerId ?? null);
  if (payload.you) setScore(payload.you.score, payload.you.rank);
}

$('again-button').addEventListener('click', () => {
  codeInput.value = '';
  showJoin();
});

// ---- start ---------------------------------------------------------------------------------------------------------

const wantedCode = (new URLSearchParams(location.search).get('code') ?? '').replace(/\D/g, '').slice(0, 6);
codeInput.value = wantedCode;
try {
  nicknameInput.value = localStorage.getItem(NICKNAME_KEY) ?? '';
} catch {
  // No storage.
}
// A player an LMS launched comes with their room in the address's fragment (see classroom/lti-handoff.ts).
const handedOver = new URLSearchParams(location.hash.slice(1)).get('lti');
if (handedOver) {
  history.replaceState(null, '', location.pathname + location.search);
  const room = decodeHandoff<Omit<PlayerRoom, 'joinedAt'>>(handedOver);
  if (room && typeof room.playerToken === 'string' && typeof room.roomId === 'string') playerRooms.remember({ ...room, joinedAt: Date.now() });
}
const now = Date.now();
const resumable = playerRooms.all().filter((saved) => !saved.ended && now - (saved.joinedAt ?? 0) < RESUME_WITHIN_MS);
const saved = wantedCode ? resumable.find((candidate) => candidate.code === wantedCode) : resumable[0];
if (saved) resume(saved);
else showJoin();
