// Quiz host, "수학 문제 만들기": starts a math problem job (POST /api/materials/:id/math-problems, 202
// {job, jobToken}) with the picked class's instructor token, watches it live on `/jobs` (`job:state`: attempt k/3,
// passed n/N, every problem's verdict with its four scores, the judge's feedback and a deterministic check), cancels it
// (`job:cancel`), and when it ends shows the set (GET /api/math-sets/:id) and makes a quiz of it (POST
// /api/math-sets/:id/quiz) that the quiz select then picks for "방 만들기". Model text is set as textContent with its
// `$…$` math typeset by KaTeX (ui/math.ts). One job is watched at a time; its socket closes when another starts or the
// page leaves (a reload does not resume watching).
import type { Material } from '../../../src/materials/types.js';
import type { JobState, MathCheck, MathItemVerdict, MathJobProgress, MathJobResult, MathProblemView, MathScores, MathSetShareReply } from '../../../src/protocol/wire/jobs.js';
import type { OpenedClass } from '../../net/classes.js';
import { apiJson, requestFailure } from '../../net/http.js';
import { openSocket, refusalData, sendCommand, type NamespaceSocket } from '../../net/socket.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { mathElement } from '../../ui/math.js';
import { serverModel } from '../../net/server-info.js';

/** What the maker needs of the setup screen. */
export interface MathMakerHost {
  selectedClass(): OpenedClass | null;
  /** A quiz was made from a set: list the class's quizzes with this one picked. */
  quizMade(quizId: string, title: string): Promise<void>;
}

interface MathSet {
  setId: string;
  problems: MathProblemView[];
  complete: boolean;
}

const box = $<HTMLDetailsElement>('math-box');
const materialSelect = $<HTMLSelectElement>('math-material');
const chapterSelect = $<HTMLSelectElement>('math-chapter');
const countInput = $<HTMLInputElement>('math-count');
const choicesInput = $<HTMLInputElement>('math-choices');
const difficultySelect = $<HTMLSelectElement>('math-difficulty');
const startButton = $<HTMLButtonElement>('math-start');
const cancelButton = $<HTMLButtonElement>('math-cancel');
const status = $('math-status');
const progressLine = $('math-progress');
const attemptsBox = $('math-attempts');
const resultBox = $('math-result');
const problemList = $('math-problems');
const quizButton = $<HTMLButtonElement>('math-quiz');
const shareButton = $<HTMLButtonElement>('math-share');

const CRITERIA: [keyof MathScores, string][] = [
  ['mathematical_accuracy', '수학적 정확성'],
  ['consistency', '일관성'],
  ['completeness', '완전성'],
  ['logic_flow', '논리 흐름'],
];
const CHECKS: Record<MathCheck, string> = {
  choices: '보기 검사',
  'answer-key': '정답 표시 검사',
  equivalence: '풀이·정답 일치 검사',
  guard: '문항 검사(자리표시·되풀이·표지·조사)',
};
const DIFFICULTIES: Record<string, string> = { easy: '쉬움', medium: '보통', hard: '어려움' };

let host: MathMakerHost | null = null;
/** The offline model writes no math problems (the server refuses with MODEL_NOT_CAPABLE): said before, not after. */
let offline = false;
const offlineNote = $('math-offline');
const canStart = () => materials.length > 0 && !offline;
let materials: Material[] = [];
let socket: NamespaceSocket<'/jobs'> | null = null;
/** The job being watched: its id, the newest state's `updatedAt`, each attempt's progress. */
let watched: { jobId: string; updatedAt: number; attempts: Map<number, MathJobProgress>; ended: boolean } | null = null;
let finishedSetId: string | null = null;

