// Quiz host, "시험 만들기": starts an exam generation job (POST /api/materials/:id/exams with the
// account's cookie: material, chapters, 문항 수, 난이도, and the short-answer/descriptive balance: by default the
// planner's, from a class's learning records (only `count` and `classId` sent; the reply's `mix.reason` is shown), or
// the teacher's 서술형 수), watches it live on `/jobs` like the math box (계획 완료,
// 검토 k/3회차 with every item's 통과/지적 and the validator's message), and when it ends opens the exam
// (exam-editor.ts: edit, 수업에 게시; exam-results.ts: the results). The material's earlier exams are listed to open
// again, and `?exam=<id>` (the monitor's "결과 보기") opens one directly. Model text reaches the DOM as text only.
import type { Material } from '../../../src/materials/types.js';
import type { JobState } from '../../../src/protocol/wire/jobs.js';
import type { ClassSummary } from '../../net/classes.js';
import { hasNoDeadline, listExams, startExam, type ExamJobProgress, type ExamJobResult, type ExamListing, type ExamRequestBody } from '../../net/exams.js';
import { requestFailure } from '../../net/http.js';
import { openSocket, refusalData, type NamespaceSocket } from '../../net/socket.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { closeExamView, openExamView, updateExamClasses } from './exam-editor.js';

const box = $<HTMLDetailsElement>('exam-box');
const materialSelect = $<HTMLSelectElement>('exam-material');
const chapterList = $('exam-chapters');
const countInput = $<HTMLInputElement>('exam-count');
const descriptiveInput = $<HTMLInputElement>('exam-descriptive');
const plannerChoice = $<HTMLInputElement>('exam-mix-planner');
const manualChoice = $<HTMLInputElement>('exam-mix-manual');
const mixClassSelect = $<HTMLSelectElement>('exam-mix-class');
const mixReason = $('exam-mix-reason');
const difficultySelect = $<HTMLSelectElement>('exam-difficulty');
const startButton = $<HTMLButtonElement>('exam-start');
const status = $('exam-status');
const progressBox = $('exam-progress');
const examList = $('exam-list');
const examListEmpty = $('exam-list-empty');

const STATUS_WORDS: Record<ExamListing['status'], string> = { draft: '게시 전', published: '게시됨', closed: '마감' };

let materials: Material[] = [];
let classes: ClassSummary[] = [];
let socket: NamespaceSocket<'/jobs'> | null = null;
let watched: { jobId: string; updatedAt: number; rounds: Map<number, ExamJobProgress>; planned: number | null; ended: boolean } | null = null;

function setStatus(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

function closeSocket(): void {
  box.dataset.socket = 'closed';
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  startButton.disabled = materials.length === 0;
}

/** The account's materials (the setup screen's list). */
export function setExamMaterials(list: Material[], wanted?: string | null): void {
  materials = list;
  const previous = materialSelect.value || wanted;
  if (materials.length === 0) materialSelect.replaceChildren(element('option', { value: '', text: '올린 강의 자료가 없습니다' }));
  else {
    materialSelect.replaceChildren(...materials.map((material) => element('option', { value: material.id, text: material.title })));
    if (previous && materials.some((material) => material.id === previous)) materialSelect.value = previous;
  }
  startButton.disabled = materials.length === 0 || socket !== null;
  renderChapters();
  renderMixClasses();
  void loadExamList();
}

/** The account's classes, offered by 수업에 게시 and as the learning records the planner reads. */
export function setExamClasses(list: ClassSummary[]): void {
  classes = list;
  updateExamClasses(list);
  renderMixClasses();
}

/** Set once the teacher picks a class for the learning records: a material change then keeps their pick. */
let mixClassPicked = false;

/**
 * 학습 기록을 볼 수업: the account's classes (an exam for a class is planned from its students' aggregated
 * profile), first a class on the chosen material, else `?class=`'s; 수업 없이, the planner's default balance.
 */
function renderMixClasses(): void {
  const previous = mixClassSelect.value;
  mixClassSelect.replaceChildren(
    element('option', { value: '', text: '수업 없이 (기본 비율)' }),
    ...classes.map((entry) => element('option', { value: entry.classId, text: entry.name })),
  );
  const wanted = new URLSearchParams(location.search).get('class');
  const onMaterial = classes.find((entry) => entry.materialId === materialSelect.value);
  const fallback = onMaterial?.classId ?? (classes.some((entry) => entry.classId === wanted) ? wanted : null) ?? '';
  mixClassSelect.value = mixClassPicked && classes.some((entry) => entry.classId === previous) ? previous : fallback;
}

function showMixReason(text: string): void {
  mixReason.textContent = text;
  mixReason.hidden = text === '';
}

export const examClasses = () => classes;

function renderChapters(): void {
  const material = materials.find((entry) => entry.id === materialSelect.value);
  const chapters = material?.chapters ?? [];
  chapterList.replaceChildren(
    ...chapters.map((chapter, position) =>
      element(
        'label',
        { className: 'check exam-chapter' },
        element('input', { type: 'checkbox', value: String(chapter.index), 'data-testid': 'exam-chapter' }),
        `${position + 1}장 ${chapter.title}`,
      ),
    ),
  );
  chapterList.hidden = chapters.length === 0;
}

function wholeNumber(input: HTMLInputElement, max = Number(input.max)): number | null {
  const value = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(value) || value < Number(input.min) || value > max) return null;
  return value;
}

