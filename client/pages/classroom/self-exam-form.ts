// "혼자 시험 보기" in the classroom's 시험 panel (self-study): the student picks chapters of their class's
// material, 문항 수 (1–20), the difficulty and the short-answer/descriptive balance: by default the planner's, from
// their own learning records (only `count` sent; the reply's `mix.reason` is shown while the exam is made), or how
// many are 서술형 as they say; the exam is made by the same generation job as the
// instructor's (POST /api/class-exams/self-study), whose progress is read again every second (계획 완료, 검토 k/n회차)
// until it ends (a look that fails on the way — no connection, 5xx, 429 — is repeated, less often each time, for
// about a minute: the job runs on regardless); then the panel opens the exam on the usual sheet. Model text reaches
// the DOM only as textContent.
import { ApiError, requestFailure } from '../../net/http.js';
import { LEVEL_LABELS, selfStudyJob, startSelfStudyExam, type ComplexityLevel, type ExamJobProgress, type ExamJobResult, type ExamRequestBody } from '../../net/exams.js';
import type { JobState } from '../../../src/protocol/wire/jobs.js';
import { element } from '../../ui/dom.js';

const POLL_MS = 1000;
/** Failed looks in a row (about a minute of waiting in all) before the form says it cannot follow the job. */
const MAX_MISSES = 10;
const LEVELS: ComplexityLevel[] = ['Basic', 'Intermediate', 'Advanced'];

export interface SelfExamFormHost {
  token(): string | null;
  chapters(): { index: number; title: string }[];
  /** The exam is made: open it. */
  ready(examId: string): void;
  back(): void;
}

