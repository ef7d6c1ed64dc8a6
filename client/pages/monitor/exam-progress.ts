// The monitor's "시험 진행": the class's published exams (GET /api/exams, the account's, filtered to the
// class) and, for the one chosen, a table of its students: read once from GET /api/exams/:id/progress (so a reload
// shows everyone who started), then updated live from `/monitor`'s `exam:progress` (every draft save and submission:
// 답한 문항 n/N, 제출 여부) and `exam:graded` (채점 완료), with the time left to the deadline. No
// answer text ever reaches this table; "결과 보기" opens the results on the host page. "학습 프로필" opens a student's
// learner profile (profile-panel.ts).
import type { ExamProgressEvent } from '../../../src/protocol/wire/index.js';
import { examLabel, examProgress, hasNoDeadline, type ExamListing } from '../../net/exams.js';
import { fetchAllPages } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';

interface Row {
  progress: ExamProgressEvent;
  graded: boolean;
  node: HTMLTableRowElement;
  cells: { name: HTMLElement; answered: HTMLElement; submitted: HTMLElement; left: HTMLElement };
}

const card = $('exam-progress-card');
const select = $<HTMLSelectElement>('exam-progress-select');
const resultsLink = $<HTMLAnchorElement>('exam-progress-results');
const table = $('exam-progress-rows');
const empty = $('exam-progress-empty');
const deadlineLine = $('exam-progress-deadline');

