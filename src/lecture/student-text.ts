/**
 * Student text is untrusted: it goes into prompts only inside its delimiter tag, and any attempt to close or
 * reopen that tag from inside is neutralised, so the text cannot pose as instructions.
 */
export function delimitStudentText(text: string): string {
  return text.replace(/<\/?\s*학생_답변\s*>/g, (tag) => tag.replace('<', '‹').replace('>', '›'));
}
