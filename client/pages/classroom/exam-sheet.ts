// Taking an exam in the classroom: the questions (단답형: one line, 서술형: a text area), autosaved as the
// student types (client/net/exam-drafts.ts: ~800 ms after typing rests, retried on failure, a sessionStorage copy
// resent after a reload) with "저장됨 HH:MM:SS", a countdown to the server's deadline corrected by its `serverNow` (the
// server owns the clock; this device's clock only measures the time since), 제출 per item and 전체 제출 after a
// confirm. At the deadline every input locks: the server grades the drafts it had at the deadline. A self-study exam
// has no deadline: no countdown, and the result follows the student's own 전체 제출.
import { DraftSaver, type DraftState } from '../../net/exam-drafts.js';
import { saveDrafts, submitExam, TYPE_LABELS, type ClassExam } from '../../net/exams.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { mathElement } from '../../ui/math.js';
import { requestFailure } from '../../net/http.js';

const MAX_ANSWER = 4000;

/** A clock time of the server's (ms) as HH:MM:SS of this device's time zone. */
export function timeOfDay(at: number): string {
  const time = new Date(at);
  return [time.getHours(), time.getMinutes(), time.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function remainingText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

interface ItemParts {
  node: HTMLLIElement;
  input: HTMLInputElement | HTMLTextAreaElement;
  button: HTMLButtonElement;
  state: HTMLElement;
}

export interface ExamSheetHost {
  token(): string | null;
  /**
   * Where the sheet's bar (title, countdown, 저장됨) goes while the sheet is open: a slot in the sticky toolbar, so the
   * countdown stays on screen wherever the student scrolls (a sticky bar inside the sheet left with the sheet's end).
   */
  barSlot: HTMLElement;
  /** The sessionStorage key of this student's drafts of the exam. */
  storageKey(examId: string): string;
  /** The whole exam was submitted or its time ran out: show the results. */
  finished(examId: string): void;
  back(): void;
}

export class ExamSheet {
  readonly node: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly saver: DraftSaver;
  private readonly items = new Map<number, ItemParts>();
  private readonly countdown = element('span', { className: 'exam-countdown', 'data-testid': 'exam-countdown', role: 'timer', 'aria-live': 'off' });
  private readonly saved = element('span', { className: 'exam-saved muted', 'data-testid': 'exam-saved', role: 'status', 'aria-live': 'polite' });
  private readonly error = element('p', { className: 'error', role: 'alert', 'data-testid': 'exam-error' });
  private readonly submitAll = element('button', { type: 'button', 'data-testid': 'exam-submit-all', text: '전체 제출' });
  /** Server time minus this device's, from the newest reply that carried `serverNow`. */
  private offset: number;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private submitted: Record<string, true>;
  private locked = false;

  constructor(
    private readonly exam: ClassExam,
    private readonly host: ExamSheetHost,
  ) {
    this.offset = exam.serverNow - Date.now();
    this.submitted = { ...exam.submitted };
    this.saver = new DraftSaver({
      storage: sessionStorage,
      storageKey: host.storageKey(exam.examId),
      save: (answers) => {
        const token = host.token();
        if (!token) return Promise.reject(new Error('강의실 세션이 끝났습니다.'));
        return saveDrafts(token, exam.examId, answers);
      },
      state: (state) => this.showSave(state),
    });
    const answers = this.saver.restore(exam.drafts, exam.submitted);
    const back = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-back', text: '목록으로' });
    back.addEventListener('click', () => host.back());
    this.bar = element(
      'div',
      { className: 'exam-bar', 'data-testid': 'exam-bar' },
      element('h3', { className: 'exam-title', 'data-testid': 'exam-title', text: exam.title }),
      exam.selfStudy
        ? element('span', { className: 'exam-time muted', 'data-testid': 'exam-no-limit', text: '시간 제한 없음' })
        : element('span', { className: 'exam-time' }, element('span', { className: 'muted', text: '남은 시간 ' }), this.countdown),
      this.saved,
    );
    this.submitAll.addEventListener('click', () => void this.submitEverything());
    this.node = element(
      'div',
      { className: 'exam-sheet', 'data-testid': 'exam-sheet', 'data-exam-id': exam.examId },
      element('p', {
        className: 'muted exam-note',
        text: exam.selfStudy
          ? '답은 쓰는 동안 저절로 저장돼요. 제출한 문항은 더 고칠 수 없어요. 전체 제출하면 바로 채점해 결과를 보여 줍니다.'
          : '답은 쓰는 동안 저절로 저장돼요. 제출한 문항은 더 고칠 수 없어요. 시간이 끝나면 그때까지 저장된 답으로 채점합니다.',
      }),
      element('ol', { className: 'exam-items' }, ...exam.problems.map((problem, index) => this.item(problem, index, answers[String(problem.id)] ?? ''))),
      this.error,
      element('div', { className: 'exam-actions' }, this.submitAll, back),
    );
    host.barSlot.replaceChildren(this.bar);
    host.barSlot.hidden = false;
    // While a sheet is open a phone's toolbar keeps only its title row and this bar (classroom.css): the sheet gets the
    // screen.
    document.body.classList.add('exam-writing');
    if (!exam.selfStudy) {
      this.tick();
      this.ticker = setInterval(() => this.tick(), 1000);
    }
  }

  /** Stops the clock and the saving (the panel shows something else). */
  close(): void {
    document.body.classList.remove('exam-writing');
    if (this.bar.parentElement === this.host.barSlot) {
      this.bar.remove();
      this.host.barSlot.hidden = true;
    }
    clearInterval(this.ticker);
    this.saver.stop();
  }

  private now(): number {
    return Date.now() + this.offset;
  }

  private item(problem: ClassExam['problems'][number], index: number, answer: string): HTMLLIElement {
    const id = `exam-${this.exam.examId}-${problem.id}`;
    const descriptive = problem.type === 'Descriptive';
    const input = descriptive
      ? element('textarea', { id, rows: 5, maxLength: MAX_ANSWER, className: 'exam-answer', 'data-testid': 'exam-answer', autocomplete: 'off', placeholder: '이유와 과정을 문장으로 설명해 주세요.' })
      : element('input', { id, type: 'text', maxLength: MAX_ANSWER, className: 'exam-answer', 'data-testid': 'exam-answer', autocomplete: 'off', placeholder: '핵심 용어를 적어 주세요.' });
    // autocomplete off: the browser must not put back a reloaded page's old values over the drafts restored here.
    input.value = answer;
    input.addEventListener('input', () => this.saver.set(problem.id, input.value));
    const button = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-item-submit', text: '이 문항 제출' });
    button.addEventListener('click', () => void this.submitOne(problem.id, index + 1));
    const state = element('span', { className: 'exam-item-state', 'data-testid': 'exam-item-state' });
    const node = element(
      'li',
      { className: 'exam-item', 'data-testid': 'exam-item', 'data-id': problem.id, 'data-type': problem.type },
      element('p', { className: 'exam-item-head' }, element('span', { className: 'badge', text: TYPE_LABELS[problem.type] }), ' ', mathElement('span', { className: 'exam-question', 'data-testid': 'exam-question' }, problem.question_content)),
      element('label', { for: id, className: 'visually-hidden', text: `${index + 1}번 답` }),
      input,
      element('div', { className: 'exam-item-actions' }, state, button),
    );
    this.items.set(problem.id, { node, input, button, state });
    this.markSubmitted(problem.id, this.submitted[String(problem.id)] === true);
    return node;
  }

  private markSubmitted(id: number, submitted: boolean): void {
    const parts = this.items.get(id);
    if (!parts) return;
    parts.input.readOnly = submitted || this.locked;
    parts.button.hidden = submitted || this.locked;
    parts.state.textContent = submitted ? '제출함' : '';
    parts.node.dataset.submitted = String(submitted);
  }

  private tick(): void {
    const left = this.exam.deadline - this.now();
    this.countdown.textContent = remainingText(left);
    this.countdown.classList.toggle('low', left <= 60_000);
    if (left <= 0) this.timeUp();
  }

  /** The server closed the exam (시험 종료, or its deadline as the server saw it): lock now, then show the result. */
  ended(): void {
    this.timeUp('시험이 끝났어요. 저장된 답으로 채점합니다.');
  }

  private timeUp(message = '시간이 끝났어요. 마감 때 저장된 답으로 채점합니다.'): void {
    if (this.locked) return;
    this.locked = true;
    clearInterval(this.ticker);
    this.saver.stop();
    for (const [id, parts] of this.items) {
      parts.input.disabled = true;
      this.markSubmitted(id, this.submitted[String(id)] === true);
    }
    this.submitAll.disabled = true;
    this.saved.textContent = message;
    this.node.dataset.locked = 'true';
    // The student reads why the sheet locked; then the result (read again while grading is pending, and when the
    // server says it is there).
    setTimeout(() => this.host.finished(this.exam.examId), 1500);
  }

  private showSave(state: DraftState): void {
    this.node.dataset.save = state.kind;
    switch (state.kind) {
      case 'typing':
        this.saved.textContent = '입력 중…';
        break;
      case 'saving':
        this.saved.textContent = '저장하는 중…';
        break;
      case 'saved':
        this.offset = state.serverNow - Date.now();
        this.saved.textContent = `저장됨 ${timeOfDay(state.savedAt)}`;
        this.error.textContent = '';
        break;
      case 'retrying':
        this.saved.textContent = `저장하지 못했어요. ${Math.round(state.inMs / 1000)}초 뒤 다시 저장합니다. (이 화면에는 남아 있어요)`;
        break;
      case 'refused':
        this.saved.textContent = '';
        this.error.textContent = state.message;
        if (state.code === 'EXAM_CLOSED') this.timeUp();
        break;
      case 'idle':
        break;
    }
  }

  /** Sends the unsent drafts first: a submission takes the server's drafts. */
  private async flushed(): Promise<boolean> {
    if (await this.saver.flush()) return true;
    this.error.textContent = '아직 저장되지 않은 답이 있어 제출하지 않았어요. 연결을 확인하고 다시 눌러 주세요.';
    return false;
  }

  private async submitOne(id: number, number: number): Promise<void> {
    const parts = this.items.get(id);
    if (!parts || this.locked) return;
    if (!window.confirm(`${number}번 문항을 제출할까요? 제출한 뒤에는 고칠 수 없어요.`)) return;
    await whileBusy(parts.button, '제출하는 중…', () => this.submit([id]));
  }

  private async submitEverything(): Promise<void> {
    if (this.locked) return;
    const empty = [...this.items.entries()].filter(([id, parts]) => !this.submitted[String(id)] && parts.input.value.trim() === '').length;
    const warning = empty > 0 ? `\n답을 쓰지 않은 문항이 ${empty}개 있어요.` : '';
    if (!window.confirm(`시험 전체를 제출할까요? 제출한 뒤에는 고칠 수 없어요.${warning}`)) return;
    await whileBusy(this.submitAll, '제출하는 중…', () => this.submit(undefined));
  }

  private async submit(questionIds: number[] | undefined): Promise<void> {
    const token = this.host.token();
    if (!token || !(await this.flushed())) return;
    try {
      const reply = await submitExam(token, this.exam.examId, questionIds);
      this.submitted = { ...this.submitted, ...reply.submitted };
      for (const id of Object.keys(reply.submitted)) {
        this.saver.forget(id);
        this.markSubmitted(Number(id), true);
      }
      this.error.textContent = '';
      if (reply.submittedAll) {
        this.close();
        this.saver.clear();
        this.host.finished(this.exam.examId);
      }
    } catch (error) {
      this.error.textContent = requestFailure(error);
    }
  }
}
