import { RunningLines } from '../text/index.js';
import { isGenericTitle } from './generic-titles.js';
import type { ExtractedPage } from './types.js';

/**
 * What a page says it is about: its first heading-like line. Used where the PDF's own structure names nothing
 * ("Slide 5–8" bookmarks, a metadata title that is a file name), so chapter and material titles come from the
 * slides' own titles instead.
 *
 * A line set in a larger font (the reader's heading candidates) wins, in reading order; without one, the page's
 * first line counts only when it reads like a title. Running headers and footers never count: for plain lines the
 * shared RunningLines rule; for larger lines, a text that is large on most pages is a banner (a course name on every
 * slide), while a title repeated on a few slides ("Variance", "Variance (cont.)") is still a title.
 */

const MIN_TITLE_LETTERS = 2;
const MAX_TITLE_LENGTH = 60;
/** A larger line on more than this share of pages (of at least BANNER_MIN_PAGES) is a banner, not a title. */
const BANNER_SHARE = 0.5;
const BANNER_MIN_PAGES = 4;

/** Sentence ends: a title has none ("평균은 무게중심입니다." and "평균은 무게중심이다" are body text). */
const FINAL_PUNCTUATION = /[.。,，;；:：…!！、]$/u;
const SENTENCE_ENDING = /(?:습니다|니다|이다|한다|된다|였다|했다|있다|없다|같다|세요|어요|아요|해요|니까)$/u;
const SYMBOL_BULLET = /^[-*•·‣▪◦●○■□▶►➢✓]\s*/u;
const LINK = /https?:\/\/|www\.|\S@\S/iu;

function clean(line: string): string {
  return line.replace(/\s+/gu, ' ').trim();
}

/**
 * True for a line that could be a title: short, mostly letters, no formula, no sentence end, not a bullet or a
 * link, and not itself a generic label such as "Slide 5". A question mark is allowed only on a larger line
 * ("Why normalise?" as a slide title), since a plain line ending in "?" is usually a question in the text.
 */
export function isHeadingLike(line: string, options: { larger?: boolean } = {}): boolean {
  const text = clean(line);
  if (text.length < MIN_TITLE_LETTERS || text.length > MAX_TITLE_LENGTH) return false;
  const visible = text.replace(/\s/gu, '');
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  if (letters < MIN_TITLE_LETTERS || letters < visible.length / 2) return false;
  if (text.includes('=') || LINK.test(text) || SYMBOL_BULLET.test(text)) return false;
  if (FINAL_PUNCTUATION.test(text) || SENTENCE_ENDING.test(text)) return false;
  if (/[?？]$/u.test(text) && !options.larger) return false;
  return !isGenericTitle(text);
}

export class PageHeadings {
  private readonly running: RunningLines;
  private readonly banners: Set<string>;

  constructor(private readonly pages: readonly ExtractedPage[]) {
    this.running = new RunningLines(pages.map((page) => page.text).join('\n\n'));
    const pagesByLine = new Map<string, number>();
    for (const page of pages) {
      for (const text of new Set(page.headings.map((line) => clean(line.text)))) pagesByLine.set(text, (pagesByLine.get(text) ?? 0) + 1);
    }
    const bannerPages = pages.length >= BANNER_MIN_PAGES ? pages.length * BANNER_SHARE : Number.POSITIVE_INFINITY;
    this.banners = new Set([...pagesByLine].filter(([, count]) => count > bannerPages).map(([text]) => text));
  }

  /** The page's title (0-based page), or null when nothing on it reads like one. */
  titleOf(pageIndex: number): string | null {
    const page = this.pages[pageIndex];
    if (!page) return null;
    const larger = this.largerLines(page);
    const lines = page.text.split('\n').map(clean).filter((line) => line.length > 0);
    const inReadingOrder = [...lines.filter((line) => larger.includes(line)), ...larger];
    const heading = inReadingOrder.find((line) => isHeadingLike(line, { larger: true }));
    if (heading !== undefined) return heading;
    const first = lines.find((line) => !this.running.has(line));
    return first !== undefined && isHeadingLike(first) ? first : null;
  }

  /** The largest title-like line of the page (a cover's title), else its title as `titleOf` finds it. */
  largestTitleOf(pageIndex: number): string | null {
    const page = this.pages[pageIndex];
    if (!page) return null;
    const largest = [...page.headings]
      .sort((a, b) => b.size - a.size)
      .map((line) => clean(line.text))
      // No running-line check: a deck's title often also runs in every footer, and is still its title.
      .find((text) => !this.banners.has(text) && isHeadingLike(text, { larger: true }));
    return largest ?? this.titleOf(pageIndex);
  }

  private largerLines(page: ExtractedPage): string[] {
    return page.headings.map((line) => clean(line.text)).filter((text) => !this.banners.has(text));
  }
}
