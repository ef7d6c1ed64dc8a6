// Where a raise-hand answer comes from, under the answer: "출처: 2장 「기댓값」 p.5–7". The server sends chapters 0-based
// (as everywhere on the wire) and pages 1-based; the student reads chapters as the material numbers them, from 1.
// Text only (textContent): chapter titles come from the PDF.
import type { ReplySource } from '../../../src/protocol/wire/index.js';
import { element } from '../../ui/dom.js';

/** `2장 「기댓값」 p.5–7` (one page: `p.5`). */
export function sourceLabel({ chapter, chapterTitle, startPage, endPage }: ReplySource): string {
  const pages = startPage === endPage ? `p.${startPage}` : `p.${startPage}–${endPage}`;
  return `${chapter + 1}장 「${chapterTitle}」 ${pages}`;
}

/** The line shown under a reply, or null when it has no sources. */
export function sourcesLine(sources: readonly ReplySource[] | undefined): HTMLElement | null {
  if (!sources || sources.length === 0) return null;
  return element('p', { className: 'reply-sources', 'data-testid': 'reply-sources', text: `출처: ${sources.map(sourceLabel).join(' · ')}` });
}
