// "시험" in the classroom, for a class student: the class's exams (`GET /api/class-exams`, read again
// every 15 s and on 새로 고침 while the list shows), taking one (exam-sheet.ts), its result once the exam has ended —
// the deadline or the instructor's 시험 종료, never at the student's own submission (exam-result.ts, read again while
// grading is pending) — and "나의 학습 프로필". The exam being taken is remembered in
// sessionStorage, so a reload opens it again with its drafts. "혼자 시험 보기" (self-exam-form.ts) makes the student's
// own self-study exam; it is listed with the class's exams, has no time limit, and its result shows as soon as the
// student has submitted everything.
import { ApiError, requestFailure } from '../../net/http.js';
import { bareExamTitle, classExam, classExamResult, classExams, myProfile, type ClassExamListing } from '../../net/exams.js';
import { element } from '../../ui/dom.js';
import { learnerProfileView } from '../../ui/learner-profile.js';
import { ExamSheet, timeOfDay } from './exam-sheet.js';
import { resultView } from './exam-result.js';
import { SelfExamForm } from './self-exam-form.js';

const OPEN_KEY = 'lectern.exam.open';
const LIST_REFRESH_MS = 15_000;
const PENDING_REFRESH_MS = 3_000;
const WAIT_REFRESH_MS = 4_000;

export interface ClassExamSession {
  token: string;
  sessionId: string;
  /** The class material's chapters (혼자 시험 보기 picks from them). */
  chapters: { index: number; title: string }[];
}

const STATE_LABELS: Record<ClassExamListing['state'], string> = { open: '응시 중', submitted: '제출함', closed: '마감' };

/** What the panel shows, so a notice from the server knows whether it concerns it. */
type PanelView = { kind: 'list' } | { kind: 'sheet' | 'waiting' | 'result'; examId: string } | { kind: 'other' };

export class ClassExamPanel {
  private run = 0;
  private view: PanelView = { kind: 'other' };
  private sheet: ExamSheet | null = null;
  private form: SelfExamForm | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly body = element('div', { className: 'class-exam-body' });
  private readonly profile = element('details', { className: 'exam-profile', 'data-testid': 'exam-profile' });

  constructor(
    private readonly root: HTMLElement,
    /** Where an open sheet's bar (title, countdown) goes: a slot in the sticky toolbar. */
    private readonly barSlot: HTMLElement,
    private readonly session: () => ClassExamSession | null,
    /** Brings a lecture chapter into view (the report's review links). */
    private readonly showChapter: (chapter: number) => boolean,
  ) {
    this.profile.addEventListener('toggle', () => {
      if (this.profile.open) void this.loadProfile();
    });
  }

