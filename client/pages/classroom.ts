// Classroom page: pick a material and a nickname, start a session, then follow the live lecture over socket.io
// (`/tutor`, through client/net's TutorConnection, which owns the seq rules: stale events dropped, gaps resumed,
// snapshots applied). The session (id, token, last seq) lives in sessionStorage so a reload resumes the same session;
// a freshly loaded page has rendered nothing, so it always resumes from 0.
//
// A student may also join an instructor's class with its code: the same session flow, plus the class's
// announcements and the instructor's acknowledgement of a raised hand, which carry no seq (they are not session
// events). The raise-hand dialogue lives in classroom/hand-panel.ts.
import '../ui/storage-fallback.js';
import { ERROR_MESSAGES } from '../../src/protocol/wire/index.js';
import type { PublicPhase, SelfAssessment, SessionSnapshot, TutorServerEvents } from '../../src/protocol/wire/index.js';
import { HAND_PHASES, HAND_REPLY_KINDS } from '../../src/protocol/wire/index.js';
import type { CommandAck } from '../net/socket.js';
import { TutorConnection } from '../net/tutor-connection.js';
import type { SessionEvent, TutorCommandName, TutorCommands } from '../net/tutor-protocol.js';
import { showConnection } from '../ui/connection-badge.js';
import { $ } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';
import { materialKeyTerms } from '../net/material-terms.js';
import { errorText } from '../ui/messages.js';
import { clearAnnouncements, showAnnouncement } from './classroom/announcements.js';
import { HandPanel } from './classroom/hand-panel.js';
import type { Outcome } from './classroom/answer-form.js';
import { LectureView } from './classroom/lecture-view.js';
import { showProgress } from './classroom/progress.js';
import { hideSetup, showSetup, wireSetup } from './classroom/setup.js';
import { ClassExamPanel } from './classroom/class-exam.js';
import { ClassMathPanel } from './classroom/class-math.js';
import { SelfQuizPanel } from './classroom/self-quiz.js';
import { SessionErrorBox } from './classroom/session-error.js';
import { forgetSession, loadSession, saveSession, type StoredSession } from './classroom/stored-session.js';
import { takeClassroomHandoff } from './classroom/lti-handoff.js';

/**
 * The phase as this page shows it: a public phase kind with what the page knows of its fields (a live event says
 * less than a snapshot, e.g. `tutor:verdict` gives no chapter).
 */
type ShownPhase = { kind: PublicPhase['kind']; chapter?: number | undefined; questionId?: string; parentQuestionId?: string; reason?: 'student' | 'error' };

/** A command's `state` (the session's state kind) as a phase kind: the server names its states like the public phases. */
const phaseKind = (state: string | undefined) => state as PublicPhase['kind'] | undefined;

const classroom = $('classroom');
const materialTitle = $('material-title');
const sessionInfo = $('session-info');
const connection = $('connection');
const pauseButton = $<HTMLButtonElement>('pause-button');
const speedInput = $<HTMLInputElement>('speed');
const speedValue = $('speed-value');
const leaveButton = $<HTMLButtonElement>('leave-button');
const controlError = $('control-error');
const lecture = $('lecture');
const raiseButton = $<HTMLButtonElement>('raise-hand');
const handPaused = $('hand-paused');

// 혼자 퀴즈 풀기: for a class student, once a chapter ends (the API needs a class session).
const selfQuiz = new SelfQuizPanel($('self-quiz'), () => (session?.classId ? { token: session.token, materialId: session.material.id } : null));
// 수학 문제 풀기: the short-answer math problems the instructor shared with a student's class.
const classMath = new ClassMathPanel($('class-math'), () => (session?.classId ? session.token : null));
// 시험: the class's exams, taken with autosaved drafts, and their results and the learner profile.
const classExam = new ClassExamPanel(
  $('class-exam'),
  $('exam-bar-slot'),
  () => (session?.classId ? { token: session.token, sessionId: session.sessionId, chapters: session.material.chapters } : null),
  (chapter) => {
    const section = lecture.querySelector<HTMLElement>(`[data-chapter="${chapter}"]`);
    section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    return section !== null;
  },
);
const view = new LectureView(lecture, {
  onAnswer: submitAnswer,
  onSelfAssess: selfAssessAnswer,
  chapterFooter: (index, label) => (session?.classId ? selfQuiz.button(index, label) : null),
});
const hand = new HandPanel({
  view,
  onAsk: (text) => outcome('hand:ask', { text }),
  onReply: (text) => outcome('hand:reply', { text }),
  onLower: () => outcome('hand:lower', {}),
  // A step that failed waits; a resume wakes the session, which runs the step again.
  onRetry: () => outcome('session:resume', { lastSeq: live?.lastSeq ?? 0 }),
  onDismiss: () => raiseButton.focus(),
});
view.hand = hand;

