// Quiz player, how each question type is answered on the phone: one tap for 4-choice, O/X and poll; toggles and a send
// button for multiple correct answers; a list moved with 위로/아래로 buttons for ordering (no dragging: every step is a
// button, so the keyboard and screen readers can do it); a number field with the unit for numeric; a text field for
// short text and word cloud. Every control is a native button or input with a name. Choices are untrusted:
// textContent only.
import { MAX_TEXT_ANSWER, type AnswerResponse, type PublicQuestion, type RecordedResponse } from '../../../src/protocol/wire/index.js';
import { element } from '../../ui/dom.js';
import { setMathText } from '../../ui/math.js';
import { choiceAt, choiceNodes } from '../../ui/quiz-pieces.js';

export interface AnswerForm {
  /** Enables or disables every control (closed, paused, sending, answered). */
  lock(locked: boolean): void;
  /** Marks the recorded answer (after the ack or a reload). */
  mark(response: RecordedResponse | null): void;
}

/** Fills `root` with the controls of `question`; `send` gets the answer's shape for `answer:submit`. */
export function answerForm(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  root.dataset.type = question.type;
  switch (question.type) {
    case 'choice':
    case 'truefalse':
    case 'poll':
      return singleChoice(root, question, send);
    case 'multi':
      return multiChoice(root, question, send);
    case 'ordering':
      return ordering(root, question, send);
    case 'numeric':
      return numeric(root, question, send);
    case 'short':
    case 'cloud':
      return typed(root, question, send);
  }
}

function typed(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  const input = element('input', { type: 'text', autocomplete: 'off', id: 'text-answer', className: 'text-answer', 'data-testid': 'text-answer', maxLength: MAX_TEXT_ANSWER });
  const label = element('label', { htmlFor: 'text-answer', text: question.type === 'cloud' ? '떠오르는 단어 (한두 단어)' : '답' });
  const submit = sendButton();
  const go = () => {
    const text = input.value.trim();
    if (text !== '') send({ text });
  };
  submit.addEventListener('click', go);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') go();
  });
  root.replaceChildren(label, input, submit);
  return {
    lock: (locked) => {
      input.disabled = locked;
      submit.disabled = locked;
    },
    mark: (response) => {
      if (response && 'text' in response) input.value = response.text;
    },
  };
}

function singleChoice(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  const nodes = choiceNodes(question.choices, 'button', (index) => ({ type: 'button', 'aria-label': `${choiceAt(index).name}: ${question.choices[index]}` }));
  for (const button of nodes) button.addEventListener('click', () => send({ choice: Number(button.dataset.choice) }));
  root.replaceChildren(...nodes);
  return {
    lock: (locked) => nodes.forEach((button) => (button.disabled = locked)),
    mark: (response) => nodes.forEach((button) => (button.dataset.chosen = String(response !== null && 'choice' in response && response.choice === Number(button.dataset.choice)))),
  };
}

function sendButton(label = '답 보내기'): HTMLButtonElement {
  return element('button', { type: 'button', className: 'primary answer-send', 'data-testid': 'answer-send', text: label });
}

function multiChoice(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  const nodes = choiceNodes(question.choices, 'button', (index) => ({
    type: 'button',
    'aria-pressed': 'false',
    'aria-label': `${choiceAt(index).name}: ${question.choices[index]}`,
  }));
  const submit = sendButton('고른 답 보내기');
  const picked = () => nodes.filter((button) => button.getAttribute('aria-pressed') === 'true').map((button) => Number(button.dataset.choice));
  const refresh = () => (submit.disabled = picked().length === 0);
  for (const button of nodes) {
    button.addEventListener('click', () => {
      button.setAttribute('aria-pressed', String(button.getAttribute('aria-pressed') !== 'true'));
      button.dataset.chosen = button.getAttribute('aria-pressed')!;
      refresh();
    });
  }
  submit.addEventListener('click', () => send({ choices: picked() }));
  root.replaceChildren(element('p', { className: 'hint', text: '맞는 보기를 모두 고른 뒤 보내세요.' }), ...nodes, submit);
  refresh();
  return {
    lock: (locked) => {
      nodes.forEach((button) => (button.disabled = locked));
      submit.disabled = locked || picked().length === 0;
    },
    mark: (response) => {
      if (!response || !('choices' in response)) return;
      for (const button of nodes) {
        const on = response.choices.includes(Number(button.dataset.choice));
        button.setAttribute('aria-pressed', String(on));
        button.dataset.chosen = String(on);
      }
    },
  };
}

