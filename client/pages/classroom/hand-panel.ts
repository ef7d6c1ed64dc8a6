// The raise-hand dialogue (seed 003, 번외 1–4) as the student sees it: a side panel (a bottom sheet on phones) with the
// assistant's prompt, the question box, the streamed answer / explanations / summary, the "did you understand?"
// checks with a reply box, and a closing line. The lecture waits meanwhile. When the student closes the finished
// panel (or raises a hand again) the dialogue moves into the lecture as a folded record at the place it happened —
// exactly where a `session:state` snapshot puts the same items, so a reload looks the same.
// Server text reaches the DOM as textContent only (replies go through the lecture view's sanitized markdown).
import type { PublicPhase, TranscriptItem, TutorServerEvents } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy, wireTextForm } from '../../ui/forms.js';
import { MAX_ANSWER_LENGTH, type Outcome } from './answer-form.js';
import { checkCard, replyForm, type Check } from './hand-check.js';
import type { HandPort, LectureView } from './lecture-view.js';

type ClosingKind = TutorServerEvents['hand:closed']['kind'];

const CLOSING: Record<ClosingKind, string> = {
  specific: '질문에 답했어요. 강의를 이어서 진행합니다.',
  vague: '설명과 정리를 모두 마쳤어요. 강의를 이어서 진행합니다.',
  cancelled: '손을 내렸어요. 강의를 이어서 진행합니다.',
};
/** The example the box shows before the material's terms are known: about no subject in particular. */
const GENERAL_EXAMPLE = '예: 방금 나온 용어를 조금 더 쉽게 설명해 주세요.';

type PanelState = 'raising' | 'ask' | 'working' | 'reply' | 'closed' | 'error';
const STATUS: Record<PanelState, string> = {
  raising: '도우미를 부르는 중…',
  ask: '궁금한 내용을 적어 주세요',
  working: '도우미가 답을 준비하는 중…',
  reply: '이해했는지 알려 주세요',
  closed: '질문이 끝났어요',
  error: '문제가 생겼어요',
};

interface Dialogue {
  log: HTMLElement;
  record: HTMLElement;
  question: string | null;
  closed: boolean;
  kind: ClosingKind | null;
  lastAssistant: HTMLElement | null;
}

function recordTitle({ question, kind }: Dialogue): string {
  const title = question ? `손 들고 한 질문: ${question}` : '손 들고 한 질문';
  return kind === 'cancelled' ? `${title} (손 내림)` : title;
}

export interface HandPanelOptions {
  view: LectureView;
  onAsk(text: string): Promise<Outcome>;
  onReply(text: string): Promise<Outcome>;
  onLower(): Promise<Outcome>;
  onRetry(): Promise<Outcome>;
  /** The student closed the finished panel. */
  onDismiss(): void;
}

const BUBBLE_LABEL = { assistant: '도우미', student: '나', instructor: '선생님' } as const;

export class HandPanel implements HandPort {
  private readonly view: LectureView;
  private readonly panel = $('hand-panel');
  private readonly status = $('hand-status');
  private readonly toggle = $<HTMLButtonElement>('hand-toggle');
  private readonly body = $('hand-body');
  private readonly ack = $('hand-ack');
  private readonly logRoot = $('hand-log');
  private readonly working = $('hand-working');
  private readonly form = $<HTMLFormElement>('hand-form');
  private readonly input = $<HTMLTextAreaElement>('hand-input');
  private readonly counter = $('hand-counter');
  private readonly send = $<HTMLButtonElement>('hand-send');
  private readonly error = $('hand-error');
  private readonly retry = $<HTMLButtonElement>('hand-retry');
  private readonly lower = $<HTMLButtonElement>('hand-lower');
  private readonly close = $<HTMLButtonElement>('hand-close');
  /** The dialogue shown, or null. */
  private dialogue: Dialogue | null = null;
  private state: PanelState = 'closed';
  private replyDraft = '';
  private restoring = false;

  constructor(private readonly options: HandPanelOptions) {
    this.view = options.view;
    this.wire();
  }

  /** A dialogue is under way (not finished). */
  get active(): boolean {
    return this.dialogue !== null && !this.dialogue.closed;
  }