let session: StoredSession | null = null;
let live: TutorConnection | null = null;
let phase: ShownPhase = { kind: 'idle' };
const sessionError = new SessionErrorBox();
/** The phase when the hand went up (restored when the dialogue closes). */
let phaseBeforeHand: ShownPhase | null = null;

function store(): void {
  if (!session) return;
  session.lastSeq = live?.lastSeq ?? session.lastSeq;
  saveSession(session);
}

// ---- classroom -------------------------------------------------------------------------------------------------

function enterClassroom(next: StoredSession): void {
  session = next;
  store();
  hideSetup();
  classroom.hidden = false;
  document.title = `${next.material.title} — lectern 강의실`;
  materialTitle.textContent = next.material.title;
  showSessionInfo();
  view.clear();
  selfQuiz.close();
  void classMath.load();
  classExam.close();
  void classExam.load();
  hand.reset();
  clearAnnouncements();
  view.setMaterial(next.material);
  setPhase({ kind: 'idle' });
  connect(next);
  void loadQuestionExamples(next);
}

/** Key terms per chapter of the session's material: the raise-hand box's example question is about one of them. */
let questionTerms: Map<number, string[]> = new Map();

async function loadQuestionExamples(current: StoredSession): Promise<void> {
  questionTerms = new Map();
  try {
    const { chapters } = await materialKeyTerms(current.material.id, current.token);
    if (session !== current) return;
    questionTerms = new Map(chapters.map((chapter) => [chapter.index, chapter.terms]));
    showQuestionExample();
  } catch {
    // Without the terms the box keeps its general example.
  }
}

/** `예: 분산, 조금 더 쉽게 설명해 주세요.` with a term of the chapter under way (else of the first that has one). */
function showQuestionExample(): void {
  const chapter = phase.chapter ?? view.current?.index ?? 0;
  const term = questionTerms.get(chapter)?.[0] ?? [...questionTerms.values()].find((terms) => terms.length > 0)?.[0];
  hand.setExample(term === undefined ? null : `예: ${term}, 조금 더 쉽게 설명해 주세요.`);
}

function showSessionInfo(): void {
  if (!session) return;
  sessionInfo.textContent = session.classCode ? `${session.nickname} 님 · 수업 ${session.classCode}` : `${session.nickname} 님의 강의실`;
}

function connect(current: StoredSession): void {
  live?.close();
  // This page has rendered nothing yet: resume from 0 (a snapshot when anything happened).
  live = new TutorConnection(current.token, {
    state: (state) => showConnection(connection, state, '연결됨'),
    connected: () => void onConnect(),
    refused: (data) => fatal(`이전 강의에 다시 들어갈 수 없습니다: ${data?.message ?? ERROR_MESSAGES.UNAUTHORIZED}`),
    event: (event) => {
      apply(event);
      store();
    },
    snapshot: applySnapshot,
    notice: onNotice,
    classNotice: (notice) => {
      if (notice.name === 'class:announcement') {
        if (typeof notice.payload.text === 'string') showAnnouncement(notice.payload.text, notice.payload.at);
      } else if (notice.name === 'class:closed') {
        showAnnouncement('선생님이 수업을 마쳤습니다. 지금까지의 강의는 계속 볼 수 있어요.', notice.payload.at, 'closed');
      } else if (notice.name === 'exam:closed' || notice.name === 'exam:result') {
        classExam.notice(notice.name, notice.payload.examId);
      } else if (!hand.acknowledged()) {
        showAnnouncement('선생님이 손 든 것을 확인했어요', Date.now(), 'ack');
      }
    },
    resumeFailed: (ack) => showControlError(ack),
  });
}

