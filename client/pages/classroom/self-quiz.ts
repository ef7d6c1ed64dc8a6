// "혼자 퀴즈 풀기": after a chapter ends, a self-study quiz on that chapter through seed 001's API
// (`POST /api/quiz/start`, then `/api/quiz/answer` per item, with the student's session token). One question at a
// time with four choices; after each answer right or wrong and the explanation; at the end the score. Model text
// reaches the DOM only as textContent.
import type { SelfQuizAnswerReply, SelfQuizQuestion, SelfQuizStartReply } from '../../../src/protocol/wire/index.js';
import { apiJson, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { mathElement } from '../../ui/math.js';

export interface SelfQuizSession {
  token: string;
  materialId: string;
}

const MARKS = ['①', '②', '③', '④'];

/** The quiz panel (`#self-quiz`): one quiz at a time; starting another replaces it. */
export class SelfQuizPanel {
  private run = 0;
  /** The start reply's shortfall sentence, shown with the first question. */
  private note: string | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly session: () => SelfQuizSession | null,
  ) {}

  /** The button a finished chapter gets. */
  button(chapter: number, chapterLabel: string): HTMLButtonElement {
    const button = element('button', {
      type: 'button',
      className: 'secondary self-quiz-start',
      'data-testid': 'self-quiz-start',
      'data-chapter': String(chapter),
      'aria-controls': 'self-quiz',
      text: '혼자 퀴즈 풀기',
      title: `${chapterLabel} 내용으로 다섯 문제를 풀어 봅니다`,
    });
    button.addEventListener('click', () => void this.start(chapter, chapterLabel, button));
    return button;
  }

  close(): void {
    this.run += 1;
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  private headers(): Record<string, string> | null {
    const session = this.session();
    return session ? { authorization: `Bearer ${session.token}` } : null;
  }

  private async start(chapter: number, chapterLabel: string, button: HTMLButtonElement): Promise<void> {
    const session = this.session();
    const headers = this.headers();
    if (!session || !headers) return;
    const run = ++this.run;
    this.show(element('p', { className: 'muted', 'data-testid': 'self-quiz-loading', role: 'status', text: `${chapterLabel} 퀴즈를 만드는 중… (문제를 만들고 검증하느라 조금 걸려요)` }));
    button.disabled = true;
    try {
      const reply = await apiJson<SelfQuizStartReply>('/api/quiz/start', {
        method: 'POST',
        headers,
        body: { topic: 'general', materialId: session.materialId, chapter },
        fallback: '퀴즈를 시작하지 못했습니다.',
      });
      if (run !== this.run) return;
      // Fewer than five items: the server's Korean sentence says how many and why, shown above the first question.
      this.note = reply.metadata.shortfall?.message;
      this.ask(run, chapterLabel, reply.response, 0, 0);
    } catch (error) {
      if (run !== this.run) return;
      this.show(element('p', { className: 'error', role: 'alert', 'data-testid': 'self-quiz-error', text: requestFailure(error) }), this.closeButton());
    } finally {
      button.disabled = false;
    }
  }

  private show(...children: Node[]): void {
    const head = element('div', { className: 'self-quiz-head' }, element('h2', { text: '혼자 퀴즈 풀기' }));
    this.root.replaceChildren(head, ...children);
    this.root.hidden = false;
    this.root.scrollIntoView({ block: 'nearest' });
  }

  private closeButton(): HTMLButtonElement {
    const close = element('button', { type: 'button', className: 'secondary', 'data-testid': 'self-quiz-close', text: '닫기' });
    close.addEventListener('click', () => this.close());
    return close;
  }

  private ask(run: number, chapterLabel: string, items: SelfQuizQuestion[], index: number, correct: number): void {
    const item = items[index];
    if (!item) {
      this.finish(chapterLabel, items.length, correct);
      return;
    }
    const feedback = element('div', { className: 'self-quiz-feedback', 'data-testid': 'self-quiz-feedback', 'aria-live': 'polite' });
    const choices = item.choices.map((choice, choiceIndex) =>
      element(
        'button',
        { type: 'button', className: 'self-quiz-choice', 'data-testid': 'self-quiz-choice', 'data-index': String(choiceIndex) },
        element('span', { className: 'self-quiz-mark', 'aria-hidden': 'true', text: MARKS[choiceIndex] ?? '' }),
        mathElement('span', {}, choice),
      ),
    );
    const list = element('div', { className: 'self-quiz-choices', role: 'group', 'aria-label': '보기' }, ...choices);
    const note = index === 0 && this.note !== undefined ? element('p', { className: 'muted', 'data-testid': 'self-quiz-shortfall', role: 'status', text: this.note }) : null;
    this.show(
      ...(note ? [note] : []),
      element('p', { className: 'muted self-quiz-progress', 'data-testid': 'self-quiz-progress', text: `${chapterLabel} · ${index + 1}/${items.length}번` }),
      mathElement('p', { className: 'self-quiz-question', 'data-testid': 'self-quiz-question', 'data-quiz-id': item.quiz_id }, item.question),
      list,
      feedback,
    );
    choices.forEach((choice, choiceIndex) => {
      choice.addEventListener('click', () => void this.answer(run, item, choiceIndex, choices, feedback, () => this.nextButton(run, chapterLabel, items, index, correct)));
    });
    choices[0]?.focus();
  }

  private async answer(
    run: number,
    item: SelfQuizQuestion,
    choiceIndex: number,
    choices: HTMLButtonElement[],
    feedback: HTMLElement,
    next: () => (right: boolean) => HTMLButtonElement,
  ): Promise<void> {
    const headers = this.headers();
    if (!headers) return;
    for (const choice of choices) choice.disabled = true;
    try {
      const reply = await apiJson<SelfQuizAnswerReply>('/api/quiz/answer', {
        method: 'POST',
        headers,
        body: { quiz_id: item.quiz_id, answer: choiceIndex },
        fallback: '답을 보내지 못했습니다.',
      });
      if (run !== this.run) return;
      const { is_correct, correct_answer, correct_choice, explanation } = reply.response;
      choices[correct_answer]?.classList.add('right');
      if (!is_correct) choices[choiceIndex]?.classList.add('wrong');
      feedback.replaceChildren(
        mathElement('p', { className: `self-quiz-verdict ${is_correct ? 'good' : 'bad'}`, 'data-testid': 'self-quiz-verdict' }, is_correct ? '정답이에요!' : `아쉬워요. 정답은 ${MARKS[correct_answer] ?? ''} ${correct_choice}`),
        mathElement('p', { className: 'self-quiz-explanation', 'data-testid': 'self-quiz-explanation' }, explanation),
        next()(reply.metadata.recorded_correct),
      );
      (feedback.lastElementChild as HTMLElement | null)?.focus();
    } catch (error) {
      if (run !== this.run) return;
      for (const choice of choices) choice.disabled = false;
      feedback.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
    }
  }

  private nextButton(run: number, chapterLabel: string, items: SelfQuizQuestion[], index: number, correct: number): (right: boolean) => HTMLButtonElement {
    return (right) => {
      const last = index + 1 >= items.length;
      const button = element('button', { type: 'button', 'data-testid': 'self-quiz-next', text: last ? '결과 보기' : '다음 문제' });
      button.addEventListener('click', () => {
        if (run === this.run) this.ask(run, chapterLabel, items, index + 1, correct + (right ? 1 : 0));
      });
      return button;
    };
  }

  private finish(chapterLabel: string, total: number, correct: number): void {
    this.show(
      element('p', { className: 'self-quiz-score', 'data-testid': 'self-quiz-score', role: 'status', text: `${chapterLabel} 퀴즈 결과: ${total}문제 중 ${correct}문제 정답 (${correct}/${total})` }),
      this.closeButton(),
    );
  }
}