  private wire(): void {
    wireTextForm(this.form, this.input, this.error, '궁금한 내용을 적어 주세요.', {
      typed: () => {
        this.counter.textContent = `${this.input.value.length}/${MAX_ANSWER_LENGTH}`;
      },
      send: async (text) => {
        this.send.disabled = true;
        this.input.readOnly = true;
        this.send.textContent = '보내는 중…';
        const result = await this.safely(() => this.options.onAsk(text));
        this.send.disabled = false;
        this.input.readOnly = false;
        this.send.textContent = '질문 보내기';
        if (!result.ok) {
          this.error.textContent = result.message ?? '질문을 보내지 못했습니다.';
          return;
        }
        this.input.value = '';
        this.counter.textContent = `0/${MAX_ANSWER_LENGTH}`;
        // The echo (hand:asked) puts the question in the log; until then the assistant is at work.
        if (this.state === 'ask') this.setState('working');
      },
    });
    this.lower.addEventListener('click', async () => {
      const result = await whileBusy(this.lower, null, () => this.safely(() => this.options.onLower()));
      if (!result.ok) this.error.textContent = result.message ?? '손을 내리지 못했습니다.';
    });
    this.close.addEventListener('click', () => {
      this.dismiss();
      this.options.onDismiss();
    });
    this.retry.addEventListener('click', async () => {
      const result = await whileBusy(this.retry, null, () => this.safely(() => this.options.onRetry()));
      if (result.ok) {
        this.retry.hidden = true;
        this.error.textContent = '';
        if (this.state === 'error') this.setState('working');
      } else {
        this.error.textContent = result.message ?? '다시 시도하지 못했습니다.';
      }
    });
    this.toggle.addEventListener('click', () => this.setCollapsed(this.panel.dataset.collapsed !== 'true'));
  }

  private async safely(run: () => Promise<Outcome>): Promise<Outcome> {
    try {
      return await run();
    } catch {
      return { ok: false, message: '요청을 처리하지 못했습니다. 다시 시도해 주세요.' };
    }
  }

  // ---- the panel ---------------------------------------------------------------------------------------------------

  private show(): void {
    if (this.restoring) return;
    const wasHidden = this.panel.hidden;
    this.panel.hidden = false;
    document.body.classList.add('hand-open');
    if (wasHidden) this.setCollapsed(false);
  }

  private hide(): void {
    this.panel.hidden = true;
    document.body.classList.remove('hand-open');
  }

  private setCollapsed(collapsed: boolean): void {
    this.panel.dataset.collapsed = String(collapsed);
    this.body.hidden = collapsed;
    this.toggle.textContent = collapsed ? '펼치기' : '접기';
    this.toggle.setAttribute('aria-expanded', String(!collapsed));
  }

  private setState(state: PanelState): void {
    this.state = state;
    this.panel.dataset.state = state;
    this.status.textContent = STATUS[state] ?? '';
    this.status.dataset.state = state;
    this.form.hidden = state !== 'ask';
    this.working.hidden = !(state === 'working' || state === 'raising');
    this.working.textContent = state === 'raising' ? '도우미를 부르는 중…' : '도우미가 생각하는 중…';
    this.lower.hidden = state === 'closed';
    this.close.hidden = state !== 'closed';
    if (state !== 'error') this.retry.hidden = true;
    if (state === 'ask' && !this.restoring) {
      this.input.focus({ preventScroll: true });
      // The form appears below what was just scrolled to: bring it (and its 질문 보내기) wholly into view above the foot.
      this.scrollToEnd();
    }
    if (state === 'closed' && !this.restoring) this.close.focus({ preventScroll: true });
  }

  /** The question box's example (a term of the material); null: the general one the page came with. */
  setExample(text: string | null): void {
    this.input.placeholder = text ?? GENERAL_EXAMPLE;
  }

  nearBottom(): boolean {
    if (this.panel.hidden) return false;
    const { scrollTop, scrollHeight, clientHeight } = this.body;
    return scrollHeight - (scrollTop + clientHeight) < 120;
  }

  scrollToEnd(): void {
    this.body.scrollTop = this.body.scrollHeight;
  }

  // ---- dialogues -----------------------------------------------------------------------------------------------------

  /** The dialogue under way, or a new one whose record sits where the lecture is now (`chapter`: in snapshots). */
  private open(chapter?: number): Dialogue {
    if (this.dialogue && !this.dialogue.closed) return this.dialogue;
    this.archive();
    const log = element('div', { className: 'hand-dialogue' });
    const record = element(
      'div',
      { className: 'hand-record hand-record-live', 'data-testid': 'hand-record', 'data-state': 'open' },
      element('span', { className: 'hand-record-icon', 'aria-hidden': 'true' }),
      element('span', { text: '여기서 손을 들었어요. 질문 대화가 진행 중입니다.' }),
    );
    this.view.currentBody(chapter).append(record);
    this.dialogue = { log, record, question: null, closed: false, kind: null, lastAssistant: null };
    this.logRoot.replaceChildren(log);
    this.ack.hidden = true;
    this.error.textContent = '';
    this.show();
    return this.dialogue;
  }

