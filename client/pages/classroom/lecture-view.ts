// The lecture as the student sees it: one section per chapter, in which lecture text blocks (markdown) and the
// tutoring items (question cards with the answer and the verdict, replies) follow each other in the order they
// happened. Live events and `session:state` snapshots build exactly the same blocks, so a reload looks the same.
// Server text only ever reaches the DOM as textContent or as DOMPurify-sanitized markdown.
import type { PublicPhase, ReplyKind, ReplySource, SelfAssessment, SessionSnapshot, TranscriptItem, Verdict } from '../../../src/protocol/wire/index.js';
import { SELF_ASSESS_CHOICES } from '../../../src/protocol/wire/index.js';
import { HAND_REPLY_KINDS } from '../../../src/protocol/wire/index.js';
import { element } from '../../ui/dom.js';
import { renderMarkdownInto } from '../../ui/markdown.js';
import { withoutTitleHeading } from './title-heading.js';
import { answerForm, type Outcome } from './answer-form.js';
import { sourcesLine } from './reply-sources.js';

const REPLY_LABELS: Record<ReplyKind, string> = { supplement: '보충 설명', remedial: '다시 설명', answer: '답변', explain: '설명', summary: '정리 노트' };
const VERDICT_LABELS: Record<Verdict, string> = { good: '잘했어요', bad: '다시 살펴봐요' };

export interface MaterialOutline {
  id: string;
  title: string;
  chapters: { index: number; title: string }[];
}

/**
 * A markdown block: its source grows with deltas and is rendered at most once a frame. `chapterTitle` is set on a
 * chapter's first lecture text, whose own heading repeats the title the chapter head already shows.
 */
type MarkdownBlock = HTMLDivElement & { source: string; chapterTitle?: string };

interface ChapterEntry {
  index: number;
  title: string;
  section: HTMLElement;
  body: HTMLElement;
  complete: boolean;
}

/** The question the lecture waits on: `{questionId, parentQuestionId}`. */
export interface PendingQuestion {
  questionId: string;
  parentQuestionId?: string;
}

/** What the lecture view needs of the raise-hand panel (classroom/hand-panel.ts), which renders the dialogue items. */
export interface HandPort {
  readonly active: boolean;
  beginSnapshot(): void;
  restore(item: Extract<TranscriptItem, { type: 'assistant' | 'student' | 'hand-closed' | 'instructor' }>, chapter: number): void;
  endSnapshot(phase: PublicPhase): void;
  replyContainer(chapter?: number): HTMLElement;
  nearBottom(): boolean;
  scrollToEnd(): void;
}

interface CardItem {
  kind: 'question' | 'subquestion' | 'reask';
  questionId: string;
  parentQuestionId?: string;
  label: string;
  concept?: string;
  text: string;
}

function markdownBlock(attributes: Record<string, string>): MarkdownBlock {
  const block = element('div', attributes) as MarkdownBlock;
  block.source = '';
  return block;
}

