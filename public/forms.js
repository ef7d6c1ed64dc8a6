// Text forms shared by the classroom, the raise-hand panel and the instructor page.

/** Ctrl/⌘+Enter in a text box sends its form (Enter alone keeps writing new lines). */
export function submitOnCtrlEnter(input, form) {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

/** The box's trimmed text, or null after showing `message` and focusing the box when it is empty. */
export function requiredText(input, error, message) {
  const text = input.value.trim();
  if (text) return text;
  error.textContent = message;
  input.focus();
  return null;
}