  /** Moves a finished dialogue out of the panel into its folded record in the lecture. */
  private archive(): void {
    const dialogue = this.dialogue;
    if (!dialogue || !dialogue.closed) return;
    this.view.flush();
    const summary = element(
      'summary',
      {},
      element('span', { className: 'hand-record-icon', 'aria-hidden': 'true' }),
      element('span', { className: 'hand-record-title', text: recordTitle(dialogue) }),
    );
    const details = element('details', { className: 'hand-record', 'data-testid': 'hand-record', 'data-state': 'closed', 'data-kind': dialogue.kind ?? '' }, summary, dialogue.log);
    dialogue.record.replaceWith(details);
    this.dialogue = null;
    this.logRoot.replaceChildren();
  }

  /** The student closed the finished panel. */
  private dismiss(): void {
    this.archive();
    this.hide();
    this.setState('closed');
  }

  private append<T extends HTMLElement>(node: T): T {
    const { log } = this.open();
    log.append(node);
    if (!this.restoring) this.scrollToEnd();
    return node;
  }

  private bubble(who: 'assistant' | 'student' | 'instructor', text: string): HTMLElement {
    // Text nodes only (element's `text`): the instructor's and the student's words are never parsed as HTML.
    return element(
      'div',
      { className: `hand-msg hand-${who}`, 'data-testid': `hand-${who}` },
      element('span', { className: 'hand-msg-label', text: BUBBLE_LABEL[who] }),
      element('p', { text }),
    );
  }

  /**
   * The instructor answered the hand directly (`hand:instructor-reply`, or an `instructor` transcript item). Inside
   * the open dialogue it is one more message; when the dialogue already ended it stands in the lecture where it
   * arrived, so it never opens a dialogue the student did not start.
   */
  instructorSays(text: string, chapter?: number): HTMLElement {
    const bubble = this.bubble('instructor', text);
    if (this.dialogue && !this.dialogue.closed) return this.append(bubble);
    this.view.currentBody(chapter).append(bubble);
    return bubble;
  }

  private assistantSays(text: string): HTMLElement {
    const node = this.append(this.bubble('assistant', text));
    this.open().lastAssistant = node;
    return node;
  }

  private studentSays(text: string): HTMLElement {
    const dialogue = this.open();
    if (dialogue.question === null) dialogue.question = text;
    return this.append(this.bubble('student', text));
  }

  // ---- live events -----------------------------------------------------------------------------------------------

  /** The hand went up (this tab's command was accepted); the prompt follows. */
  raised(): void {
    if (this.active) return;
    this.open();
    this.setState('raising');
  }

  /** The assistant asks for the question; with `choices` (the question named nothing) it offers concepts to pick. */
  prompt({ text, choices }: { text: string; choices?: string[] }): void {
    this.open();
    const node = this.assistantSays(text);
    if (choices !== undefined && choices.length > 0) node.append(this.choiceButtons(choices));
    this.setState('ask');
  }

  /** One button per concept: a click sends it as the question, as if typed. */
  private choiceButtons(choices: readonly string[]): HTMLElement {
    const buttons = choices.map((choice) => element('button', { type: 'button', className: 'hand-choice', 'data-testid': 'hand-choice', text: choice }));
    const group = element('div', { className: 'hand-choices', role: 'group', 'aria-label': '궁금한 부분 고르기' }, ...buttons);
    for (const button of buttons) {
      button.addEventListener('click', async () => {
        if (this.state !== 'ask') return;
        for (const other of buttons) other.disabled = true;
        const result = await this.safely(() => this.options.onAsk(button.textContent ?? ''));
        if (!result.ok) {
          for (const other of buttons) other.disabled = false;
          this.error.textContent = result.message ?? '질문을 보내지 못했습니다.';
          return;
        }
        if (this.state === 'ask') this.setState('working');
      });
    }
    return group;
  }

  asked({ text }: { text: string }): void {
    this.studentSays(text);
    this.setState('working');
  }

  /** Where a dialogue reply (answer, explain, summary) streams. */
  replyContainer(chapter?: number): HTMLElement {
    const { log } = this.open(chapter);
    this.settleCheck();
    if (!this.restoring) this.setState('working');
    return log;
  }

  check(payload: Check): void {
    this.settleCheck();
    this.append(this.checkCard(payload, true));
    this.setState('reply');
    if (!this.restoring) this.focusReply();
  }

