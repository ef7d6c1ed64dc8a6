import { element } from '../../ui/dom.js';
import { wireTextForm } from '../../ui/forms.js';

/** The server's limit on an answer (and on a raise-hand question or reply). */
export const MAX_ANSWER_LENGTH = 2000;

/** What a send handler reports back: ok, or the words for what went wrong. */
export type Outcome = { ok: true } | { ok: false; message?: string };

let uniqueId = 0;

/**
 * The answer box of a pending question card: the draft survives re-renders (a snapshot after a reconnect must not
 * eat it), the box is read-only while the answer is on its way, and a refusal is shown under it.
 */
export function answerForm(options: {
  draft: string;
  onDraft(text: string): void;
  send(text: string): Promise<Outcome>;
  /** The server took the answer: the card shows it instead of the box. */
  sent(text: string): void;
}): HTMLFormElement {
  const id = `answer-${++uniqueId}`;
  const input = element('textarea', {
    id,
    rows: 3,
    maxLength: MAX_ANSWER_LENGTH,
    placeholder: '자신의 말로 답을 적어 보세요.',
    'data-testid': 'answer-input',
  });
  input.value = options.draft;
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
  wireTextForm(form, input, error, '답을 적어 주세요.', {
    typed: () => {
      options.onDraft(input.value);
      counter.textContent = `${input.value.length}/${MAX_ANSWER_LENGTH}`;
    },
    send: async (text) => {
      submit.disabled = true;
      input.readOnly = true;
      submit.textContent = '보내는 중…';
      let result: Outcome;
      try {
        result = await options.send(text);
      } catch {
        result = { ok: false, message: '답을 보내지 못했습니다. 다시 시도해 주세요.' };
      }
      if (result.ok) {
        options.sent(text);
        return;
      }
      submit.disabled = false;
      input.readOnly = false;
      submit.textContent = '답하기';
      error.textContent = result.message ?? '답을 보내지 못했습니다.';
    },
  });
  return form;
}
