// The monitor's transcript panel: one student's record (questions, answers, verdicts with feedback, the tutor's and
// the assistant's replies, the raise-hand dialogue, the instructor's own replies), read a page at a time with
// `student:transcript`. Everything in it is untrusted text: what a model wrote (questions, verdicts, replies, the
// assistant) is markdown, shown as the classroom shows it (marked, then DOMPurify, then KaTeX: never "**정리**");
// what people typed (the student, the instructor) is textContent only. The tutor's verdicts and replies and the
// assistant's answers have an "AI 평가" button: the item goes to the Critic Grader (`POST /api/critic/grade`, billed to
// the instructor) with the agent's role as instruction and the student's question and answer before it as input, and
// the report shows under the item.
import type { CriticReport } from '../../../src/protocol/wire/critic.js';
import type { ReplyKind, TranscriptItem, TranscriptPage } from '../../../src/protocol/wire/index.js';
import { apiJson, requestFailure } from '../../net/http.js';
import { criticReportView } from '../../ui/critic-report.js';
import { $, element } from '../../ui/dom.js';
import { renderMarkdownInto } from '../../ui/markdown.js';

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

/** Items a model wrote: their markdown is rendered (sanitised). */
const MODEL_WRITTEN = new Set<TranscriptItem['type']>(['question', 'subquestion', 'reask', 'verdict', 'reply', 'assistant']);

function itemText(item: TranscriptItem, text: string): HTMLElement {
  if (!MODEL_WRITTEN.has(item.type)) return element('p', { text });
  const body = element('div', { className: 'transcript-text md', 'data-testid': 'transcript-text' });
  renderMarkdownInto(body, text);
  return body;
}

/** What one item shows: a label and, for most, its text. */
function describe(item: TranscriptItem): { label: string; text?: string } {
  switch (item.type) {
    case 'question':
      return { label: `강의 질문 (${item.chapter + 1}장)`, text: item.text };
    case 'subquestion':
      return { label: `보충 질문 ${item.index}/${item.total}: ${item.concept}`, text: item.text };
    case 'reask':
      return { label: '처음 질문 다시 묻기', text: item.text };
    case 'answer':
      return { label: '학생의 답', text: item.text };
    case 'verdict':
      return { label: `${item.selfAssessed ? '학생 스스로 비교' : '판정'}: ${item.verdict === 'good' ? '잘했어요' : '다시 살펴봐요'}`, text: item.feedback };
    case 'unsure':
      return { label: '판정 보류: 모범 답안과 비교하도록 함', text: `${item.text}\n모범 답안: ${item.modelAnswer}` };
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

/** The role of the agent that wrote an item, as the critic's instruction (Korean); null for items no agent wrote. */
function agentRole(item: TranscriptItem): { agent: string; instruction: string } | null {
  switch (item.type) {
    case 'verdict':
      return { agent: 'tutor.judge', instruction: '당신은 강의 튜터입니다. 강의 질문에 대한 학생의 답을 판정(잘했어요/다시 살펴봐요)하고, 학생이 이해할 수 있는 짧은 피드백을 한국어로 주세요.' };
    case 'reply':
      return item.kind === 'supplement' || item.kind === 'remedial'
        ? { agent: 'tutor.supplement', instruction: '당신은 강의 튜터입니다. 강의 질문과 학생의 답을 바탕으로, 학생이 개념을 이해하도록 정확하고 친절하게 설명하세요.' }
        : { agent: 'assistant.answer', instruction: '당신은 강의 중 손을 든 학생의 질문에 답하는 수업 도우미입니다. 강의 자료에 근거해 정확하고 이해하기 쉽게 답하세요.' };
    case 'assistant':
      return { agent: 'assistant.answer', instruction: '당신은 강의 중 손을 든 학생의 질문에 답하는 수업 도우미입니다. 강의 자료에 근거해 정확하고 이해하기 쉽게 답하세요.' };
    default:
      return null;
  }
}

export class TranscriptPanel {
  private sessionId: string | null = null;
  private nickname = '';
  private cursor: string | null = null;
  /** Each open or "더 보기" bumps it, so a late answer for an earlier student is dropped. */
  private generation = 0;
  /** What the student was asked and said last, in the order read: the input of an item sent to the critic. */
  private context: { question?: string; student?: string } = {};

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
    this.context = {};
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

  /** The "AI 평가" button of one item: grades it once, then shows the report (or why not) under it. */
  private critique(role: { agent: string; instruction: string }, output: string, item: TranscriptItem): [HTMLButtonElement, HTMLElement] {
    const { question, student } = this.context;
    const input = [question ? `강의 질문: ${question}` : null, student ? `학생: ${student}` : null, item.type === 'verdict' ? `판정: ${item.verdict === 'good' ? '잘했어요' : '다시 살펴봐요'}` : null]
      .filter((line): line is string => line !== null)
      .join('\n');
    const button = element('button', { type: 'button', className: 'secondary small critic-button', 'data-testid': 'critic-send', text: 'AI 평가' });
    const result = element('div', { className: 'critic-result', 'aria-live': 'polite' });
    button.addEventListener('click', async () => {
      button.disabled = true;
      button.textContent = '평가 중…';
      result.replaceChildren();
      try {
        const report = await apiJson<CriticReport>('/api/critic/grade', {
          method: 'POST',
          body: { data_to_grade: { instruction: role.instruction, input: input.slice(0, 20_000), output: output.slice(0, 20_000) }, agent_name: role.agent },
          fallback: '평가하지 못했습니다.',
        });
        result.replaceChildren(criticReportView(report));
        button.textContent = '다시 평가';
      } catch (error) {
        result.replaceChildren(element('p', { className: 'error', role: 'alert', 'data-testid': 'critic-error', text: requestFailure(error) }));
        button.textContent = 'AI 평가';
      } finally {
        button.disabled = false;
      }
    });
    return [button, result];
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
      const row = element(
        'li',
        { className: 'transcript-item', 'data-testid': 'transcript-item', 'data-type': item.type, 'data-verdict': item.type === 'verdict' ? item.verdict : undefined },
        element('span', { className: 'transcript-label', text: label }),
        text === undefined ? null : itemText(item, text),
      );
      const role = agentRole(item);
      if (role !== null && text !== undefined && text.trim() !== '') row.append(...this.critique(role, text, item));
      list.append(row);
      if (item.type === 'question' || item.type === 'subquestion') this.context = { question: item.text };
      if (item.type === 'answer' || item.type === 'student') this.context = { ...this.context, student: item.text };
    }
    this.cursor = page.nextCursor;
    more.hidden = page.nextCursor === null;
    empty.hidden = list.childElementCount > 0;
  }
}