// ---- the material's exams ----------------------------------------------------------------------------------------

async function loadExamList(): Promise<void> {
  const materialId = materialSelect.value;
  if (!materialId) {
    examList.replaceChildren();
    examListEmpty.hidden = false;
    return;
  }
  try {
    const { exams } = await listExams(materialId);
    if (materialSelect.value !== materialId) return;
    const labels = examLabels(exams);
    examList.replaceChildren(...exams.map((exam) => examItem(exam, labels.get(exam.examId) ?? exam.title)));
    examListEmpty.hidden = exams.length > 0;
  } catch (error) {
    examList.replaceChildren(element('li', { className: 'error', text: requestFailure(error) }));
  }
}

const createdText = (at: number) => new Date(at).toLocaleString('ko-KR', { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * Each exam's label in the list: its title and when it was made, numbered when two would still read the same
 * (an exam is picked by its label: two alike would let the wrong one be opened and published).
 */
export function examLabels(exams: readonly Pick<ExamListing, 'examId' | 'title' | 'createdAt'>[]): Map<string, string> {
  const base = exams.map((exam) => `${exam.title} · ${createdText(exam.createdAt)}`);
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const label of base) total.set(label, (total.get(label) ?? 0) + 1);
  // Oldest first gets #1: the list is newest first.
  const labels = new Map<string, string>();
  for (let index = exams.length - 1; index >= 0; index -= 1) {
    const label = base[index] ?? '';
    const exam = exams[index];
    if (!exam) continue;
    const number = (seen.get(label) ?? 0) + 1;
    seen.set(label, number);
    labels.set(exam.examId, (total.get(label) ?? 0) > 1 ? `${label} #${number}` : label);
  }
  return labels;
}

function examItem(exam: ExamListing, label: string): HTMLLIElement {
  const open = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'exam-list-open', text: '열기' });
  open.setAttribute('aria-label', `${label} 열기`);
  open.addEventListener('click', () => {
    // The status box speaks of the current run only: an exam opened from the list has none.
    if (!socket) {
      setStatus('');
      progressBox.replaceChildren();
    }
    void openExamView(exam.examId, examHost);
  });
  return element(
    'li',
    { className: 'room-item', 'data-testid': 'exam-list-item', 'data-status': exam.status, 'data-exam-id': exam.examId },
    element(
      'span',
      { className: 'room-item-text' },
      element('strong', { 'data-testid': 'exam-list-label', text: label }),
      element('span', { className: 'muted', text: `${exam.count}문항 · ${hasNoDeadline(exam.deadline) ? (exam.student ? '학생의 혼자 보는 시험' : '혼자 보는 시험') : STATUS_WORDS[exam.status]}` }),
    ),
    open,
  );
}

const examHost = {
  classes: examClasses,
  changed: () => void loadExamList(),
  materialTitle: (materialId: string) => materials.find((material) => material.id === materialId)?.title ?? null,
};

// ---- the job -----------------------------------------------------------------------------------------------------

function renderProgress(): void {
  if (!watched) return;
  const rounds = [...watched.rounds.values()].sort((a, b) => a.round - b.round);
  progressBox.replaceChildren(
    ...(watched.planned !== null ? [element('p', { className: 'exam-progress-line', 'data-testid': 'exam-planned', text: `계획 완료: ${watched.planned}문항` })] : []),
    ...rounds.map((progress) => {
      const passed = progress.items.filter((item) => item.ok).length;
      return element(
        'section',
        { 'data-testid': 'exam-round', 'data-round': String(progress.round) },
        element('h4', {
          text: `검토 ${progress.round}/${progress.maxRounds}회차: ${progress.items.length}문항 중 ${passed}문항 통과${progress.validated === false ? ' (서버 점검에서 걸려 검토 모델에는 보내지 않음)' : ''}`,
        }),
        element(
          'ol',
          { className: 'review-list' },
          ...progress.items.map((item) =>
            element(
              'li',
              { className: 'review-item', 'data-testid': 'exam-round-item', 'data-ok': String(item.ok) },
              element('span', { className: `review-badge ${item.ok ? 'passed' : 'failed'}`, text: item.ok ? '통과' : '지적' }),
              ` ${item.id}번`,
              item.message ? element('p', { className: 'review-feedback', 'data-testid': 'exam-round-message', text: item.message }) : null,
            ),
          ),
        ),
      );
    }),
  );
}