export class LectureView {
  /** The raise-hand panel, which renders the dialogue items of snapshots. */
  hand: HandPort | null = null;
  private material: MaterialOutline | null = null;
  readonly chapters = new Map<number, ChapterEntry>();
  current: ChapterEntry | null = null;
  private readonly replies = new Map<string, MarkdownBlock>();
  private readonly cards = new Map<string, HTMLElement>();
  /** Answers being typed, kept across re-renders (a snapshot after a reconnect must not eat them). */
  private readonly drafts = new Map<string, string>();
  private readonly dirty = new Set<MarkdownBlock>();
  private frame = 0;
  private finished = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly handlers: {
      onAnswer(questionId: string, text: string): Promise<Outcome>;
      /** The student's comparison with the model answer after an unsure verdict. */
      onSelfAssess?(questionId: string, choice: SelfAssessment): Promise<Outcome>;
      /** A chapter became complete (live or in a snapshot): what goes at the end of its section (e.g. 혼자 퀴즈 풀기). */
      chapterFooter?(index: number, label: string): Node | null;
    },
  ) {}

  setMaterial(material: MaterialOutline): void {
    this.material = material;
  }

  clear(): void {
    this.root.replaceChildren();
    this.chapters.clear();
    this.replies.clear();
    this.cards.clear();
    this.dirty.clear();
    this.current = null;
    this.finished = false;
  }

  private chapterNumber(index: number): number {
    const position = this.material?.chapters.findIndex((chapter) => chapter.index === index) ?? -1;
    return position >= 0 ? position + 1 : index + 1;
  }

  // ---- chapters and lecture text ---------------------------------------------------------------------------------

  chapterStart(index: number, title?: string): ChapterEntry {
    let entry = this.chapters.get(index);
    if (!entry) {
      const label = title || this.material?.chapters.find((chapter) => chapter.index === index)?.title || '';
      const head = element(
        'header',
        { className: 'chapter-head' },
        element('span', { className: 'chapter-no', text: `${this.chapterNumber(index)}장` }),
        element('h2', { className: 'chapter-title', text: label }),
        element('span', { className: 'badge good chapter-done', text: '완료' }),
      );
      const body = element('div', { className: 'chapter-body' });
      const section = element('section', { className: 'chapter card', 'data-testid': 'chapter', 'data-chapter': String(index), 'data-state': 'live' }, head, body);
      this.root.append(section);
      entry = { index, title: label, section, body, complete: false };
      this.chapters.set(index, entry);
    }
    this.current = entry;
    return entry;
  }

  chapterEnd(index: number): void {
    const entry = this.chapters.get(index);
    if (!entry) return;
    if (!entry.complete) {
      const footer = this.handlers.chapterFooter?.(index, `${this.chapterNumber(index)}장`);
      if (footer) entry.section.append(element('div', { className: 'chapter-foot' }, footer));
    }
    entry.complete = true;
    entry.section.dataset.state = 'complete';
  }

  /** The section items without a chapter of their own go to: the chapter being taught. */
  currentBody(chapter?: number): HTMLElement {
    const entry = chapter === undefined ? this.current : (this.chapters.get(chapter) ?? this.chapterStart(chapter));
    return (entry ?? this.chapterStart(0)).body;
  }

  appendText(chapter: number, text: string): void {
    if (!text) return;
    const body = this.currentBody(chapter);
    let block = body.lastElementChild as MarkdownBlock | null;
    if (!block || !block.classList.contains('lecture-text')) {
      const first = body.querySelector('.lecture-text') === null;
      block = markdownBlock({ className: 'md lecture-text', 'data-testid': 'lecture-text' });
      const title = this.chapters.get(chapter)?.title;
      if (first && title) block.chapterTitle = title;
      body.append(block);
    }
    block.source += text;
    this.schedule(block);
  }

  // ---- questions ---------------------------------------------------------------------------------------------------

  question(payload: { questionId: string; chapter?: number; text: string }, { pending }: { pending: boolean }): HTMLElement {
    return this.addCard({ kind: 'question', questionId: payload.questionId, label: '이해도 질문', text: payload.text }, payload.chapter, pending);
  }

  subquestion(
    payload: { questionId: string; parentQuestionId: string; index: number; total: number; concept: string; text: string; chapter?: number },
    { pending }: { pending: boolean },
  ): HTMLElement {
    return this.addCard(
      {
        kind: 'subquestion',
        questionId: payload.questionId,
        parentQuestionId: payload.parentQuestionId,
        label: `개념 점검 ${payload.index}/${payload.total}`,
        concept: payload.concept,
        text: payload.text,
      },
      payload.chapter,
      pending,
    );
  }

  /** The parent question asked again after its subconcepts. */
  reask(payload: { questionId: string; parentQuestionId: string; text: string; chapter?: number }, { pending }: { pending: boolean }): HTMLElement {
    return this.addCard(
      { kind: 'reask', questionId: payload.questionId, parentQuestionId: payload.parentQuestionId, label: '처음 질문 다시', text: payload.text },
      payload.chapter,
      pending,
    );
  }

  private addCard(item: CardItem, chapter: number | undefined, pending: boolean): HTMLElement {
    const existing = this.cards.get(item.questionId);
    if (existing) return existing;
    const text = element('div', { className: 'md qcard-text' });
    renderMarkdownInto(text, item.text);
    const head = element(
      'div',
      { className: 'qcard-head' },
      element('span', { className: 'badge qcard-label', text: item.label }),
      item.concept ? element('span', { className: 'qcard-concept', text: item.concept }) : null,
    );
    const card = element(
      'article',
      {
        className: `qcard qcard-${item.kind}`,
        'data-testid': 'question-card',
        'data-kind': item.kind,
        'data-question-id': item.questionId,
        'data-parent-question-id': item.parentQuestionId,
        'data-state': pending ? 'pending' : 'closed',
        'aria-label': item.concept ? `${item.label}: ${item.concept}` : item.label,
      },
      head,
      text,
      element('div', { className: 'qcard-answer' }),
      element('div', { className: 'qcard-verdict' }),
    );
    if (pending) {
      const { questionId } = item;
      card.append(
        answerForm({
          draft: this.drafts.get(questionId) ?? '',
          onDraft: (text) => this.drafts.set(questionId, text),
          send: (text) => this.handlers.onAnswer(questionId, text),
          sent: (text) => {
            this.drafts.delete(questionId);
            this.answer({ questionId, text });
          },
        }),
      );
    }
    this.currentBody(chapter).append(card);
    this.cards.set(item.questionId, card);
    return card;
  }

  /** The question card still waiting for an answer, if any. */
  pendingQuestion(): PendingQuestion | null {
    const card = [...this.cards.values()].find((candidate) => candidate.dataset.state === 'pending');
    if (!card?.dataset.questionId) return null;
    const { questionId, parentQuestionId } = card.dataset;
    return parentQuestionId ? { questionId, parentQuestionId } : { questionId };
  }

  /** Focuses the answer box of a pending question (without jumping the page). */
  focusAnswer(questionId: string): void {
    this.cards.get(questionId)?.querySelector('textarea')?.focus({ preventScroll: true });
  }

  answer({ questionId, text }: { questionId: string; text: string }): void {
    const card = this.cards.get(questionId);
    if (!card) return;
    card.querySelector('.answer-form')?.remove();
    card.dataset.state = 'answered';
    card
      .querySelector('.qcard-answer')
      ?.replaceChildren(
        element('div', { className: 'answer-bubble', 'data-testid': 'answer' }, element('span', { className: 'answer-label', text: '내 답' }), element('p', { text })),
      );
    const verdict = card.querySelector('.qcard-verdict');
    if (verdict && !verdict.firstChild) verdict.append(element('p', { className: 'muted judging', 'data-testid': 'judging', text: '답을 살펴보는 중…' }));
  }

  /**
   * The tutor is not sure of its verdict: it says so, shows the model answer (as text) and offers the two choices;
   * the verdict that follows the choice replaces this block.
   */
  unsure({ questionId, text, modelAnswer }: { questionId: string; text: string; modelAnswer: string }): void {
    const card = this.cards.get(questionId);
    const note = element('p', { className: 'muted', role: 'status' });
    const buttons = SELF_ASSESS_CHOICES.map((choice) => {
      const button = element('button', { type: 'button', className: 'secondary small', 'data-testid': `self-assess-${choice.id}`, text: choice.label });
      button.addEventListener('click', () => {
        for (const other of buttons) other.disabled = true;
        void (this.handlers.onSelfAssess?.(questionId, choice.id) ?? Promise.resolve({ ok: false, message: '' })).then((outcome) => {
          if (outcome.ok) return;
          note.textContent = outcome.ok ? '' : (outcome.message ?? '');
          for (const other of buttons) other.disabled = false;
        });
      });
      return button;
    });
    const node = element(
      'div',
      { className: 'verdict verdict-unsure', 'data-testid': 'unsure', 'data-question-id': questionId },
      element('p', { text }),
      element('blockquote', { className: 'model-answer', 'data-testid': 'unsure-model-answer' }, element('strong', { text: '모범 답안 ' }), element('span', { text: modelAnswer })),
      element('div', { className: 'self-assess' }, ...buttons),
      note,
    );
    if (card) {
      card.querySelector('.answer-form')?.remove();
      card.dataset.state = 'answered';
      card.querySelector('.qcard-verdict')?.replaceChildren(node);
    } else {
      this.currentBody().append(node);
    }
  }

  verdict({ questionId, verdict, feedback, selfAssessed }: { questionId: string; verdict: Verdict; feedback: string; selfAssessed?: true }): void {
    const card = this.cards.get(questionId);
    const label = selfAssessed ? (verdict === 'good' ? '스스로 비교: 비슷해요' : '스스로 비교: 다시 보기') : (VERDICT_LABELS[verdict] ?? verdict);
    const badge = element('span', { className: `badge ${verdict === 'good' ? 'good' : 'bad'}`, text: label });
    const node = element(
      'div',
      { className: `verdict verdict-${verdict}`, 'data-testid': 'verdict', 'data-verdict': verdict },
      badge,
      feedback ? element('p', { text: feedback }) : null,
    );
    if (card) {
      card.querySelector('.answer-form')?.remove();
      card.dataset.state = 'answered';
      card.dataset.verdict = verdict;
      card.querySelector('.qcard-verdict')?.replaceChildren(node);
    } else {
      this.currentBody().append(node);
    }
  }

  // ---- replies -----------------------------------------------------------------------------------------------------

  /** `container`: where the reply goes instead of the lecture flow (the raise-hand panel's dialogue). */
  replyStart({ replyId, kind }: { replyId: string; kind: ReplyKind }, chapter?: number, container?: HTMLElement): MarkdownBlock {
    const known = this.replies.get(replyId);
    if (known) return known;
    // The server streams one reply at a time. A reply still open when the next starts was cut off (its session
    // moved to a new connection and starts it over): drop it, as a snapshot would.
    for (const [openId, block] of this.replies) {
      if (block.parentElement?.dataset.state === 'live') {
        block.parentElement.remove();
        this.replies.delete(openId);
        this.dirty.delete(block);
      }
    }
    const text = markdownBlock({ className: 'md reply-text', 'data-testid': 'reply-text' });
    const reply = element(
      'section',
      { className: `reply reply-${kind}`, 'data-testid': 'reply', 'data-kind': kind, 'data-reply-id': replyId, 'data-state': 'live' },
      element('div', { className: 'reply-head' }, element('span', { className: 'badge', text: REPLY_LABELS[kind] ?? '설명' })),
      text,
    );
    (container ?? this.currentBody(chapter)).append(reply);
    this.replies.set(replyId, text);
    return text;
  }

  replyDelta({ replyId, text }: { replyId: string; text: string }): void {
    // A delta without its start (should not happen): keep the text where the session is.
    const block =
      this.replies.get(replyId) ??
      (this.hand?.active ? this.replyStart({ replyId, kind: 'explain' }, undefined, this.hand.replyContainer()) : this.replyStart({ replyId, kind: 'supplement' }));
    block.source += text;
    this.schedule(block);
  }

  replyEnd({ replyId, abandoned, sources }: { replyId: string; abandoned?: boolean | undefined; sources?: ReplySource[] | undefined }): void {
    const block = this.replies.get(replyId);
    if (!block?.parentElement) return;
    if (abandoned) {
      // The server cut this reply off and writes it again under a new id.
      block.parentElement.remove();
      this.replies.delete(replyId);
      this.dirty.delete(block);
      return;
    }
    block.parentElement.dataset.state = 'complete';
    const line = sourcesLine(sources);
    if (line && !block.parentElement.querySelector('.reply-sources')) block.parentElement.append(line);
  }

  // ---- the end -----------------------------------------------------------------------------------------------------

  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const entry of this.chapters.values()) this.chapterEnd(entry.index);
    this.root.append(
      element(
        'div',
        { className: 'lecture-end card', 'data-testid': 'lecture-end' },
        element('strong', { text: '수업 완료' }),
        element('p', { className: 'muted', text: '모든 챕터를 마쳤습니다. 수고했어요!' }),
      ),
    );
  }

  // ---- snapshot ----------------------------------------------------------------------------------------------------

  /** Rebuilds everything from a `session:state` snapshot. */
  renderSnapshot(snapshot: SessionSnapshot): void {
    this.clear();
    this.setMaterial(snapshot.material);
    const { phase } = snapshot;
    this.hand?.beginSnapshot();
    const answered = new Set(snapshot.transcript.flatMap((item) => (item.type === 'answer' ? [item.questionId] : [])));
    // While a hand is up the phase does not say what the lecture waits in: a question still without an answer is
    // asked again once the dialogue closes, so it keeps its answer box.
    const unanswered = snapshot.transcript.findLast(
      (item): item is Extract<TranscriptItem, { type: 'question' | 'subquestion' | 'reask' }> =>
        (item.type === 'question' || item.type === 'subquestion' || item.type === 'reask') && !answered.has(item.questionId),
    );
    const pending = phase.kind === 'awaiting-answer' ? phase.questionId : phase.kind === 'hand-raised' ? unanswered?.questionId : undefined;
    const known = new Set(snapshot.chapters.map((chapter) => chapter.index));
    const orphans = snapshot.transcript.filter((item) => !known.has(item.chapter));
    const last = snapshot.chapters.at(-1)?.index;
    // Only the reply being streamed right now (the snapshot's last item) stays open for more deltas.
    const lastItem = snapshot.transcript.at(-1);
    const streamingReply = lastItem?.type === 'reply' && !lastItem.complete && !(phase.kind === 'paused' && phase.reason === 'error') ? lastItem : undefined;
    for (const chapter of snapshot.chapters) {
      this.chapterStart(chapter.index, chapter.title);
      const items = snapshot.transcript.filter((item) => item.chapter === chapter.index);
      if (chapter.index === last) items.push(...orphans);
      let position = 0;
      for (const item of items) {
        const at = Math.min(Math.max(item.at, position), chapter.text.length);
        if (at > position) {
          this.appendText(chapter.index, chapter.text.slice(position, at));
          position = at;
        }
        const isPending = 'questionId' in item && pending === item.questionId && !answered.has(item.questionId);
        this.renderItem(item, chapter.index, isPending, item !== streamingReply);
      }
      if (position < chapter.text.length) this.appendText(chapter.index, chapter.text.slice(position));
      if (chapter.complete) this.chapterEnd(chapter.index);
    }
    this.hand?.endSnapshot(phase);
    if (phase.kind === 'finished') this.end();
    this.flush();
  }

  private renderItem(item: TranscriptItem, chapter: number, pending: boolean, ended: boolean): void {
    switch (item.type) {
      case 'question':
        this.question(item, { pending });
        break;
      case 'subquestion':
        this.subquestion(item, { pending });
        break;
      case 'reask':
        this.reask(item, { pending });
        break;
      case 'answer':
        this.answer(item);
        break;
      case 'verdict':
        this.verdict(item);
        break;
      case 'unsure':
        this.unsure(item);
        break;
      case 'assistant':
      case 'student':
      case 'hand-closed':
      case 'instructor':
        this.hand?.restore(item, chapter);
        break;
      case 'reply': {
        const container = HAND_REPLY_KINDS.has(item.kind) ? this.hand?.replyContainer(chapter) : undefined;
        const block = this.replyStart(item, chapter, container);
        block.source = item.text;
        this.schedule(block);
        if (ended) this.replyEnd(item);
        break;
      }
    }
  }

  // ---- rendering -------------------------------------------------------------------------------------------------

  /** Markdown is re-rendered at most once per animation frame, however many deltas arrived. */
  private schedule(block: MarkdownBlock): void {
    this.dirty.add(block);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  flush(): void {
    this.frame = 0;
    if (this.dirty.size === 0) return;
    const follow = nearBottom();
    const followHand = this.hand?.nearBottom() ?? false;
    for (const block of this.dirty) renderMarkdownInto(block, block.chapterTitle === undefined ? block.source : withoutTitleHeading(block.source, block.chapterTitle));
    this.dirty.clear();
    if (follow) window.scrollTo({ top: document.documentElement.scrollHeight });
    if (followHand) this.hand?.scrollToEnd();
  }
}

function nearBottom(): boolean {
  const { scrollTop, scrollHeight, clientHeight } = document.documentElement;
  return scrollHeight - (scrollTop + clientHeight) < 160;
}
