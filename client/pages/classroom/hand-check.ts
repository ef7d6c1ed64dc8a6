// A "did you understand?" check of the raise-hand dialogue: the card with its concept, and the reply box with the
// two quick answers. The check's text is untrusted: textContent only.
import type { TutorServerEvents } from '../../../src/protocol/wire/index.js';
import { element } from '../../ui/dom.js';
import { wireTextForm } from '../../ui/forms.js';
import { MAX_ANSWER_LENGTH, type Outcome } from './answer-form.js';

export type Check = Omit<TutorServerEvents['assistant:check'], 'seq'>;

const QUICK_REPLIES = [
  { text: '네, 이해했어요', testid: 'hand-quick-yes' },
  { text: '아니요, 잘 모르겠어요', testid: 'hand-quick-no' },
];

/** The card of a check (`pending`: still waiting for the student's reply). */
export function checkCard({ text, concept, index, total }: Check, pending: boolean): HTMLElement {
  const label = `이해 확인 ${index + 1}/${total}`;
  return element(
    'article',
    { className: 'hand-check', 'data-testid': 'hand-check', 'data-state': pending ? 'pending' : 'answered', 'aria-label': concept ? `${label}: ${concept}` : label },
    element(
      'div',
      { className: 'qcard-head' },
      element('span', { className: 'badge hand-check-label', text: label }),
      concept ? element('span', { className: 'qcard-concept', text: concept }) : null,
    ),
    element('p', { className: 'hand-check-text', text }),
  );
}

/** The reply box of a pending check; every control is disabled while the reply is on its way. */
export function replyForm(options: {
  draft: string;
  onDraft(text: string): void;
  send(text: string): Promise<Outcome>;
  /** The server took the reply. */
  sent(text: string): void;
}): HTMLFormElement {
  const id = `hand-reply-${Math.random().toString(36).slice(2, 8)}`;
  const input = element('textarea', {
    id,
    rows: 2,
    maxLength: MAX_ANSWER_LENGTH,
    placeholder: '네 / 아니요, 또는 헷갈리는 부분을 적어 주세요.',
    'data-testid': 'hand-reply-input',
  });
  input.value = options.draft;
  const submit = element('button', { type: 'submit', 'data-testid': 'hand-reply-send', text: '답하기' });
  const error = element('p', { className: 'error form-error', role: 'alert', 'data-testid': 'hand-reply-error' });
  const quick = element(
    'div',
    { className: 'hand-quick', role: 'group', 'aria-label': '빠른 답' },
    ...QUICK_REPLIES.map((reply) => {
      const button = element('button', { type: 'button', className: 'secondary small', 'data-testid': reply.testid, text: reply.text });
      button.addEventListener('click', () => {
        input.value = reply.text;
        form.requestSubmit();
      });
      return button;
    }),
  );
  const form = element(
    'form',
    { className: 'answer-form hand-reply-form', noValidate: true },
    element('label', { for: id, text: '내 답' }),
    quick,
    input,
    element('div', { className: 'answer-actions' }, element('span'), submit),
    error,
  );
  wireTextForm(form, input, error, '답을 적어 주세요.', {
    typed: () => options.onDraft(input.value),
    send: async (text) => {
      const controls = form.querySelectorAll<HTMLButtonElement | HTMLTextAreaElement>('button, textarea');
      for (const control of controls) control.disabled = true;
      submit.textContent = '보내는 중…';
      const result = await options.send(text);
      if (result.ok) {
        options.sent(text);
        return;
      }
      for (const control of controls) control.disabled = false;
      submit.textContent = '답하기';
      error.textContent = result.message ?? '답을 보내지 못했습니다.';
    },
  });
  return form;
}