  close(): void {
    this.run += 1;
    clearTimeout(this.timer);
    this.sheet?.close();
    this.sheet = null;
    this.form?.stop();
    this.form = null;
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  /**
   * A notice from the server (`/tutor`): `exam:closed` — the exam ended (시험 종료 or its deadline): an open sheet
   * locks at once and turns to the result, a student waiting for the end sees it; `exam:result` — this student's
   * result is there or changed (graded, an override, a regrade): it is read again where it shows.
   */
  notice(name: 'exam:closed' | 'exam:result', examId: string): void {
    const view = this.view;
    if (view.kind === 'list') {
      void this.list();
      return;
    }
    if (view.kind === 'other' || view.examId !== examId) return;
    if (view.kind === 'sheet') {
      if (name === 'exam:closed') this.sheet?.ended();
      return;
    }
    void this.showResult(examId, view.kind === 'result');
  }

  /** Enters the panel: the exam this tab was taking, else the list. */
  async load(): Promise<void> {
    if (!this.session()) return this.close();
    const open = sessionStorage.getItem(OPEN_KEY);
    if (open) await this.openExam(open);
    else await this.list();
  }

  private token = () => this.session()?.token ?? null;

  private frame(title: string, ...children: Node[]): void {
    const head = element('div', { className: 'self-quiz-head class-math-head' }, element('h2', { text: title }));
    this.body.replaceChildren(...children);
    this.profile.replaceChildren(element('summary', { text: '나의 학습 프로필' }), element('p', { className: 'muted', text: '여는 중…' }));
    this.profile.open = false;
    this.root.replaceChildren(head, this.body, this.profile);
    this.root.hidden = false;
  }

  private failure(error: unknown): HTMLElement {
    return element('p', { className: 'error', role: 'alert', 'data-testid': 'exam-error', text: requestFailure(error) });
  }

  /** The class's exams and the student's own self-study ones, with 혼자 시험 보기 (looked at again later). */
  async list(): Promise<void> {
    const run = this.begin();
    const token = this.token();
    if (!token) return;
    if (document.hidden && !this.root.hidden) {
      // A tab in the background asks again later (a class of phones polling for nothing costs the server).
      this.timer = setTimeout(() => void this.list(), LIST_REFRESH_MS);
      return;
    }
    try {
      const reply = await classExams(token);
      if (run !== this.run) return;
      const refresh = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-refresh', text: '새로 고침' });
      refresh.addEventListener('click', () => void this.list());
      const own = element('button', { type: 'button', 'data-testid': 'self-exam-open', text: '혼자 시험 보기' });
      own.addEventListener('click', () => this.selfExam());
      const listed =
        reply.exams.length === 0
          ? element('p', { className: 'muted', 'data-testid': 'exam-none', text: '아직 시험이 없어요. 혼자 시험 보기로 나만의 시험을 만들 수 있어요.' })
          : element('ul', { className: 'exam-list', 'data-testid': 'exam-list' }, ...reply.exams.map((exam) => this.listing(exam, reply.serverNow)));
      this.frame('시험', listed, element('div', { className: 'exam-actions' }, own, refresh));
      this.view = { kind: 'list' };
    } catch (error) {
      if (run !== this.run) return;
      this.frame('시험', this.failure(error));
    }
    this.timer = setTimeout(() => void this.list(), LIST_REFRESH_MS);
  }

  private listing(exam: ClassExamListing, serverNow: number): HTMLLIElement {
    const minutes = Math.max(0, Math.ceil((exam.deadline - serverNow) / 60_000));
    const open = element('button', { type: 'button', 'data-testid': 'exam-open', text: exam.state === 'open' ? '시험 보기' : '결과 보기' });
    open.addEventListener('click', () => void (exam.state === 'open' ? this.openExam(exam.examId) : this.awaitResult(exam.examId)));
    // A self-study exam has no time limit: its state is 응시 중 until the student submits, then 제출함 (result ready).
    const time = exam.selfStudy ? ' · 혼자 보는 시험(시간 제한 없음)' : exam.state === 'open' ? ` · 약 ${minutes}분 남음` : '';
    return element(
      'li',
      { className: 'exam-listing', 'data-testid': 'exam-listing', 'data-state': exam.state, 'data-self-study': String(exam.selfStudy) },
      element('div', {}, element('strong', { text: bareExamTitle(exam.title) }), element('p', { className: 'muted', text: `${exam.count}문항 · ${STATE_LABELS[exam.state]}${time}` })),
      open,
    );
  }

  private begin(): number {
    this.view = { kind: 'other' };
    clearTimeout(this.timer);
    this.sheet?.close();
    this.sheet = null;
    this.form?.stop();
    this.form = null;
    return ++this.run;
  }

  /** 혼자 시험 보기: the form, the job's progress, then the new exam on the sheet. */
  private selfExam(): void {
    this.begin();
    const session = this.session();
    if (!session) return;
    this.form = new SelfExamForm({
      token: this.token,
      chapters: () => this.session()?.chapters ?? [],
      ready: (examId) => void this.openExam(examId),
      back: () => void this.list(),
    });
    this.frame('혼자 시험 보기', this.form.node);
  }

  private async openExam(examId: string): Promise<void> {
    const run = this.begin();
    const session = this.session();
    if (!session) return;
    try {
      const exam = await classExam(session.token, examId);
      if (run !== this.run) return;
      if (exam.submittedAll || exam.deadline <= exam.serverNow) {
        sessionStorage.removeItem(OPEN_KEY);
        await this.awaitResult(examId);
        return;
      }
      sessionStorage.setItem(OPEN_KEY, examId);
      this.sheet = new ExamSheet(exam, {
        token: this.token,
        barSlot: this.barSlot,
        storageKey: (id) => `lectern.exam.drafts.${session.sessionId}.${id}`,
        finished: (id) => {
          sessionStorage.removeItem(OPEN_KEY);
          void this.awaitResult(id);
        },
        back: () => {
          sessionStorage.removeItem(OPEN_KEY);
          void this.list();
        },
      });
      this.frame('시험', this.sheet.node);
      this.view = { kind: 'sheet', examId };
    } catch (error) {
      if (run !== this.run) return;
      sessionStorage.removeItem(OPEN_KEY);
      this.frame('시험', this.failure(error));
    }
  }

  /**
   * Results are revealed when the exam ends (its deadline, or the instructor's 시험 종료), not at a student's own
   * submission: until then the class's exam list (which carries the deadline and the server's time) is read again.
   */
  private async awaitResult(examId: string): Promise<void> {
    const run = this.begin();
    const token = this.token();
    if (!token) return;
    try {
      const reply = await classExams(token);
      if (run !== this.run) return;
      const exam = reply.exams.find((entry) => entry.examId === examId);
      if (!exam) return void (await this.list());
      // A self-study exam's result is the student's as soon as they submitted everything.
      if (exam.selfStudy || exam.deadline <= reply.serverNow) return void (await this.showResult(examId));
      const back = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-back', text: '목록으로' });
      back.addEventListener('click', () => void this.list());
      const endsAt = timeOfDay(exam.deadline - reply.serverNow + Date.now());
      this.frame(
        '시험 결과',
        element(
          'p',
          { className: 'exam-waiting', role: 'status', 'data-testid': 'exam-waiting' },
          `${exam.title}: 답안을 모두 제출했어요. 결과는 시험이 끝나면(${endsAt}, 선생님이 일찍 끝내면 그때) 여기에 나옵니다.`,
        ),
        back,
      );
      this.view = { kind: 'waiting', examId };
    } catch (error) {
      if (run !== this.run) return;
      this.frame('시험 결과', this.failure(error));
    }
    this.timer = setTimeout(() => void this.awaitResult(examId), WAIT_REFRESH_MS);
  }

  private async showResult(examId: string, again = false): Promise<void> {
    const run = this.begin();
    const token = this.token();
    if (!token) return;
    const back = element('button', { type: 'button', className: 'secondary', 'data-testid': 'exam-back', text: '목록으로' });
    back.addEventListener('click', () => void this.list());
    try {
      const result = await classExamResult(token, examId);
      if (run !== this.run) return;
      const view = resultView(examId, result, { token: this.token, showChapter: this.showChapter });
      // Read again while grading is pending: the view is replaced in place, the rest of the panel stays.
      const shown = again ? this.body.querySelector('[data-testid=exam-result]') : null;
      if (shown) shown.replaceWith(view);
      else this.frame('시험 결과', view, back);
      this.view = { kind: 'result', examId };
      if (view.dataset.status === 'pending') this.timer = setTimeout(() => void this.showResult(examId, true), PENDING_REFRESH_MS);
    } catch (error) {
      if (run !== this.run) return;
      this.frame('시험 결과', this.failure(error), back);
      this.view = { kind: 'result', examId };
      // Not ready yet (the deadline being processed, the connection away): look again; a refusal stays shown.
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 0 || status === 409 || status >= 500) this.timer = setTimeout(() => void this.showResult(examId), PENDING_REFRESH_MS);
    }
  }

  private async loadProfile(): Promise<void> {
    const token = this.token();
    if (!token) return;
    try {
      const { profile } = await myProfile(token);
      this.profile.replaceChildren(element('summary', { text: '나의 학습 프로필' }), learnerProfileView(profile));
    } catch (error) {
      this.profile.replaceChildren(element('summary', { text: '나의 학습 프로필' }), this.failure(error));
    }
  }
}