function wholeNumber(input: HTMLInputElement, min: number, max: number): number | null {
  const value = Number(input.value);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

function progressText(progress: ExamJobProgress | null): string {
  if (!progress) return '시험 문제를 만들 준비를 하는 중…';
  if (progress.stage === 'plan') return `계획 완료: ${progress.planned}문항. 문제를 쓰는 중…`;
  const passed = progress.items.filter((item) => item.ok).length;
  if (progress.stage === 'done') return `다 만들었어요: ${progress.items.length}문항`;
  return `검토 ${progress.round}/${progress.maxRounds}회차: ${progress.items.length}문항 중 ${passed}문항 통과`;
}

/** The form, then the job's progress; `stop()` ends the polling when the panel shows something else. */
export class SelfExamForm {
  readonly node: HTMLElement;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly status = element('p', { className: 'muted', role: 'status', 'aria-live': 'polite', 'data-testid': 'self-exam-status' });
  private readonly error = element('p', { className: 'error', role: 'alert', 'data-testid': 'self-exam-error' });
  /** Why the exam has this balance (the reply's `mix.reason`), shown while it is made. */
  private readonly mix = element('p', { className: 'muted', 'data-testid': 'self-exam-mix-reason', hidden: true });

  constructor(private readonly host: SelfExamFormHost) {
    const count = element('input', { type: 'number', id: 'self-exam-count', min: 1, max: 20, value: '5', 'data-testid': 'self-exam-count' });
    const descriptive = element('input', { type: 'number', id: 'self-exam-descriptive', min: 0, max: 20, value: '1', 'data-testid': 'self-exam-descriptive' });
    const planner = element('input', { type: 'radio', id: 'self-exam-mix-planner', name: 'self-exam-mix', value: 'planner', checked: true, 'data-testid': 'self-exam-mix-planner' });
    const manual = element('input', { type: 'radio', id: 'self-exam-mix-manual', name: 'self-exam-mix', value: 'manual', 'data-testid': 'self-exam-mix-manual' });
    // Typing a number of descriptive items is choosing the manual balance.
    descriptive.addEventListener('input', () => (manual.checked = true));
    const level = element(
      'select',
      { id: 'self-exam-level', 'data-testid': 'self-exam-level' },
      element('option', { value: '', text: '섞어서' }),
      ...LEVELS.map((value) => element('option', { value, text: LEVEL_LABELS[value] })),
    );
    const chapters = host.chapters().map((chapter) =>
      element('label', { className: 'self-exam-chapter' }, element('input', { type: 'checkbox', value: String(chapter.index), 'data-testid': 'self-exam-chapter' }), ` ${chapter.index + 1}. ${chapter.title}`),
    );
    const start = element('button', { type: 'submit', 'data-testid': 'self-exam-start', text: '시험 만들기' });
    const back = element('button', { type: 'button', className: 'secondary', 'data-testid': 'self-exam-back', text: '목록으로' });
    back.addEventListener('click', () => {
      this.stop();
      host.back();
    });
    const form = element(
      'form',
      { className: 'self-exam-form', 'data-testid': 'self-exam-form' },
      element('p', { className: 'muted', text: '고른 장으로 나만의 시험을 만들어요. 시간 제한이 없고, 모두 제출하면 바로 결과를 볼 수 있어요.' }),
      element('fieldset', {}, element('legend', { text: '범위 (고르지 않으면 전체)' }), ...chapters),
      element('label', { for: 'self-exam-count', text: '문항 수 (1~20)' }),
      count,
      element(
        'fieldset',
        { className: 'self-exam-mix', 'data-testid': 'self-exam-mix' },
        element('legend', { text: '단답형·서술형 비율' }),
        element('label', { for: 'self-exam-mix-planner', className: 'self-exam-choice' }, planner, ' 유형 비율은 학습 기록에 맞춰 정하기'),
        element('label', { for: 'self-exam-mix-manual', className: 'self-exam-choice' }, manual, ' 서술형 문항 수를 직접 정하기'),
        element('label', { for: 'self-exam-descriptive', text: '그중 서술형 문항 수' }),
        descriptive,
      ),
      element('label', { for: 'self-exam-level', text: '난이도' }),
      level,
      element('div', { className: 'exam-actions' }, start, back),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const total = wholeNumber(count, 1, 20);
      if (total === null) return void (this.error.textContent = '문항 수는 1~20 사이의 정수로 적어 주세요.');
      // 학습 기록에 맞춰: only the count; the planner chooses the balance from the student's profile.
      const written = manual.checked ? wholeNumber(descriptive, 0, total) : undefined;
      if (written === null) return void (this.error.textContent = `서술형 문항 수는 0~${total} 사이의 정수로 적어 주세요.`);
      const picked = chapters.map((label) => label.querySelector('input')).filter((box): box is HTMLInputElement => box?.checked === true).map((box) => Number(box.value));
      const request: ExamRequestBody = {
        count: total,
        ...(written === undefined ? {} : { descriptive: written }),
        ...(level.value ? { difficulty: level.value as ComplexityLevel } : {}),
        ...(picked.length > 0 ? { chapters: picked } : {}),
      };
      start.disabled = true;
      void this.start(request).finally(() => {
        start.disabled = false;
      });
    });
    this.node = element('div', { className: 'self-exam', 'data-testid': 'self-exam' }, form, this.status, this.mix, this.error);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async start(request: ExamRequestBody): Promise<void> {
    const token = this.host.token();
    if (!token) return;
    this.error.textContent = '';
    this.mix.hidden = true;
    this.status.textContent = '시험 문제를 만드는 중… (계획하고, 쓰고, 검토하느라 조금 걸려요)';
    try {
      const started = await startSelfStudyExam(token, request);
      this.mix.textContent = `문항 구성: ${started.mix.reason}`;
      this.mix.hidden = false;
      await this.poll(started.jobId);
    } catch (error) {
      this.status.textContent = '';
      this.error.textContent = requestFailure(error);
    }
  }

  private async poll(jobId: string, misses = 0): Promise<void> {
    if (this.stopped) return;
    const token = this.host.token();
    if (!token) return;
    let job: JobState;
    try {
      ({ job } = await selfStudyJob(token, jobId));
    } catch (error) {
      // The job runs on the server whatever happens to one look at it: a dropped connection, a busy server (5xx) or
      // a rate limit (429) is looked at again, less often each time; a refusal (the job is gone, not theirs) ends it.
      if (!transient(error) || misses >= MAX_MISSES) throw error;
      if (this.stopped) return;
      this.status.textContent = '연결이 잠시 끊겼어요. 시험이 만들어지는 상황을 다시 확인하는 중…';
      await this.wait(POLL_MS * Math.min(2 ** misses, 8));
      return this.poll(jobId, misses + 1);
    }
    if (this.stopped) return;
    this.status.textContent = progressText(job.progress as ExamJobProgress | null);
    if (job.status === 'succeeded') {
      const result = job.result as ExamJobResult | null;
      if (result) return this.host.ready(result.examId);
    }
    if (job.status === 'failed' || job.status === 'cancelled') {
      this.status.textContent = '';
      this.error.textContent = job.error?.message ?? '시험을 만들지 못했습니다. 잠시 후 다시 시도해 주세요.';
      return;
    }
    await this.wait(POLL_MS);
    return this.poll(jobId);
  }

  private wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.timer = setTimeout(resolve, ms);
    });
  }
}

/** A failed look at the job worth repeating: no answer reached the page, the server was busy, or it said wait. */
function transient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return error instanceof TypeError;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}