  closed({ kind }: { kind: ClosingKind }): void {
    const dialogue = this.open();
    this.settleCheck();
    this.view.flush();
    this.append(element('p', { className: 'hand-closed', 'data-testid': 'hand-closed', 'data-kind': kind, role: 'status', text: CLOSING[kind] ?? CLOSING.cancelled }));
    dialogue.closed = true;
    dialogue.kind = kind;
    dialogue.record.dataset.state = 'done';
    const line = dialogue.record.lastElementChild;
    if (line) line.textContent = '여기서 손을 들었어요. 대화는 질문 패널에서 볼 수 있어요.';
    this.setState('closed');
  }

  /** `hand:acknowledged`: true when the panel showed it. */
  acknowledged(): boolean {
    if (!this.active) return false;
    this.ack.hidden = false;
    return true;
  }

  /** A `session:error` while the dialogue runs: it waits; retrying asks the session to carry on. */
  failed(message: string): void {
    this.open();
    this.error.textContent = message;
    this.setState('error');
    this.retry.hidden = false;
  }

  // ---- checks ------------------------------------------------------------------------------------------------------

  /** A check as a card; a pending one carries the reply box. */
  private checkCard(check: Check, pending: boolean): HTMLElement {
    const card = checkCard(check, pending);
    if (pending) {
      card.append(
        replyForm({
          draft: this.replyDraft,
          onDraft: (text) => {
            this.replyDraft = text;
          },
          send: (text) => this.safely(() => this.options.onReply(text)),
          sent: (text) => {
            this.replyDraft = '';
            this.settleCheck(card, text);
            if (this.state === 'reply') this.setState('working');
          },
        }),
      );
    }
    return card;
  }

  private focusReply(): void {
    this.dialogue?.log.querySelector<HTMLTextAreaElement>('.hand-check[data-state=pending] textarea')?.focus({ preventScroll: true });
  }

  /** Closes the pending check (answered here, in another tab, or passed by the next step); `text`: the reply sent here. */
  private settleCheck(card = this.dialogue?.log.querySelector<HTMLElement>('.hand-check[data-state=pending]'), text?: string): void {
    if (!card || card.dataset.state !== 'pending') return;
    card.querySelector('form')?.remove();
    card.dataset.state = 'answered';
    if (text !== undefined) card.after(this.bubble('student', text));
  }

  /** Forgets everything (the student left the session). */
  reset(): void {
    this.dialogue = null;
    this.restoring = false;
    this.replyDraft = '';
    this.logRoot.replaceChildren();
    this.input.value = '';
    this.error.textContent = '';
    this.ack.hidden = true;
    this.hide();
    this.setState('closed');
  }

  // ---- snapshots ---------------------------------------------------------------------------------------------------

  /** A snapshot rebuilds the lecture (records included): start from an empty panel. */
  beginSnapshot(): void {
    this.restoring = true;
    this.dialogue = null;
    this.logRoot.replaceChildren();
    this.ack.hidden = true;
  }

  restore(item: Extract<TranscriptItem, { type: 'assistant' | 'student' | 'hand-closed' | 'instructor' }>, chapter: number): void {
    switch (item.type) {
      case 'instructor':
        this.instructorSays(item.text, chapter);
        break;
      case 'assistant':
        this.open(chapter);
        this.assistantSays(item.text);
        break;
      case 'student':
        this.open(chapter);
        this.studentSays(item.text);
        break;
      case 'hand-closed':
        this.open(chapter);
        this.closed(item);
        this.archive();
        break;
    }
  }

  endSnapshot(phase: PublicPhase): void {
    if (phase.kind === 'hand-raised') {
      const dialogue = this.open(phase.chapter);
      if (phase.waiting === 'reply' && phase.check) {
        // The pending check is the last thing the assistant said: show it as a card with the reply box.
        const last = dialogue.lastAssistant;
        const card = this.checkCard(phase.check, true);
        if (last && last.isConnected && last.querySelector('p')?.textContent === phase.check.text) last.replaceWith(card);
        else dialogue.log.append(card);
      }
      // A which-part prompt waits: its choices go back under it (the transcript keeps only its text).
      if (phase.waiting === 'ask' && phase.choices !== undefined && phase.choices.length > 0) {
        (dialogue.lastAssistant ?? dialogue.log).append(this.choiceButtons(phase.choices));
      }
      this.restoring = false;
      this.show();
      this.setState(phase.waiting === 'ask' ? 'ask' : phase.waiting === 'reply' ? 'reply' : 'working');
      if (phase.waiting === 'reply') this.focusReply();
      this.scrollToEnd();
      return;
    }
    if (this.dialogue) {
      // Items of a dialogue the transcript never closed: keep them as a record.
      this.dialogue.closed = true;
      this.archive();
    }
    this.restoring = false;
    this.hide();
    this.setState('closed');
  }
}
