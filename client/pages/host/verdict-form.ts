import { STATUS_LABELS, type ResultStatus } from '../../net/exams.js';
import { element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';

/** The statuses a teacher may give (the server's override body). */
const VERDICT_CHOICES: ResultStatus[] = ['Correct', 'Partial_Correct', 'Incorrect'];

export interface VerdictFormOptions {
  /** Prefix of the parts' test ids: `<id>-status`, `-reason`, `-apply`, `-note`. */
  testId: string;
  start: ResultStatus | undefined;
  statusLabel: string;
  reasonLabel: string;
  placeholder: string;
  applyText: string;
  applyClass: string;
  busyText: string;
  /** Sends the verdict; a refusal it throws goes to `failed`. */
  submit(status: ResultStatus, reason: string, apply: HTMLButtonElement): Promise<void>;
  failed(error: unknown, note: HTMLElement): Promise<void> | void;
}

/**
 * A status, a reason and one button: the teacher's verdict on one answer (an override) or on a group of answers.
 * The reason is required (the student reads it) and may be as long as the server takes (1,000 characters).
 */
export function verdictForm(options: VerdictFormOptions): HTMLElement {
  const { testId } = options;
  const select = element('select', { 'data-testid': `${testId}-status`, 'aria-label': options.statusLabel }, ...VERDICT_CHOICES.map((choice) => element('option', { value: choice, text: STATUS_LABELS[choice] })));
  if (options.start !== undefined) select.value = options.start;
  const reason = element('input', { type: 'text', maxLength: 1000, placeholder: options.placeholder, 'data-testid': `${testId}-reason`, 'aria-label': options.reasonLabel });
  const apply = element('button', { type: 'button', className: options.applyClass, 'data-testid': `${testId}-apply`, text: options.applyText });
  const note = element('span', { className: 'muted', role: 'status', 'data-testid': `${testId}-note` });
  apply.addEventListener('click', () => {
    const why = reason.value.trim();
    if (!why) {
      note.textContent = '이유를 적어 주세요.';
      reason.focus();
      return;
    }
    void whileBusy(apply, options.busyText, async () => {
      try {
        await options.submit(select.value as ResultStatus, why, apply);
      } catch (error) {
        await options.failed(error, note);
      }
    });
  });
  return element('div', { className: 'exam-override' }, select, reason, apply, note);
}
