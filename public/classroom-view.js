// The lecture as the student sees it: one section per chapter, in which lecture text blocks (markdown) and the
// tutoring items (question cards with the answer and the verdict, replies) follow each other in the order they
// happened. Live events and `session:state` snapshots build exactly the same blocks, so a reload looks the same.
// Server text only ever reaches the DOM as textContent or as DOMPurify-sanitized markdown.
import { renderMarkdownInto } from './classroom-markdown.js';
import { element } from './dom.js';
import { requiredText, submitOnCtrlEnter } from './forms.js';

const REPLY_LABELS = { supplement: '보충 설명', remedial: '다시 설명', answer: '답변', explain: '설명', summary: '정리 노트' };
/** Reply kinds of the raise-hand dialogue: they go to the hand panel, not the lecture flow. */
export const HAND_REPLY_KINDS = new Set(['answer', 'explain', 'summary']);
const VERDICT_LABELS = { good: '잘했어요', bad: '다시 살펴봐요' };
export const MAX_ANSWER_LENGTH = 2000;

export { element };

let uniqueId = 0;

export class LectureView {
  /**
   * @param {HTMLElement} root the lecture area
   * @param {{ onAnswer: (questionId: string, text: string) => Promise<{ok: boolean, message?: string}> }} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.handlers = handlers;
    /** The raise-hand panel (classroom-hand.js), which renders the dialogue items of snapshots. */
    this.hand = null;
    this.material = null;
    /** chapter index -> { index, title, section, body, complete } */
    this.chapters = new Map();
    this.current = null;
    /** replyId -> text block */
    this.replies = new Map();
    /** questionId -> card element */
    this.cards = new Map();
    /** Answers being typed, kept across re-renders (a snapshot after a reconnect must not eat them). */
    this.drafts = new Map();
    this.dirty = new Set();
    this.frame = 0;
    this.finished = false;
  }

  setMaterial(material) {
    this.material = material;
  }

  clear() {
    this.root.replaceChildren();
    this.chapters.clear();
    this.replies.clear();
    this.cards.clear();
    this.dirty.clear();
    this.current = null;
    this.finished = false;
  }

  chapterNumber(index) {
    const position = this.material?.chapters.findIndex((chapter) => chapter.index === index) ?? -1;
    return position >= 0 ? position + 1 : index + 1;
  }

  // ---- chapters and lecture text ---------------------------------------------------------------------------------

  chapterStart(index, title) {
    let entry = this.chapters.get(index);
    if (!entry) {
      const label = title || this.material?.chapters.find((chapter) => chapter.index === index)?.title || '';
      const heading = element('h2', { className: 'chapter-title', text: label });
      const head = element(
        'header',
        { className: 'chapter-head' },
        element('span', { className: 'chapter-no', text: `${this.chapterNumber(index)}장` }),
        heading,
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

  chapterEnd(index) {
    const entry = this.chapters.get(index);
    if (!entry) return;
    entry.complete = true;
    entry.section.dataset.state = 'complete';
  }

  /** The section items without a chapter of their own go to: the chapter being taught. */
  currentBody(chapter) {
    const entry = chapter === undefined ? this.current : (this.chapters.get(chapter) ?? this.chapterStart(chapter));
    return (entry ?? this.chapterStart(0)).body;
  }

  appendText(chapter, text) {
    if (!text) return;
    const body = this.currentBody(chapter);
    let block = body.lastElementChild;
    if (!block || !block.classList.contains('lecture-text')) {
      block = element('div', { className: 'md lecture-text', 'data-testid': 'lecture-text' });
      block.source = '';
      body.append(block);
    }
    block.source += text;
    this.schedule(block);
  }

  /** The raw lecture text shown so far (markdown source), chapter by chapter. */
  lectureSource() {
    return [...this.root.querySelectorAll('.lecture-text')].map((block) => block.source).join('');
  }

  // ---- questions ---------------------------------------------------------------------------------------------------

  question(payload, { pending }) {
    return this.addCard(
      {
        kind: 'question',
        questionId: payload.questionId,
        label: '이해도 질문',
        text: payload.text,
      },
      payload.chapter,
      pending,
    );
  }

  subquestion(payload, { pending }) {
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

  addCard(item, chapter, pending) {
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
    if (pending) card.append(this.answerForm(item.questionId));
    this.currentBody(chapter).append(card);
    this.cards.set(item.questionId, card);
    return card;
  }

  answerForm(questionId) {
    const id = `answer-${++uniqueId}`;
    const input = element('textarea', {
      id,
      rows: 3,
      maxLength: MAX_ANSWER_LENGTH,
      placeholder: '자신의 말로 답을 적어 보세요.',
      'data-testid': 'answer-input',
    });
    input.value = this.drafts.get(questionId) ?? '';
    const counter = element('span', { className: 'muted counter', 'aria-hidden': 'true', text: `${input.value.length}/${MAX_ANSWER_LENGTH}` });
    const submit = element('button', { type: 'submit', 'data-testid': 'answer-submit', text: '답하기' });
    const error = element('p', { className: 'error form-error', role: 'alert', 'data-testid': 'answer-error' });
    const form = element(
      'form',
      { className: 'answer-form', noValidate: true },
      element('label', { for: id, text: '내 답' }),
      input,
      element('div', { className: 'answer-actions' }, counter, submit),
      error,
    );
    input.addEventListener('input', () => {
      this.drafts.set(questionId, input.value);
      counter.textContent = `${input.value.length}/${MAX_ANSWER_LENGTH}`;
      error.textContent = '';
    });
    submitOnCtrlEnter(input, form);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const text = requiredText(input, error, '답을 적어 주세요.');
      if (text === null) return;
      submit.disabled = true;
      input.readOnly = true;
      submit.textContent = '보내는 중…';
      let result;
      try {
        result = await this.handlers.onAnswer(questionId, text);
      } catch {
        result = { ok: false, message: '답을 보내지 못했습니다. 다시 시도해 주세요.' };
      }
      if (result.ok) {
        this.drafts.delete(questionId);
        this.answer({ questionId, text });
        return;
      }
      submit.disabled = false;
      input.readOnly = false;
      submit.textContent = '답하기';
      error.textContent = result.message ?? '답을 보내지 못했습니다.';
    });
    return form;
  }

  /** The question card still waiting for an answer, if any: `{questionId, parentQuestionId}`. */
  pendingQuestion() {
    const card = [...this.cards.values()].find((candidate) => candidate.dataset.state === 'pending');
    return card ? { questionId: card.dataset.questionId, parentQuestionId: card.dataset.parentQuestionId } : null;
  }

  /** Focuses the answer box of a pending question (without jumping the page). */
  focusAnswer(questionId) {
    const input = this.cards.get(questionId)?.querySelector('textarea');
    if (input) input.focus({ preventScroll: true });
  }

  answer({ questionId, text }) {
    const card = this.cards.get(questionId);
    if (!card) return;
    card.querySelector('.answer-form')?.remove();
    card.dataset.state = 'answered';
    const slot = card.querySelector('.qcard-answer');
    slot.replaceChildren(
      element(
        'div',
        { className: 'answer-bubble', 'data-testid': 'answer' },
        element('span', { className: 'answer-label', text: '내 답' }),
        element('p', { text }),
      ),
    );
    const verdict = card.querySelector('.qcard-verdict');
    if (!verdict.firstChild) verdict.append(element('p', { className: 'muted judging', 'data-testid': 'judging', text: '답을 살펴보는 중…' }));
  }

  verdict({ questionId, verdict, feedback }) {
    const card = this.cards.get(questionId);
    const badge = element('span', { className: `badge ${verdict === 'good' ? 'good' : 'bad'}`, text: VERDICT_LABELS[verdict] ?? verdict });
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
      card.querySelector('.qcard-verdict').replaceChildren(node);
    } else {
      this.currentBody().append(node);
    }
  }

  // ---- replies -----------------------------------------------------------------------------------------------------

  /** `container`: where the reply goes instead of the lecture flow (the raise-hand panel's dialogue). */
  replyStart({ replyId, kind }, chapter, container) {
    if (this.replies.has(replyId)) return this.replies.get(replyId);
    // The server streams one reply at a time. A reply still open when the next starts was cut off (its session
    // moved to a new connection and starts it over): drop it, as a snapshot would.
    for (const [openId, block] of this.replies) {
      if (block.parentElement.dataset.state === 'live') {
        block.parentElement.remove();
        this.replies.delete(openId);
        this.dirty.delete(block);
      }
    }
    const text = element('div', { className: 'md reply-text', 'data-testid': 'reply-text' });
    text.source = '';
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

  replyDelta({ replyId, text }) {
    // A delta without its start (should not happen): keep the text where the session is.
    const block =
      this.replies.get(replyId) ??
      (this.hand?.active ? this.replyStart({ replyId, kind: 'explain' }, undefined, this.hand.replyContainer()) : this.replyStart({ replyId, kind: 'supplement' }));
    block.source += text;
    this.schedule(block);
  }

  replyEnd({ replyId, abandoned }) {
    const block = this.replies.get(replyId);
    if (!block) return;
    if (abandoned) {
      // The server cut this reply off and writes it again under a new id.
      block.parentElement.remove();
      this.replies.delete(replyId);
      this.dirty.delete(block);
      return;
    }
    block.parentElement.dataset.state = 'complete';
  }

  // ---- the end -----------------------------------------------------------------------------------------------------

  end() {
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
  renderSnapshot(snapshot) {
    this.clear();
    this.setMaterial(snapshot.material);
    const { phase } = snapshot;
    this.hand?.beginSnapshot();
    const answered = new Set(snapshot.transcript.filter((item) => item.type === 'answer').map((item) => item.questionId));
    // While a hand is up the phase does not say what the lecture waits in: a question still without an answer is
    // asked again once the dialogue closes, so it keeps its answer box.
    const unanswered = snapshot.transcript.findLast((item) => (item.type === 'question' || item.type === 'subquestion') && !answered.has(item.questionId));
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
        this.renderItem(item, chapter.index, pending === item.questionId && !answered.has(item.questionId), item !== streamingReply);
      }
      if (position < chapter.text.length) this.appendText(chapter.index, chapter.text.slice(position));
      if (chapter.complete) this.chapterEnd(chapter.index);
    }
    this.hand?.endSnapshot(phase);
    if (phase.kind === 'finished') this.end();
    this.flush();
  }

  renderItem(item, chapter, pending, ended) {
    switch (item.type) {
      case 'question':
        this.question(item, { pending });
        break;
      case 'subquestion':
        this.subquestion(item, { pending });
        break;
      case 'answer':
        this.answer(item);
        break;
      case 'verdict':
        this.verdict(item);
        break;
      case 'assistant':
      case 'student':
      case 'hand-closed':
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
  schedule(block) {
    this.dirty.add(block);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flush());
  }

  flush() {
    this.frame = 0;
    if (this.dirty.size === 0) return;
    const follow = nearBottom();
    const followHand = this.hand?.nearBottom() ?? false;
    for (const block of this.dirty) renderMarkdownInto(block, block.source);
    this.dirty.clear();
    if (follow) window.scrollTo({ top: document.documentElement.scrollHeight });
    if (followHand) this.hand.scrollToEnd();
  }
}

function nearBottom() {
  const { scrollTop, scrollHeight, clientHeight } = document.documentElement;
  return scrollHeight - (scrollTop + clientHeight) < 160;
}