function setStatus(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

/** Closes the job's socket (a new job, the page leaving, or the job's end). */
function closeSocket(): void {
  box.dataset.socket = 'closed';
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  cancelButton.hidden = true;
  startButton.disabled = !canStart();
}

/** The materials the account may use (the setup screen's list); `wanted` is picked when listed. */
export function setMathMaterials(list: Material[], wanted?: string | null): void {
  materials = list;
  const previous = materialSelect.value || wanted;
  if (materials.length === 0) {
    materialSelect.replaceChildren(element('option', { value: '', text: '올린 강의 자료가 없습니다' }));
  } else {
    materialSelect.replaceChildren(...materials.map((material) => element('option', { value: material.id, text: material.title })));
    if (previous && materials.some((material) => material.id === previous)) materialSelect.value = previous;
  }
  startButton.disabled = !canStart();
  renderChapters();
}

function renderChapters(): void {
  const material = materials.find((entry) => entry.id === materialSelect.value);
  chapterSelect.replaceChildren(
    element('option', { value: '', text: '자료 전체' }),
    ...(material?.chapters ?? []).map((chapter, index) => element('option', { value: String(index), text: `${index + 1}장 ${chapter.title}` })),
  );
}

/** A whole number within the input's [min, max], or null. */
function wholeNumber(input: HTMLInputElement, max = Number(input.max)): number | null {
  const value = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(value) || value < Number(input.min) || value > max) return null;
  return value;
}

// ---- one problem's verdict --------------------------------------------------------------------------------------

function verdictBadge(item: MathItemVerdict): HTMLElement {
  if (!item.passed) return element('span', { className: 'review-badge failed', text: '미통과', 'data-testid': 'math-verdict' });
  if (!item.judged) return element('span', { className: 'review-badge unjudged', text: '검증 못 함', 'data-testid': 'math-verdict' });
  return element('span', { className: 'review-badge passed', text: '통과', 'data-testid': 'math-verdict' });
}

function scoresOf(scores: MathScores | null): HTMLElement {
  return element(
    'span',
    { className: 'review-scores', 'data-testid': 'math-scores' },
    ...CRITERIA.map(([key, label]) => element('span', { className: 'review-score', text: `${label} ${scores ? `${scores[key]}/5` : '–'}` })),
  );
}

function verdictItem(item: MathItemVerdict): HTMLElement {
  const kind = item.type === 'multiple_choice' ? '객관식' : '단답형';
  return element(
    'li',
    { className: 'review-item', 'data-testid': 'math-item', 'data-passed': String(item.passed) },
    element('div', { className: 'review-head' }, element('strong', { text: `${kind} · ${DIFFICULTIES[item.difficulty] ?? item.difficulty} ` }), mathElement('span', { 'data-testid': 'math-question' }, item.question)),
    element(
      'div',
      { className: 'review-verdict' },
      verdictBadge(item),
      scoresOf(item.scores),
      item.check ? element('span', { className: 'review-check', text: `걸린 검사: ${CHECKS[item.check]}`, 'data-testid': 'math-check' }) : null,
    ),
    item.feedback ? mathElement('p', { className: 'review-feedback', 'data-testid': 'math-feedback' }, item.feedback) : null,
  );
}

function renderAttempts(): void {
  if (!watched) return;
  const attempts = [...watched.attempts.values()].sort((a, b) => a.attempt - b.attempt);
  const newest = attempts.at(-1);
  progressLine.hidden = !newest;
  progressLine.textContent = newest ? `시도 ${newest.attempt}/${newest.maxAttempts} · 통과 ${newest.passed}/${newest.wanted}` : '';
  attemptsBox.replaceChildren(
    ...attempts.map((progress) =>
      element(
        'section',
        { 'data-testid': 'math-attempt', 'data-attempt': String(progress.attempt) },
        element('h4', { text: `시도 ${progress.attempt}: ${progress.items.length}문제 중 ${progress.items.filter((item) => item.passed).length}문제 통과` }),
        element('ol', { className: 'review-list' }, ...progress.items.map(verdictItem)),
      ),
    ),
  );
}

// ---- the finished set --------------------------------------------------------------------------------------------

/** A choice or an answer as math: the model writes bare LaTeX (`\\frac{5}{2}`), delimited here as the quiz does. */
const asMath = (text: string) => (text.includes('$') ? text : `$${text}$`);

