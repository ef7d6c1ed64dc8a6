// A chapter's lecture text opens with its title as a heading; the classroom shows the title in the chapter head
// already (chapter titles shown once).

const headingText = (text: string) => text.replace(/[*_`]/gu, '').replace(/\s+/gu, ' ').trim();

/**
 * The lecture text without a leading heading that only repeats the chapter's title (lectures, the model's and the
 * offline one's, open with `# <title>`; the chapter head above already says it). A heading still streaming in, a
 * prefix of the title, is held back too, so it never flashes.
 */
export function withoutTitleHeading(source: string, title: string): string {
  const wanted = headingText(title);
  if (wanted === '') return source;
  const match = /^\s*#{1,6}[ \t]+([^\n]*)(\n|$)/u.exec(source);
  if (!match) return /^\s*#{1,6}$/u.test(source) ? '' : source;
  const heading = headingText((match[1] ?? '').replace(/[ \t#]*$/u, ''));
  if (heading === wanted) return match[2] === '' ? '' : source.slice(match[0].length);
  if (match[2] === '' && wanted.startsWith(heading)) return '';
  return source;
}