async function onConnect(): Promise<void> {
  if (sessionError.mode === 'reconnect') sessionError.hide();
  if (controlErrorIsOffline) showControlError(null);
  await live?.resume();
  if (session && !session.started) {
    const ack = await command('lecture:start', {});
    if (ack.ok) {
      session.started = true;
      store();
    } else {
      showControlError(ack);
    }
  }
}

/** Sends a command and resolves with its ack (a local error when offline or when the server stays silent). */
function command<K extends TutorCommandName>(name: K, payload: TutorCommands[K]['payload']): Promise<CommandAck<TutorCommands[K]['result']>> {
  return live ? live.command(name, payload) : Promise.resolve({ ok: false, error: { code: 'OFFLINE', message: '서버와 연결이 끊겨 있습니다. 다시 연결되면 시도해 주세요.' } });
}

/** A command for the hand panel and the answer boxes: ok, or the words for the refusal. */
async function outcome<K extends TutorCommandName>(name: K, payload: TutorCommands[K]['payload']): Promise<Outcome> {
  const ack = await command(name, payload);
  return ack.ok ? { ok: true } : { ok: false, message: errorMessage(ack) };
}

const errorMessage = (ack: CommandAck<object>) => errorText(ack.ok ? undefined : ack.error, '요청을 처리하지 못했습니다.');

/** Whether the control error shown says "not connected": no longer true once the socket connects (onConnect). */
let controlErrorIsOffline = false;

function showControlError(ack: CommandAck<object> | null): void {
  controlError.textContent = ack ? errorMessage(ack) : '';
  controlErrorIsOffline = ack !== null && !ack.ok && ack.error.code === 'OFFLINE';
}

/** `session:error` outside the numbered stream. */
function onNotice(payload: TutorServerEvents['session:error']): void {
  if (payload.retryable) {
    // The store is away for a moment: the server holds the lecture and sends a snapshot (session:state) when it is
    // back, so there is nothing to press.
    sessionError.show(errorText(payload, '잠시 연결이 불안정합니다. 곧 저절로 이어집니다.'), 'wait');
    return;
  }
  // The server could not open the session for this socket.
  fatal(errorText(payload, '강의에 들어갈 수 없습니다.'), payload.code === 'SESSION_BUSY' || payload.code === 'STORE_UNAVAILABLE');
}