function problemItem(problem: MathProblemView): HTMLElement {
  const choices = problem.choices ?? [];
  const answer = problem.type === 'multiple_choice' ? `정답: ${problem.correct_answer}` : `정답: ${asMath(problem.final_answer || problem.correct_answer)}`;
  return element(
    'li',
    { 'data-testid': 'math-problem' },
    mathElement('div', { 'data-testid': 'math-problem-question' }, problem.question),
    choices.length > 0
      ? element('ol', { className: 'math-choices', type: 'A', 'data-testid': 'math-problem-choices' }, ...choices.map((choice) => mathElement('li', {}, asMath(choice))))
      : null,
    mathElement('p', { className: 'math-answer', 'data-testid': 'math-problem-answer' }, answer),
    mathElement('p', { className: 'math-explanation', 'data-testid': 'math-problem-explanation' }, `풀이: ${problem.explanation}`),
  );
}

async function showSet(setId: string, token: string): Promise<void> {
  const set = await apiJson<MathSet>(`/api/math-sets/${encodeURIComponent(setId)}`, { headers: { authorization: `Bearer ${token}` } });
  finishedSetId = set.setId;
  problemList.replaceChildren(...set.problems.map(problemItem));
  resultBox.hidden = false;
  quizButton.hidden = !set.problems.some((problem) => problem.type === 'multiple_choice');
  shareButton.hidden = !set.problems.some((problem) => problem.type === 'short_answer');
}

async function jobEnded(state: JobState, token: string): Promise<void> {
  closeSocket();
  const result = state.result as MathJobResult | null;
  if (state.status === 'cancelled') {
    setStatus('문제 만들기를 취소했습니다. 이번 시도에서 통과한 문제는 저장되지 않았습니다.');
    return;
  }
  if (state.status === 'succeeded') setStatus(`수학 문제 ${result?.passed ?? 0}개를 만들었습니다. 아래에서 확인하고 퀴즈로 만들 수 있어요.`);
  else {
    const passed = result ? ` 통과한 ${result.passed}문제는 아래에 있습니다.` : ' 통과한 문제가 없습니다.';
    setStatus(`${state.error?.message ?? '문제를 만들지 못했습니다.'}${passed}`, true);
  }
  if (!result) return;
  try {
    await showSet(result.setId, token);
  } catch (error) {
    setStatus(requestFailure(error), true);
  }
}

function onState(state: JobState, token: string): void {
  if (!watched || state.jobId !== watched.jobId || watched.ended || state.updatedAt < watched.updatedAt) return;
  watched.updatedAt = state.updatedAt;
  const progress = state.progress as MathJobProgress | null;
  if (progress) watched.attempts.set(progress.attempt, progress);
  renderAttempts();
  if (state.status === 'queued') setStatus('순서를 기다리는 중입니다…');
  else if (state.status === 'running') setStatus(progress ? `시도 ${progress.attempt}/${progress.maxAttempts}을 마쳤습니다. 계속 만드는 중…` : 'AI가 문제를 쓰고 검증하는 중입니다…');
  else {
    watched.ended = true;
    void jobEnded(state, token);
  }
}

function watch(job: JobState, jobToken: string, classToken: string): void {
  closeSocket();
  watched = { jobId: job.jobId, updatedAt: 0, attempts: new Map(), ended: false };
  const opened = openSocket('/jobs', jobToken);
  socket = opened;
  cancelButton.hidden = false;
  cancelButton.disabled = false;
  opened.on('connect', () => (box.dataset.socket = 'connected'));
  opened.on('job:state', (state) => onState(state, classToken));
  opened.on('job:error', (error) => {
    // The server closes the connection after it: nothing more will come.
    setStatus(error.message, true);
    closeSocket();
  });
  opened.on('connect_error', (error) => {
    const refusal = refusalData(error);
    if (refusal?.message) {
      setStatus(refusal.message, true);
      closeSocket();
    } else setStatus('서버와 연결이 끊겼습니다. 다시 연결하는 중…', true);
  });
  onState(job, classToken);
}

