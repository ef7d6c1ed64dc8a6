// The monitor's live class: the roster grid (one card per student) and the raised-hands queue with its "확인"
// buttons. Cards and queue items are kept, not rebuilt, so a focused button keeps its focus. Nicknames and questions
// are untrusted: textContent only.
import type { HandKind, RosterEntry } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';

const STRUGGLING_STREAK = 2;
const STATE_LABELS: Record<string, string> = {
  idle: '시작 전',
  streaming: '강의 듣는 중',
  paused: '일시정지',
  'awaiting-answer': '질문에 답하는 중',
  tutoring: '피드백 받는 중',
  remediation: '보충 학습 중',
  'hand-raised': '손 들고 질문 중',
  finished: '수업 완료',
};
const VERDICT_LABELS = { good: '최근 답: 잘했어요', bad: '최근 답: 다시 살펴봐요' } as const;
const RESOLVED_LABELS: Record<HandKind | 'cancelled', string> = { specific: '답변을 받음', vague: '설명과 정리를 받음', cancelled: '손을 내림' };

/** A student as the page knows them: the roster entry plus what only live events tell. */
export type Student = RosterEntry & {
  remediation: { concept: string; index: number; total: number } | null;
  resolved?: { kind: HandKind | 'cancelled'; at: number; question: string | null };
};

type CardParts = Record<'dot' | 'name' | 'hand' | 'fill' | 'bar' | 'progress' | 'state' | 'verdict' | 'struggling' | 'remediation' | 'selfQuiz', HTMLElement>;
type QueueParts = {
  name: HTMLElement;
  time: HTMLElement;
  question: HTMLElement;
  button: HTMLButtonElement;
  acked: HTMLElement;
  answered: HTMLElement;
  replied: HTMLElement;
};

const roster = $('roster');
const rosterEmpty = $('roster-empty');
const rosterSummary = $('roster-summary');
const queue = $('hand-queue');
const queueEmpty = $('queue-empty');
const queueCount = $('queue-count');
const handLog = $('hand-log');
const handLogEmpty = $('hand-log-empty');
/** How many answered questions the log keeps (newest first). */
const HAND_LOG_SIZE = 20;