async function jobEnded(state: JobState): Promise<void> {
  closeSocket();
  const result = state.result as ExamJobResult | null;
  if (state.status === 'cancelled') return setStatus('시험 만들기가 취소되었습니다.');
  if (state.status !== 'succeeded' || !result) return setStatus(state.error?.message ?? '시험을 만들지 못했습니다.', true);
  setStatus(
    result.valid
      ? `시험을 만들었습니다 (검토 ${result.rounds}회차에 통과). 아래에서 문항을 고치고 수업에 게시하세요.`
      : `검토 ${result.rounds}회차까지 지적이 남은 문항이 있습니다. 문항 옆의 지적을 보고 고친 뒤 게시하세요.`,
  );
  void loadExamList();
  await openExamView(result.examId, examHost);
}

function onState(state: JobState): void {
  if (!watched || state.jobId !== watched.jobId || watched.ended || state.updatedAt < watched.updatedAt) return;
  watched.updatedAt = state.updatedAt;
  const progress = state.progress as ExamJobProgress | null;
  if (progress) {
    watched.planned = progress.planned;
    if (progress.stage !== 'plan' && progress.items.length > 0) watched.rounds.set(progress.round, progress);
  }
  renderProgress();
  if (state.status === 'queued') setStatus('순서를 기다리는 중입니다…');
  else if (state.status === 'running') setStatus(progress?.stage === 'plan' ? '계획을 세웠습니다. 문항을 쓰는 중…' : 'AI가 문항을 쓰고 검토하는 중입니다…');
  else {
    watched.ended = true;
    void jobEnded(state);
  }
}

function watch(job: JobState, jobToken: string): void {
  closeSocket();
  watched = { jobId: job.jobId, updatedAt: 0, rounds: new Map(), planned: null, ended: false };
  const opened = openSocket('/jobs', jobToken);
  socket = opened;
  opened.on('connect', () => (box.dataset.socket = 'connected'));
  opened.on('job:state', onState);
  opened.on('job:error', (error) => {
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
  onState(job);
}

async function start(): Promise<void> {
  const materialId = materialSelect.value;
  if (!materialId) return setStatus('강의 자료를 먼저 골라 주세요.', true);
  const count = wholeNumber(countInput);
  if (count === null) {
    countInput.focus();
    return setStatus('문항 수는 1~20 사이의 정수로 적어 주세요.', true);
  }
  // 학습 기록에 맞춰: only the count (and the class whose records to read); the planner chooses the balance.
  const manual = manualChoice.checked;
  const descriptive = manual ? wholeNumber(descriptiveInput, count) : undefined;
  if (descriptive === null) {
    descriptiveInput.focus();
    return setStatus(`서술형 문항 수는 0~${count} 사이의 정수로 적어 주세요.`, true);
  }
  const chapters = [...chapterList.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => Number(input.value));
  const request: ExamRequestBody = {
    count,
    ...(descriptive === undefined ? {} : { descriptive }),
    ...(!manual && mixClassSelect.value ? { classId: mixClassSelect.value } : {}),
    ...(difficultySelect.value ? { difficulty: difficultySelect.value as 'Basic' | 'Intermediate' | 'Advanced' } : {}),
    ...(chapters.length > 0 ? { chapters } : {}),
  };
  closeSocket();
  watched = null;
  progressBox.replaceChildren();
  showMixReason('');
  await whileBusy(startButton, '시작하는 중…', async () => {
    setStatus('시험 만들기를 시작합니다…');
    try {
      const reply = await startExam(materialId, request);
      // Why this balance: the planner's reason (the learning records read), or the teacher's own numbers.
      showMixReason(`문항 구성: ${reply.mix.reason}`);
      // The job's `/jobs` token comes with the job.
      watch(reply.job, reply.jobToken);
    } catch (error) {
      setStatus(requestFailure(error), true);
    }
  });
  if (socket) startButton.disabled = true;
}

/** Wires the box; `?exam=<id>` opens that exam. */
export function initExamMaker(): void {
  materialSelect.addEventListener('change', () => {
    // The box is about one material: the previous one's exam, job and status go (nothing of it can be published
    // from here by mistake); its job goes on on the server and its exam stays in that material's list.
    closeSocket();
    watched = null;
    progressBox.replaceChildren();
    setStatus('');
    showMixReason('');
    closeExamView();
    renderChapters();
    renderMixClasses();
    void loadExamList();
  });
  // Typing a number of descriptive items is choosing the manual balance.
  descriptiveInput.addEventListener('input', () => (manualChoice.checked = true));
  mixClassSelect.addEventListener('change', () => {
    mixClassPicked = true;
    plannerChoice.checked = true;
  });
  startButton.addEventListener('click', () => void start());
  window.addEventListener('pagehide', closeSocket);
  const wanted = new URLSearchParams(location.search).get('exam');
  if (wanted) {
    box.open = true;
    void openExamView(wanted, examHost);
  }
}