// ---- wiring ------------------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const entry = host?.selectedClass();
  const materialId = materialSelect.value;
  if (!entry || !materialId) {
    setStatus('수업과 강의 자료를 먼저 골라 주세요.', true);
    return;
  }
  const count = wholeNumber(countInput);
  if (count === null) {
    setStatus('문제 수는 1~20 사이의 정수로 적어 주세요.', true);
    countInput.focus();
    return;
  }
  const multipleChoice = wholeNumber(choicesInput, count);
  if (multipleChoice === null) {
    setStatus(`객관식 개수는 0~${count} 사이의 정수로 적어 주세요.`, true);
    choicesInput.focus();
    return;
  }
  const body: { count: number; multipleChoice: number; difficulty?: string; chapter?: number } = { count, multipleChoice };
  if (difficultySelect.value) body.difficulty = difficultySelect.value;
  if (chapterSelect.value !== '') body.chapter = Number(chapterSelect.value);
  closeSocket();
  watched = null;
  finishedSetId = null;
  attemptsBox.replaceChildren();
  problemList.replaceChildren();
  resultBox.hidden = true;
  progressLine.hidden = true;
  await whileBusy(startButton, '시작하는 중…', async () => {
    setStatus('문제 만들기를 시작합니다…');
    try {
      const { job, jobToken } = await apiJson<{ job: JobState; jobToken: string }>(`/api/materials/${encodeURIComponent(materialId)}/math-problems`, {
        method: 'POST',
        headers: { authorization: `Bearer ${entry.instructorToken}` },
        body,
      });
      watch(job, jobToken, entry.instructorToken);
    } catch (error) {
      setStatus(requestFailure(error), true);
    }
  });
  // Busy until the job ends (closeSocket enables it again): one job watched at a time.
  if (socket) startButton.disabled = true;
}

cancelButton.addEventListener('click', async () => {
  cancelButton.disabled = true;
  const job = watched;
  const ack = await sendCommand(socket, 'job:cancel', {});
  // The `cancelled` state comes before the ack and closes the socket, which fails the pending ack: the job ended.
  if (!ack.ok && job && !job.ended && job === watched) {
    setStatus(ack.error.message, true);
    cancelButton.disabled = false;
  }
});

quizButton.addEventListener('click', async () => {
  const entry = host?.selectedClass();
  if (!entry || !finishedSetId) return;
  const setId = finishedSetId;
  await whileBusy(quizButton, '만드는 중…', async () => {
    try {
      const quiz = await apiJson<{ quizId: string; title: string; items: unknown[] }>(`/api/math-sets/${encodeURIComponent(setId)}/quiz`, {
        method: 'POST',
        headers: { authorization: `Bearer ${entry.instructorToken}` },
        body: { classId: entry.classId },
      });
      setStatus(`"${quiz.title}" 퀴즈를 만들었습니다 (객관식 ${quiz.items.length}문제). 아래 "방 만들기"로 진행할 수 있어요.`);
      await host?.quizMade(quiz.quizId, quiz.title);
    } catch (error) {
      setStatus(requestFailure(error), true);
    }
  });
});

shareButton.addEventListener('click', async () => {
  const entry = host?.selectedClass();
  if (!entry || !finishedSetId) return;
  const setId = finishedSetId;
  await whileBusy(shareButton, '공유하는 중…', async () => {
    try {
      const shared = await apiJson<MathSetShareReply>(`/api/math-sets/${encodeURIComponent(setId)}/share`, {
        method: 'POST',
        headers: { authorization: `Bearer ${entry.instructorToken}` },
        body: { classId: entry.classId },
      });
      setStatus(`수업에 공유했습니다. 학생들은 강의실의 "수학 문제 풀기"에서 단답형 ${shared.shortAnswers}문제를 풀 수 있어요.`);
    } catch (error) {
      setStatus(requestFailure(error), true);
    }
  });
});

/** Wires the box to the setup screen. */
export function initMathMaker(setup: MathMakerHost): void {
  host = setup;
  materialSelect.addEventListener('change', renderChapters);
  startButton.addEventListener('click', () => void start());
  window.addEventListener('pagehide', closeSocket);
  void serverModel().then((model) => {
    offline = model.offline;
    offlineNote.hidden = !offline;
    if (offline) startButton.disabled = true;
  });
}