function apply(event: SessionEvent): void {
  switch (event.name) {
    case 'lecture:chapter-start':
      view.chapterStart(event.payload.chapter, event.payload.title);
      setPhase({ kind: 'streaming', chapter: event.payload.chapter });
      break;
    case 'lecture:delta':
      view.appendText(event.payload.chapter, event.payload.text);
      if (phase.kind !== 'paused') setPhase({ kind: 'streaming', chapter: event.payload.chapter });
      break;
    case 'lecture:chapter-end':
      view.chapterEnd(event.payload.chapter);
      updateProgress();
      break;
    case 'lecture:question':
      view.question(event.payload, { pending: true });
      setPhase({ kind: 'awaiting-answer', chapter: event.payload.chapter, questionId: event.payload.questionId });
      view.flush();
      view.focusAnswer(event.payload.questionId);
      break;
    case 'tutor:subquestion':
      view.subquestion(event.payload, { pending: true });
      setPhase({ kind: 'awaiting-answer', chapter: phase.chapter, questionId: event.payload.questionId, parentQuestionId: event.payload.parentQuestionId });
      view.flush();
      view.focusAnswer(event.payload.questionId);
      break;
    case 'tutor:reask':
      view.reask(event.payload, { pending: true });
      setPhase({ kind: 'awaiting-answer', chapter: phase.chapter, questionId: event.payload.questionId, parentQuestionId: event.payload.parentQuestionId });
      view.flush();
      view.focusAnswer(event.payload.questionId);
      break;
    case 'tutor:unsure':
      view.unsure(event.payload);
      setPhase({ kind: 'tutoring', chapter: phase.chapter });
      break;
    case 'tutor:verdict':
      view.verdict(event.payload);
      setPhase({ kind: 'tutoring', chapter: phase.chapter });
      break;
    case 'tutor:reply-start':
      if (HAND_REPLY_KINDS.has(event.payload.kind)) {
        enterHandPhase();
        view.replyStart(event.payload, undefined, hand.replyContainer());
        break;
      }
      view.replyStart(event.payload);
      if (phase.kind !== 'paused') setPhase({ kind: 'tutoring', chapter: phase.chapter });
      break;
    case 'tutor:reply-delta':
      view.replyDelta(event.payload);
      break;
    case 'tutor:reply-end':
      view.replyEnd(event.payload);
      break;
    case 'lecture:end':
      view.end();
      setPhase({ kind: 'finished' });
      break;
    case 'assistant:prompt':
      enterHandPhase();
      hand.prompt(event.payload);
      break;
    case 'hand:asked':
      enterHandPhase();
      hand.asked(event.payload);
      break;
    case 'assistant:check':
      enterHandPhase();
      hand.check(event.payload);
      break;
    case 'hand:instructor-reply':
      view.flush();
      hand.instructorSays(event.payload.text);
      hand.scrollToEnd();
      break;
    case 'hand:closed':
      view.flush();
      hand.closed(event.payload);
      leaveHandPhase();
      break;
    case 'session:error':
      if (phase.kind === 'hand-raised') {
        // The dialogue's step failed and waits: the panel offers a retry, and lowering the hand always works.
        hand.failed(errorText(event.payload, '문제가 생겨 질문 대화가 멈췄습니다.'));
        break;
      }
      setPhase({ kind: 'paused', chapter: phase.chapter, reason: 'error' });
      sessionError.show(errorText(event.payload, '문제가 생겨 강의가 멈췄습니다.'));
      break;
  }
}

function applySnapshot(state: SessionSnapshot): void {
  if (!session) return;
  if (sessionError.mode === 'wait') sessionError.hide();
  session.material = state.material;
  session.nickname = state.nickname;
  session.started = session.started || state.phase.kind !== 'idle';
  store();
  showSessionInfo();
  materialTitle.textContent = state.material.title;
  setSpeed(state.speed);
  view.renderSnapshot(state);
  phaseBeforeHand = null;
  setPhase(state.phase);
  if (state.phase.kind === 'paused' && state.phase.reason === 'error') {
    sessionError.show('문제가 생겨 강의가 멈춰 있습니다. "계속"을 눌러 다시 시도해 주세요.');
  }
}

// ---- phase, progress and controls ----------------------------------------------------------------------------------

function setPhase(next: ShownPhase): void {
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
  if (next.kind !== 'paused' && next.kind !== 'idle' && sessionError.mode === 'resume') sessionError.hide();
  updateProgress();
}

function updateProgress(): void {
  if (questionTerms.size > 0) showQuestionExample();
  showProgress(session?.material, {
    finished: phase.kind === 'finished',
    currentIndex: phase.chapter ?? view.current?.index,
    isComplete: (index) => view.chapters.get(index)?.complete ?? false,
  });
}

pauseButton.addEventListener('click', async () => {
  showControlError(null);
  const resuming = phase.kind === 'paused';
  pauseButton.disabled = true;
  const ack = await command(resuming ? 'lecture:resume' : 'lecture:pause', {});
  if (ack.ok) {
    const kind = phaseKind(ack.state) ?? (resuming ? 'streaming' : 'paused');
    setPhase({ ...phase, kind, ...(kind === 'paused' ? { reason: 'student' as const } : {}) });
  } else {
    showControlError(ack);
    setPhase(phase);
  }
});

function setSpeed(value: number): void {
  speedInput.value = String(value);
  speedValue.textContent = String(value);
  speedInput.setAttribute('aria-valuetext', `초당 ${value}조각`);
}