function leftText(ms: number): string {
  if (ms <= 0) return '마감';
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}분 ${String(seconds).padStart(2, '0')}초`;
}

export class ExamProgress {
  private exams: ExamListing[] = [];
  private readonly rows = new Map<string, Row>();
  /** Events of exams other than the one shown (or heard before the list arrived), by exam. */
  private readonly heard = new Map<string, Map<string, ExamProgressEvent>>();
  private readonly graded = new Set<string>();
  /** Students heard live since the snapshot of the shown exam was asked for: their event is newer than it. */
  private heardSinceSnapshot = new Set<string>();
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly current: () => { classId: string } | null,
    private readonly openProfile: (sessionId: string, nickname: string) => void,
  ) {
    select.addEventListener('change', () => this.show());
  }

  reset(): void {
    clearInterval(this.ticker);
    this.exams = [];
    this.rows.clear();
    this.heard.clear();
    this.graded.clear();
    table.replaceChildren();
    card.hidden = true;
  }

  /** The class's published exams; the card shows when there is one. */
  async load(): Promise<void> {
    const classId = this.current()?.classId;
    if (!classId) return;
    try {
      const exams = await fetchAllPages<ExamListing>('/api/exams', 'exams');
      if (this.current()?.classId !== classId) return;
      // Timed exams first (the newest deadline on top), then self-study ones (no deadline), newest first.
      const order = (exam: ExamListing) => (hasNoDeadline(exam.deadline) ? exam.createdAt - Number.MAX_SAFE_INTEGER : (exam.deadline ?? 0));
      this.exams = exams.filter((exam) => exam.classId === classId && exam.status !== 'draft').sort((a, b) => order(b) - order(a));
    } catch {
      return;
    }
    const previous = select.value;
    select.replaceChildren(...this.exams.map((exam) => element('option', { value: exam.examId, text: examLabel(exam.title, exam.count, exam.selfStudy) })));
    if (this.exams.some((exam) => exam.examId === previous)) select.value = previous;
    card.hidden = this.exams.length === 0;
    this.show();
  }

  /** `exam:progress`. */
  progress(event: ExamProgressEvent): void {
    const byStudent = this.heard.get(event.examId) ?? new Map<string, ExamProgressEvent>();
    byStudent.set(event.sessionId, event);
    this.heard.set(event.examId, byStudent);
    if (!this.exams.some((exam) => exam.examId === event.examId)) {
      // An exam published after the list was read: read it again.
      void this.load();
      return;
    }
    if (select.value === event.examId) {
      this.heardSinceSnapshot.add(event.sessionId);
      this.upsert(event);
    }
  }

  /** `exam:graded`. */
  gradedFor(examId: string, sessionId: string): void {
    this.graded.add(`${examId}/${sessionId}`);
    const row = select.value === examId ? this.rows.get(sessionId) : undefined;
    if (row) {
      row.graded = true;
      this.draw(row);
    }
  }

  private show(): void {
    clearInterval(this.ticker);
    this.rows.clear();
    table.replaceChildren();
    const exam = this.exams.find((entry) => entry.examId === select.value);
    const classId = this.current()?.classId;
    resultsLink.hidden = !exam;
    if (!exam || !classId) return;
    resultsLink.href = `/host.html?class=${encodeURIComponent(classId)}&exam=${encodeURIComponent(exam.examId)}`;
    for (const event of this.heard.get(exam.examId)?.values() ?? []) this.upsert(event);
    empty.hidden = this.rows.size > 0;
    this.tick();
    this.ticker = setInterval(() => this.tick(), 1000);
    void this.snapshot(exam.examId);
  }

  /** Everyone who started the exam, as the server has it now; a student heard live meanwhile keeps the newer event. */
  private async snapshot(examId: string): Promise<void> {
    const heard = new Set<string>();
    this.heardSinceSnapshot = heard;
    let reply;
    try {
      reply = await examProgress(examId);
    } catch {
      return; // The live events still fill the table.
    }
    if (select.value !== examId || this.heardSinceSnapshot !== heard) return;
    for (const { graded, ...event } of reply.students) {
      if (graded) this.graded.add(`${examId}/${event.sessionId}`);
      if (heard.has(event.sessionId)) continue;
      this.upsert(event);
      const row = this.rows.get(event.sessionId);
      if (row && graded && !row.graded) {
        row.graded = true;
        this.draw(row);
      }
    }
  }

  private deadline(): number | undefined {
    return this.exams.find((entry) => entry.examId === select.value)?.deadline;
  }

  private tick(): void {
    const deadline = this.deadline();
    // A self-study exam has no deadline: nothing counts down.
    if (hasNoDeadline(deadline)) deadlineLine.textContent = '혼자 보는 시험 · 시간 제한 없음';
    else deadlineLine.textContent = deadline ? `마감 ${new Date(deadline).toLocaleTimeString('ko-KR')} · 남은 시간 ${leftText(deadline - Date.now())}` : '';
    for (const row of this.rows.values()) this.drawLeft(row);
  }

  private upsert(event: ExamProgressEvent): void {
    let row = this.rows.get(event.sessionId);
    if (!row) {
      const cells = {
        name: element('td', { 'data-testid': 'exam-progress-name' }),
        answered: element('td', { 'data-testid': 'exam-progress-answered' }),
        submitted: element('td', { 'data-testid': 'exam-progress-submitted' }),
        left: element('td', { 'data-testid': 'exam-progress-left' }),
      };
      const profile = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'exam-progress-profile', text: '학습 프로필' });
      profile.addEventListener('click', () => this.openProfile(event.sessionId, row?.progress.nickname ?? event.nickname));
      const node = element('tr', { 'data-testid': 'exam-progress-row', 'data-session-id': event.sessionId }, cells.name, cells.answered, cells.submitted, cells.left, element('td', {}, profile));
      row = { progress: event, graded: this.graded.has(`${event.examId}/${event.sessionId}`), node, cells };
      this.rows.set(event.sessionId, row);
      table.append(node);
      empty.hidden = true;
    }
    row.progress = event;
    this.draw(row);
  }

  private draw(row: Row): void {
    const { progress, cells } = row;
    cells.name.textContent = progress.nickname;
    cells.answered.textContent = `${progress.answered}/${progress.total}`;
    cells.submitted.textContent = progress.submittedAll ? (row.graded ? '제출 · 채점 완료' : '제출') : '응시 중';
    row.node.dataset.submitted = String(progress.submittedAll);
    this.drawLeft(row);
  }

  private drawLeft(row: Row): void {
    const { progress } = row;
    row.cells.left.textContent = progress.submittedAll || hasNoDeadline(progress.deadline) ? '-' : leftText(progress.deadline - Date.now());
  }
}
