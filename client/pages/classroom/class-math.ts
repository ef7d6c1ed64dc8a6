// "수학 문제 풀기": the short-answer problems of the math sets the instructor shared with the class
// (`GET /api/class-math/problems`), each with a text input and a 채점 button (`POST /api/class-math/answer`, with the
// student's session token). The grade shows 정답/오답, how it was decided (식이 같음 / AI 판정), the feedback, the answer
// and the explanation, typeset with KaTeX. Model and instructor text reaches the DOM only as textContent.
import type { ClassMathAnswerReply, ClassMathProblemsReply } from '../../../src/protocol/wire/index.js';
import { apiJson, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { mathElement } from '../../ui/math.js';

type Problem = ClassMathProblemsReply['sets'][number]['problems'][number];

const DIFFICULTY: Record<Problem['difficulty'], string> = { easy: '쉬움', medium: '보통', hard: '어려움' };

/** An answer key as KaTeX reads it: LaTeX in `$…$` unless it is already delimited. */
function asMath(text: string): string {
  const trimmed = text.trim();
  return trimmed.includes('$') ? trimmed : `$${trimmed}$`;
}

/** The panel (`#class-math`): hidden until the class has a shared short-answer problem. */
export class ClassMathPanel {
  private run = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly token: () => string | null,
  ) {}

  close(): void {
    this.run += 1;
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  /** Reads the shared problems and shows them (hidden when there are none). */
  async load(): Promise<void> {
    const token = this.token();
    if (!token) return this.close();
    const run = ++this.run;
    try {
      const reply = await apiJson<ClassMathProblemsReply>('/api/class-math/problems', {
        headers: { authorization: `Bearer ${token}` },
        fallback: '수학 문제를 불러오지 못했습니다.',
      });
      if (run !== this.run) return;
      const problems = reply.sets.flatMap((set) => set.problems.map((problem) => ({ setId: set.setId, problem })));
      if (problems.length === 0) {
        this.root.hidden = true;
        this.root.replaceChildren();
        return;
      }
      this.show(
        element('p', { className: 'muted', text: `선생님이 공유한 단답형 문제 ${problems.length}개예요. 답을 쓰고 채점을 눌러 보세요.` }),
        element('ol', { className: 'class-math-list' }, ...problems.map(({ setId, problem }) => this.item(setId, problem))),
      );
    } catch (error) {
      if (run !== this.run) return;
      this.show(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
    }
  }

  private show(...children: Node[]): void {
    const refresh = element('button', { type: 'button', className: 'secondary', 'data-testid': 'class-math-refresh', text: '새로 고침' });
    refresh.addEventListener('click', () => void this.load());
    const head = element('div', { className: 'self-quiz-head class-math-head' }, element('h2', { text: '수학 문제 풀기' }), refresh);
    this.root.replaceChildren(head, ...children);
    this.root.hidden = false;
  }

  private item(setId: string, problem: Problem): HTMLLIElement {
    const id = `class-math-${setId}-${problem.problemId}`;
    const input = element('input', {
      id,
      type: 'text',
      className: 'class-math-input',
      'data-testid': 'class-math-input',
      placeholder: '예: 1/2, x = 3',
      maxlength: '500',
      autocomplete: 'off',
    });
    const button = element('button', { type: 'submit', 'data-testid': 'class-math-submit', text: '채점' });
    const result = element('div', { className: 'class-math-result', 'data-testid': 'class-math-result', 'aria-live': 'polite' });
    const form = element(
      'form',
      { className: 'class-math-form' },
      element('label', { for: id, className: 'visually-hidden', text: '내 답' }),
      input,
      button,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.answer(setId, problem, input, button, result);
    });
    return element(
      'li',
      { className: 'class-math-item', 'data-testid': 'class-math-problem', 'data-problem-id': problem.problemId },
      element('p', { className: 'muted class-math-difficulty', text: `난이도 ${DIFFICULTY[problem.difficulty]}` }),
      mathElement('p', { className: 'self-quiz-question', 'data-testid': 'class-math-question' }, problem.question),
      form,
      result,
    );
  }

  private async answer(setId: string, problem: Problem, input: HTMLInputElement, button: HTMLButtonElement, result: HTMLElement): Promise<void> {
    const token = this.token();
    if (!token) return;
    const answer = input.value.trim();
    if (answer === '') {
      result.replaceChildren(element('p', { className: 'error', role: 'alert', text: '답을 입력해 주세요.' }));
      input.focus();
      return;
    }
    button.disabled = true;
    result.replaceChildren(element('p', { className: 'muted', role: 'status', text: '채점하는 중…' }));
    try {
      const reply = await apiJson<ClassMathAnswerReply>('/api/class-math/answer', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: { setId, problemId: problem.problemId, answer },
        fallback: '답을 채점하지 못했습니다.',
      });
      result.replaceChildren(
        element('p', { className: `self-quiz-verdict ${reply.correct ? 'good' : 'bad'}`, 'data-testid': 'class-math-verdict', text: reply.correct ? '정답' : '오답' }),
        element('p', { className: 'muted', 'data-testid': 'class-math-method', text: reply.method === 'equivalence' ? '식이 같음 (서버가 식을 비교했어요)' : 'AI 판정' }),
        element('p', { 'data-testid': 'class-math-feedback', text: reply.feedback }),
        element('p', { className: 'class-math-answer' }, element('span', { text: '정답: ' }), mathElement('span', { 'data-testid': 'class-math-answer' }, asMath(reply.correct_answer))),
        mathElement('p', { className: 'self-quiz-explanation', 'data-testid': 'class-math-explanation' }, reply.explanation),
        ...(reply.first_attempt.first
          ? []
          : [element('p', { className: 'muted', 'data-testid': 'class-math-first', text: `처음 낸 답(${reply.first_attempt.answer})이 ${reply.first_attempt.correct ? '정답' : '오답'}으로 기록되어 있어요.` })]),
      );
    } catch (error) {
      result.replaceChildren(element('p', { className: 'error', role: 'alert', text: requestFailure(error) }));
    } finally {
      button.disabled = false;
    }
  }
}