speedInput.addEventListener('input', () => setSpeed(Number(speedInput.value)));
speedInput.addEventListener('change', async () => {
  showControlError(null);
  const ack = await command('lecture:speed', { tokensPerSecond: Number(speedInput.value) });
  if (ack.ok) setSpeed(ack.speed);
  else showControlError(ack);
});

// ---- raise hand ----------------------------------------------------------------------------------------------------

/** The session is in the raise-hand dialogue. */
function enterHandPhase(): void {
  if (phase.kind !== 'hand-raised') phaseBeforeHand = phase;
  setPhase({ kind: 'hand-raised', chapter: phase.chapter ?? view.current?.index });
}

/** The dialogue closed: the lecture goes on where it waited (a pending question is asked again). */
function leaveHandPhase(): void {
  const chapter = phase.chapter ?? view.current?.index;
  const pending = view.pendingQuestion();
  const before = phaseBeforeHand;
  phaseBeforeHand = null;
  if (pending) setPhase({ kind: 'awaiting-answer', chapter, ...pending });
  else if (before && before.kind === 'streaming') setPhase(before);
  else setPhase({ kind: 'streaming', chapter });
}

raiseButton.addEventListener('click', async () => {
  showControlError(null);
  raiseButton.disabled = true;
  const ack = await command('hand:raise', {});
  if (ack.ok) {
    if (phase.kind !== 'hand-raised') enterHandPhase();
    hand.raised();
  } else {
    showControlError(ack);
    setPhase(phase);
  }
});

async function submitAnswer(questionId: string, text: string): Promise<Outcome> {
  if (phase.kind === 'hand-raised') return { ok: false, message: '질문 대화가 끝난 뒤에 답해 주세요. (손 내리기로 바로 돌아올 수 있어요)' };
  const ack = await command('answer:submit', { questionId, text });
  if (!ack.ok) return { ok: false, message: errorMessage(ack) };
  if (phase.questionId === questionId) setPhase({ kind: 'tutoring', chapter: phase.chapter });
  return { ok: true };
}

async function selfAssessAnswer(questionId: string, choice: SelfAssessment): Promise<Outcome> {
  const ack = await command('answer:self-assess', { questionId, choice });
  return ack.ok ? { ok: true } : { ok: false, message: errorMessage(ack) };
}

// ---- errors --------------------------------------------------------------------------------------------------------

/** The session cannot go on on this socket (unknown session, bad token, busy elsewhere). */
function fatal(message: string, retryable = false): void {
  showConnection(connection, 'offline');
  sessionError.show(message, retryable ? 'reconnect' : 'fatal');
}

sessionError.resume.addEventListener('click', async () => {
  if (sessionError.mode === 'reconnect') {
    showConnection(connection, 'connecting');
    live?.reconnect();
    return;
  }
  const ack = await whileBusy(sessionError.resume, null, () => command('lecture:resume', {}));
  if (ack.ok) {
    sessionError.hide();
    setPhase({ ...phase, kind: phaseKind(ack.state) ?? 'streaming' });
  } else if (ack.error.code === 'NOT_PAUSED') {
    sessionError.hide();
  } else {
    sessionError.say(errorMessage(ack));
  }
});

function leave(): void {
  live?.close();
  live = null;
  forgetSession();
  session = null;
  sessionError.hide();
  showControlError(null);
  view.clear();
  hand.reset();
  classExam.close();
  clearAnnouncements();
  phaseBeforeHand = null;
  classroom.hidden = true;
  void showSetup();
}

sessionError.restart.addEventListener('click', leave);
leaveButton.addEventListener('click', () => {
  if (window.confirm('이 강의를 끝내고 처음 화면으로 돌아갈까요?')) leave();
});

// ---- start ---------------------------------------------------------------------------------------------------------

wireSetup(enterClassroom);
// A student an LMS launched comes with their session in the address's fragment.
takeClassroomHandoff();
const saved = loadSession();
if (saved) {
  // A reload has rendered nothing: resume from 0.
  saved.lastSeq = 0;
  enterClassroom(saved);
} else {
  classroom.hidden = true;
  void showSetup();
}
