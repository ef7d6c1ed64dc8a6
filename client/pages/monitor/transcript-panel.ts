// The monitor's transcript panel: one student's record (questions, answers, verdicts with feedback, the tutor's and
// the assistant's replies, the raise-hand dialogue, the instructor's own replies), read a page at a time with
// `student:transcript`. Everything in it is untrusted text: textContent only.
import type { ReplyKind, TranscriptItem, TranscriptPage } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';

const panel = $('transcript-panel');
const title = $('transcript-title');
const list = $('transcript-list');
const empty = $('transcript-empty');
const more = $<HTMLButtonElement>('transcript-more');
const errorLine = $('transcript-error');
const closeButton = $<HTMLButtonElement>('transcript-close');

const REPLY_LABELS: Record<ReplyKind, string> = {
  supplement: '튜터의 보충 설명',
  remedial: '튜터의 다시 설명',
  answer: '도우미의 답변',
  explain: '도우미의 설명',
  summary: '도우미의 정리',
};
const CLOSED_LABELS = { specific: '질문 대화 끝 (답변을 받음)', vague: '질문 대화 끝 (설명과 정리를 받음)', cancelled: '손을 내림' } as const;

/** What one item shows: a label and, for most, its text. */
function describe(item: TranscriptItem): { label: string; text?: string } {
  switch (item.type) {
    case 'question':
      return { label: `강의 질문 (${item.chapter + 1}장)`, text: item.text };
    case 'subquestion':
      return { label: `보충 질문 ${item.index}/${item.total}: ${item.concept}`, text: item.text };
    case 'answer':
      return { label: '학생의 답', text: item.text };
    case 'verdict':
      return { label: item.verdict === 'good' ? '판정: 잘했어요' : '판정: 다시 살펴봐요', text: item.feedback };
    case 'reply':
      return { label: `${REPLY_LABELS[item.kind] ?? '설명'}${item.complete ? '' : ' (끊김)'}`, text: item.text };
    case 'assistant':
      return { label: '도우미', text: item.text };
    case 'student':
      return { label: '학생 (손 들기)', text: item.text };
    case 'hand-closed':
      return { label: CLOSED_LABELS[item.kind] ?? '질문 대화 끝' };
    case 'instructor':
      return { label: '선생님의 답변', text: item.text };
  }
}

export class TranscriptPanel {
  private sessionId: string | null = null;
  private nickname = '';
  private cursor: string | null = null;
  /** Each open or "더 보기" bumps it, so a late answer for an earlier student is dropped. */
  private generation = 0;

  /** `fetchPage` sends `student:transcript`; it resolves with the page or the words for a refusal. */
  constructor(private readonly fetchPage: (sessionId: string, cursor: string | null) => Promise<TranscriptPage | string>) {
    closeButton.addEventListener('click', () => this.close());
    more.addEventListener('click', () => void this.load());
  }

  get openFor(): string | null {
    return this.sessionId;
  }

  async open(sessionId: string, nickname: string): Promise<void> {
    this.sessionId = sessionId;
    this.nickname = nickname;
    this.cursor = null;
    this.generation += 1;
    title.textContent = `${nickname} 학생의 기록`;
    panel.dataset.sessionId = sessionId;
    list.replaceChildren();
    empty.hidden = true;
    more.hidden = true;
    errorLine.textContent = '';
    panel.hidden = false;
    await this.load();
    panel.scrollIntoView({ block: 'nearest' });
  }

  /** Reads the open student's record again from the start (after a reply, say). */
  async refresh(): Promise<void> {
    if (this.sessionId === null) return;
    await this.open(this.sessionId, this.nickname);
  }

  close(): void {
    this.sessionId = null;
    this.generation += 1;
    panel.hidden = true;
    delete panel.dataset.sessionId;
    list.replaceChildren();
  }

  private async load(): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId === null) return;
    const generation = this.generation;
    more.disabled = true;
    const page = await this.fetchPage(sessionId, this.cursor);
    more.disabled = false;
    if (generation !== this.generation) return;
    if (typeof page === 'string') {
      errorLine.textContent = page;
      return;
    }
    for (const item of page.items) {
      const { label, text } = describe(item);
      list.append(
        element(
          'li',
          { className: 'transcript-item', 'data-testid': 'transcript-item', 'data-type': item.type, 'data-verdict': item.type === 'verdict' ? item.verdict : undefined },
          element('span', { className: 'transcript-label', text: label }),
          text === undefined ? null : element('p', { text }),
        ),
      );
    }
    this.cursor = page.nextCursor;
    more.hidden = page.nextCursor === null;
    empty.hidden = list.childElementCount > 0;
  }
}