function ordering(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  let order = question.choices.map((_, index) => index);
  const list = element('ol', { className: 'ordering', 'data-testid': 'ordering', 'aria-label': '순서 (위가 처음)' });
  const status = element('p', { className: 'visually-hidden', role: 'status', 'aria-live': 'polite' });
  const submit = sendButton('이 순서로 보내기');
  let locked = false;
  const move = (position: number, by: number) => {
    const target = position + by;
    if (target < 0 || target >= order.length) return;
    const next = [...order];
    [next[position], next[target]] = [next[target]!, next[position]!];
    order = next;
    draw(target, by < 0 ? 'up' : 'down');
    status.textContent = `${question.choices[order[target]!]}: ${target + 1}번째`;
  };
  const draw = (focusPosition?: number, focusWhich?: 'up' | 'down') => {
    list.replaceChildren(
      ...order.map((step, position) => {
        const text = element('span', { className: 'ordering-text' });
        setMathText(text, question.choices[step] ?? '');
        const up = element('button', { type: 'button', className: 'ordering-up', 'data-testid': 'ordering-up', 'aria-label': `${question.choices[step]} 위로`, text: '▲' });
        const down = element('button', { type: 'button', className: 'ordering-down', 'data-testid': 'ordering-down', 'aria-label': `${question.choices[step]} 아래로`, text: '▼' });
        up.disabled = locked || position === 0;
        down.disabled = locked || position === order.length - 1;
        up.addEventListener('click', () => move(position, -1));
        down.addEventListener('click', () => move(position, 1));
        const item = element('li', { className: 'ordering-step', 'data-step': String(step) }, element('span', { className: 'ordering-number', text: `${position + 1}` }), text, up, down);
        if (position === focusPosition) queueMicrotask(() => (focusWhich === 'up' && !up.disabled ? up : !down.disabled ? down : up).focus());
        return item;
      }),
    );
  };
  submit.addEventListener('click', () => send({ order: [...order] }));
  root.replaceChildren(element('p', { className: 'hint', text: '▲▼ 버튼으로 순서를 맞춘 뒤 보내세요.' }), list, submit, status);
  draw();
  return {
    lock: (value) => {
      locked = value;
      submit.disabled = value;
      draw();
    },
    mark: (response) => {
      if (!response || !('order' in response)) return;
      order = [...response.order];
      draw();
    },
  };
}

function numeric(root: HTMLElement, question: PublicQuestion, send: (response: AnswerResponse) => void): AnswerForm {
  const input = element('input', { type: 'text', inputMode: 'decimal', autocomplete: 'off', id: 'numeric-answer', className: 'numeric-answer', 'data-testid': 'numeric-answer', maxLength: 40 });
  const label = element('label', { htmlFor: 'numeric-answer', text: question.unit ? `답 (${question.unit})` : '답 (수)' });
  const submit = sendButton();
  const go = () => {
    const text = input.value.trim();
    if (text !== '') send({ text });
  };
  submit.addEventListener('click', go);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') go();
  });
  root.replaceChildren(label, input, submit);
  return {
    lock: (locked) => {
      input.disabled = locked;
      submit.disabled = locked;
    },
    mark: (response) => {
      if (response && 'value' in response) input.value = String(response.value);
    },
  };
}

/** "답을 보냈습니다: …" for each shape. */
export function responseText(question: PublicQuestion | null, response: RecordedResponse): string {
  const choices = question?.choices ?? [];
  if ('choice' in response) return `${choiceAt(response.choice).shape} ${choices[response.choice] ?? ''}`;
  if ('choices' in response) return response.choices.map((choice) => `${choiceAt(choice).shape} ${choices[choice] ?? ''}`).join(', ');
  if ('order' in response) return response.order.map((step) => choices[step] ?? '').join(' → ');
  if ('text' in response) return response.text;
  return question?.unit ? `${response.value} ${question.unit}` : String(response.value);
}