/** A time of day with seconds, as the queue and the announcement log show it. */
export const clock = (at: number) => new Date(at).toLocaleTimeString('ko-KR', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function elapsed(at: number): string {
  const seconds = Math.max(0, Math.round((Date.now() - at) / 1000));
  if (seconds < 60) return '방금';
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}분째` : `${Math.floor(minutes / 60)}시간째`;
}

/** What the instructor can do from the roster; each resolves with the words for a refusal, or null. */
export interface RosterActions {
  /** "확인": the raised hand was seen. */
  acknowledge(sessionId: string): Promise<string | null>;
  /** "답하기": a direct reply to the raised hand, shown in the student's dialogue. */
  reply(sessionId: string, text: string): Promise<string | null>;
  /** "기록 보기": the student's transcript. */
  open(sessionId: string, nickname: string): void;
  /** "학습 프로필": the student's learner profile and learning goal. */
  profile(sessionId: string, nickname: string): void;
}

export class Roster {
  private readonly students = new Map<string, Student>();
  private readonly cards = new Map<string, { node: HTMLElement; parts: CardParts }>();
  private readonly handItems = new Map<string, { node: HTMLElement; parts: QueueParts }>();
  /** chapter index -> { number, title } of the class's material */
  private chapters = new Map<number, { number: number; title: string }>();

  constructor(private readonly actions: RosterActions) {}

  get(sessionId: string): Student | undefined {
    return this.students.get(sessionId);
  }

  reset(): void {
    this.students.clear();
    this.cards.clear();
    this.handItems.clear();
    roster.replaceChildren();
    queue.replaceChildren();
    handLog.replaceChildren();
    handLogEmpty.hidden = false;
    this.refreshCounts();
  }

  setChapters(chapters: Map<number, { number: number; title: string }>): void {
    this.chapters = chapters;
    for (const [sessionId, entry] of this.students) this.updateCard(sessionId, entry);
  }

  /** A fresh roster (first connect and every reconnect): it replaces everything shown. */
  replace(entries: RosterEntry[]): void {
    const seen = new Set(entries.map((entry) => entry.sessionId));
    for (const sessionId of [...this.students.keys()]) {
      if (seen.has(sessionId)) continue;
      this.students.delete(sessionId);
      this.cards.get(sessionId)?.node.remove();
      this.cards.delete(sessionId);
    }
    for (const entry of entries) this.upsert(entry, false);
    // The server's order is join order.
    for (const entry of entries) {
      const card = this.cards.get(entry.sessionId);
      if (card) roster.append(card.node);
    }
    this.renderQueue();
    this.refreshCounts();
  }

  upsert(entry: RosterEntry & Partial<Student>, render = true): void {
    const previous = this.students.get(entry.sessionId);
    const next: Student = { remediation: null, ...previous, ...entry };
    this.students.set(entry.sessionId, next);
    if (!this.cards.has(entry.sessionId)) {
      const card = studentCard(entry.sessionId, this.actions);
      this.cards.set(entry.sessionId, card);
      roster.append(card.node);
    }
    this.updateCard(entry.sessionId, next);
    if (render) {
      this.renderQueue();
      this.refreshCounts();
    }
  }

  patch(sessionId: string, changes: Partial<Student>): void {
    const entry = this.students.get(sessionId);
    // An event for a student this page has not seen yet (it raced the roster): the next roster brings them.
    if (!entry) return;
    this.upsert({ ...entry, ...changes });
  }

  /** An instructor (this tab or another) replied to the hand: the reply shows under its question. */
  answered(sessionId: string, text: string, at: number): void {
    const hand = this.students.get(sessionId)?.hand;
    if (hand) this.patch(sessionId, { hand: { ...hand, answered: true } });
    this.handItems.get(sessionId)?.parts.replied.append(
      element('p', { className: 'hand-replied', 'data-testid': 'hand-replied' }, element('time', { className: 'muted', text: `${clock(at)} 보낸 답 ` }), text),
    );
  }

  /**
   * A hand the AI assistant answered (`hand:resolved` specific or vague): it leaves the queue but stays in "AI 조교가
   * 답한 질문" with the student's question, so the instructor sees what the class asks even when the assistant was
   * quicker than any look at the queue.
   */
  assistantAnswered(sessionId: string, question: string, kind: HandKind, at: number): void {
    const nickname = this.students.get(sessionId)?.nickname ?? '학생';
    const item = element(
      'li',
      { className: 'hand-log-item', 'data-testid': 'hand-log-item', 'data-kind': kind },
      element(
        'div',
        { className: 'hand-item-head' },
        element('strong', { 'data-testid': 'hand-log-name', text: nickname }),
        element('span', { className: 'muted', text: clock(at) }),
        element('span', { className: 'badge good', 'data-testid': 'hand-log-by', text: kind === 'vague' ? 'AI 조교가 설명함' : 'AI 조교가 답함' }),
      ),
      element('p', { 'data-testid': 'hand-log-question', text: question }),
    );
    handLog.prepend(item);
    while (handLog.children.length > HAND_LOG_SIZE) handLog.lastElementChild?.remove();
    handLogEmpty.hidden = true;
  }

  /** The elapsed times of the raised hands, refreshed now and then. */
  refreshElapsed(): void {
    for (const [sessionId, item] of this.handItems) {
      const hand = this.students.get(sessionId)?.hand;
      if (hand) item.parts.time.textContent = `${clock(hand.raisedAt)} · ${elapsed(hand.raisedAt)}`;
    }
  }

  private progressText(entry: Student): string {
    if (entry.state === 'finished') return '모든 챕터 완료 · 100%';
    if (entry.chapter < 0) return '시작 전 · 0%';
    const chapter = this.chapters.get(entry.chapter);
    const label = chapter ? `${chapter.number}/${this.chapters.size}장 ${chapter.title}` : `${entry.chapter + 1}장`;
    return `${label} · ${entry.percent}%`;
  }

  private updateCard(sessionId: string, entry: Student): void {
    const card = this.cards.get(sessionId);
    if (!card) return;
    const { dot, name, hand, fill, bar, progress, state, verdict, struggling, remediation, selfQuiz } = card.parts;
    // 혼자 퀴즈 풀기: the student's self-study score, first answers only.
    selfQuiz.hidden = !entry.selfQuiz;
    selfQuiz.textContent = entry.selfQuiz ? `혼자 퀴즈 ${entry.selfQuiz.correct}/${entry.selfQuiz.answered} 정답` : '';
    const isStruggling = entry.badStreak >= STRUGGLING_STREAK;
    const node = card.node;
    node.dataset.connected = String(entry.connected);
    node.dataset.state = entry.state;
    node.dataset.chapter = String(entry.chapter);
    node.dataset.percent = String(entry.percent);
    node.dataset.struggling = String(isStruggling);
    node.dataset.hand = String(Boolean(entry.hand));
    dot.dataset.connected = String(entry.connected);
    dot.setAttribute('aria-label', entry.connected ? '접속 중' : '접속 끊김');
    dot.title = entry.connected ? '접속 중' : '접속 끊김';
    name.textContent = entry.nickname;
    hand.hidden = !entry.hand;
    fill.style.width = `${Math.max(0, Math.min(100, entry.percent))}%`;
    const text = this.progressText(entry);
    bar.setAttribute('aria-valuenow', String(entry.percent));
    bar.setAttribute('aria-valuetext', text);
    bar.setAttribute('aria-label', `${entry.nickname} 진행률`);
    progress.textContent = text;
    state.textContent = STATE_LABELS[entry.state] ?? entry.state;
    state.dataset.state = entry.state;
    verdict.hidden = !entry.lastVerdict;
    verdict.className = `badge ${entry.lastVerdict === 'good' ? 'good' : 'bad'}`;
    verdict.dataset.verdict = entry.lastVerdict ?? '';
    verdict.textContent = entry.lastVerdict ? VERDICT_LABELS[entry.lastVerdict] : '';
    struggling.hidden = !isStruggling;
    struggling.title = isStruggling ? `연속으로 ${entry.badStreak}번 어려워했어요` : '';
    let note = '';
    if (entry.remediation && entry.state === 'remediation') note = `보충 학습: ${entry.remediation.concept} (${entry.remediation.index}/${entry.remediation.total})`;
    else if (entry.resolved && !entry.hand && Date.now() - entry.resolved.at < 5 * 60_000) note = `최근 질문: ${RESOLVED_LABELS[entry.resolved.kind] ?? '끝남'}`;
    remediation.textContent = note;
    remediation.hidden = !note;
  }

  private refreshCounts(): void {
    const all = [...this.students.values()];
    const online = all.filter((entry) => entry.connected).length;
    const raised = all.filter((entry) => entry.hand).length;
    const struggling = all.filter((entry) => entry.badStreak >= STRUGGLING_STREAK).length;
    rosterEmpty.hidden = all.length > 0;
    rosterSummary.textContent = all.length === 0 ? '' : `${all.length}명 · 접속 ${online}명 · 손 ${raised}명 · 도움 필요 ${struggling}명`;
  }

  /** The queue in arrival order; items are kept (not rebuilt) so a focused "확인" button keeps its focus. */
  private renderQueue(): void {
    const raised = [...this.students.values()]
      .flatMap((entry) => (entry.hand ? [{ entry, hand: entry.hand }] : []))
      .sort((left, right) => left.hand.raisedAt - right.hand.raisedAt);
    const wanted = new Set(raised.map(({ entry }) => entry.sessionId));
    for (const [sessionId, item] of this.handItems) {
      if (wanted.has(sessionId)) continue;
      item.node.remove();
      this.handItems.delete(sessionId);
    }
    raised.forEach(({ entry, hand }, position) => {
      let item = this.handItems.get(entry.sessionId);
      if (!item) {
        item = this.handItem(entry.sessionId);
        this.handItems.set(entry.sessionId, item);
      }
      const { name, time, question, button, acked, answered } = item.parts;
      item.node.dataset.acknowledged = String(hand.acknowledged);
      item.node.dataset.answered = String(hand.answered);
      answered.hidden = !hand.answered;
      item.node.dataset.raisedAt = String(hand.raisedAt);
      name.textContent = entry.nickname;
      time.textContent = `${clock(hand.raisedAt)} · ${elapsed(hand.raisedAt)}`;
      question.textContent = hand.question ?? '질문을 적는 중…';
      question.classList.toggle('muted', !hand.question);
      button.hidden = hand.acknowledged;
      button.setAttribute('aria-label', `${entry.nickname} 학생이 손 든 것 확인`);
      acked.hidden = !hand.acknowledged;
      if (queue.children[position] !== item.node) queue.insertBefore(item.node, queue.children[position] ?? null);
    });
    queueEmpty.hidden = raised.length > 0;
    queueCount.textContent = String(raised.length);
    queueCount.className = raised.length > 0 ? 'badge raised' : 'badge';
  }

  private handItem(sessionId: string): { node: HTMLElement; parts: QueueParts } {
    const name = element('strong', { 'data-testid': 'hand-name' });
    const time = element('span', { className: 'muted hand-time', 'data-testid': 'hand-time' });
    const question = element('p', { className: 'hand-question', 'data-testid': 'hand-question' });
    const button = element('button', { type: 'button', className: 'small', 'data-testid': 'hand-ack', text: '확인' });
    const acked = element('span', { className: 'badge good', 'data-testid': 'hand-acked', text: '확인함', hidden: true });
    const answered = element('span', { className: 'badge good', 'data-testid': 'hand-answered', text: '답함', hidden: true });
    const error = element('p', { className: 'error hand-error', role: 'alert' });
    const replied = element('div', { className: 'hand-replies', 'data-testid': 'hand-replies' });
    const input = element('textarea', { rows: 2, maxLength: 1000, placeholder: '학생에게 바로 답하기', 'data-testid': 'hand-answer-input', 'aria-label': '손 든 학생에게 보낼 답' });
    const send = element('button', { type: 'submit', className: 'small', 'data-testid': 'hand-answer-send', text: '답하기' });
    const form = element('form', { className: 'hand-reply', 'data-testid': 'hand-answer-form', noValidate: true }, input, send);
    const node = element(
      'li',
      { className: 'hand-item', 'data-testid': 'hand-item', 'data-session-id': sessionId },
      element('div', { className: 'hand-item-head' }, name, time, element('span', { className: 'hand-item-action' }, button, acked, answered)),
      question,
      replied,
      form,
      error,
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      const text = input.value.trim();
      if (!text) {
        error.textContent = '보낼 답을 적어 주세요.';
        input.focus();
        return;
      }
      const failure = await whileBusy(send, '보내는 중…', () => this.actions.reply(sessionId, text));
      if (failure === null) input.value = '';
      else error.textContent = failure;
    });
    button.addEventListener('click', async () => {
      error.textContent = '';
      const failure = await whileBusy(button, null, () => this.actions.acknowledge(sessionId));
      if (failure === null) {
        const hand = this.students.get(sessionId)?.hand;
        if (hand) this.patch(sessionId, { hand: { ...hand, acknowledged: true } });
      } else {
        error.textContent = failure;
      }
    });
    return { node, parts: { name, time, question, button, acked, answered, replied } };
  }
}

function studentCard(sessionId: string, actions: Pick<RosterActions, 'open' | 'profile'>): { node: HTMLElement; parts: CardParts } {
  const node = element('article', { className: 'student', role: 'listitem', 'data-testid': 'roster-entry', 'data-session-id': sessionId });
  const dot = element('span', { className: 'dot', role: 'img' });
  const name = element('strong', { className: 'student-name', 'data-testid': 'student-name' });
  const hand = element('span', { className: 'student-hand', 'data-testid': 'student-hand', text: '손 듦', hidden: true });
  const fill = element('span', { className: 'fill' });
  const bar = element('div', { className: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'data-testid': 'student-bar' }, fill);
  const progress = element('p', { className: 'student-progress', 'data-testid': 'student-progress' });
  const state = element('span', { className: 'badge state', 'data-testid': 'student-state' });
  const verdict = element('span', { className: 'badge', 'data-testid': 'student-verdict' });
  const struggling = element('span', { className: 'badge struggling', 'data-testid': 'struggling', text: '도움 필요' });
  const remediation = element('p', { className: 'student-note muted', 'data-testid': 'student-remediation' });
  const selfQuiz = element('span', { className: 'badge', 'data-testid': 'student-self-quiz', hidden: true });
  const open = element('button', { type: 'button', className: 'secondary small student-open', 'data-testid': 'student-open', text: '기록 보기' });
  open.addEventListener('click', () => actions.open(sessionId, name.textContent ?? ''));
  const profile = element('button', { type: 'button', className: 'secondary small student-open', 'data-testid': 'student-profile', text: '학습 프로필' });
  profile.addEventListener('click', () => actions.profile(sessionId, name.textContent ?? ''));
  node.append(
    element('div', { className: 'student-head' }, dot, name, hand),
    bar,
    progress,
    element('div', { className: 'student-badges' }, state, verdict, struggling, selfQuiz),
    remediation,
    element('div', { className: 'student-actions' }, open, profile),
  );
  return { node, parts: { dot, name, hand, fill, bar, progress, state, verdict, struggling, remediation, selfQuiz } };
}
