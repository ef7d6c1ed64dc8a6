// Text forms shared by the classroom, the raise-hand panel and the instructor page.

/** Ctrl/⌘+Enter in a text box sends its form (Enter alone keeps writing new lines). */
function submitOnCtrlEnter(input: HTMLElement, form: HTMLFormElement): void {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

/** The box's trimmed text, or null after showing `message` and focusing the box when it is empty. */
function requiredText(input: HTMLInputElement | HTMLTextAreaElement, error: HTMLElement, message: string): string | null {
  const text = input.value.trim();
  if (text) return text;
  error.textContent = message;
  input.focus();
  return null;
}

/**
 * A text form: typing clears its error line (and runs `typed`, e.g. to update a counter), Ctrl/⌘+Enter sends it,
 * and sending an empty box shows `emptyMessage` instead of calling `send`.
 */
export function wireTextForm(
  form: HTMLFormElement,
  input: HTMLInputElement | HTMLTextAreaElement,
  error: HTMLElement,
  emptyMessage: string,
  handlers: { typed?(): void; send(text: string): Promise<void> },
): void {
  input.addEventListener('input', () => {
    handlers.typed?.();
    error.textContent = '';
  });
  submitOnCtrlEnter(input, form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = requiredText(input, error, emptyMessage);
    if (text !== null) await handlers.send(text);
  });
}

/**
 * Runs `work` with `button` disabled (and, with `busyText`, relabelled) meanwhile: a second click cannot send the
 * same request twice, and the button comes back however the work ends.
 */
export async function whileBusy<T>(button: HTMLButtonElement, busyText: string | null, work: () => Promise<T>): Promise<T> {
  const idleText = button.textContent;
  button.disabled = true;
  if (busyText !== null) button.textContent = busyText;
  try {
    return await work();
  } finally {
    button.disabled = false;
    if (busyText !== null) button.textContent = idleText;
  }
}
