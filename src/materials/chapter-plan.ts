import { isFrontMatterTitle, isGenericTitle } from './generic-titles.js';
import { PageHeadings } from './page-headings.js';
import { planSlideTopics, type TopicChapter } from './slide-topics.js';
import type { Chapter, ExtractedOutlineItem, ExtractedPdf } from './types.js';

/**
 * Chapter planning from what the PDF itself says: its outline, else its headings (by font size), else even page
 * windows. (The analyst agent sits between headings and windows; see analyst.ts and material-service.ts.)
 * Bookmarks that only name a position ("Slide 5–8", "3페이지", "Untitled") take the title of their first page
 * instead (page-headings.ts); real bookmark titles are kept as written.
 * Whatever the source, the result covers pages 1..pageCount exactly once, in order, with non-empty titles —
 * `chapterProblems` checks exactly that and the property tests pin it.
 */

export const MAX_CHAPTERS = 12;
/** Only lines at least this much larger than the body text count as chapter headings. */
const HEADING_RATIO = 1.25;
const MAX_TITLE_LENGTH = 120;

/** A run of pages starting at `start` (0-based) up to the next segment's start; `titles` merge with it. */
export interface Segment {
  start: number;
  titles: string[];
}

export interface MergeOptions {
  /** Segments smaller than this are merged into a neighbour. */
  minPages: number;
  maxChapters: number;
}

/**
 * The smallest chapter size that still makes sense: 3 pages, less for tiny documents; for slide decks exported with
 * one bookmark per slide, about an eighth of the deck, so a deck becomes a handful of chapters.
 */
export function minimumPages(segmentSizes: readonly number[], pageCount: number): number {
  const base = Math.max(1, Math.min(3, Math.floor(pageCount / 3)));
  return isSlideDeck(segmentSizes) ? Math.max(base, Math.ceil(pageCount / 8)) : base;
}

/**
 * Merges segments until every one has at least `minPages` pages and there are at most `maxChapters`: always the
 * smallest segment first, into its smaller neighbour, so real chapters of reasonable size survive untouched.
 */
export function mergeSegments(segments: readonly Segment[], pageCount: number, options: MergeOptions): Chapter[] {
  const work = segments.map((segment) => ({ start: segment.start, titles: [...segment.titles] }));
  const sizeOf = (index: number) => (work[index + 1]?.start ?? pageCount) - (work[index]?.start ?? 0);
  for (;;) {
    if (work.length <= 1) break;
    const tooMany = work.length > options.maxChapters;
    let victim = -1;
    for (let index = 0; index < work.length; index += 1) {
      const size = sizeOf(index);
      if (!tooMany && size >= options.minPages) continue;
      if (victim === -1 || size < sizeOf(victim)) victim = index;
    }
    if (victim === -1) break;
    const previous = victim - 1;
    const next = victim + 1;
    // Into the neighbour on the same topic ("평균 3" next to "평균 4"), else the smaller one; on a tie, the
    // previous one (a short tail usually continues what came before).
    const sameTopic = (left: number, right: number) => {
      const a = work[left]?.titles.at(-1);
      const b = work[right]?.titles[0];
      return a !== undefined && b !== undefined && topicOf(a).topic === topicOf(b).topic;
    };
    const previousMatches = previous >= 0 && sameTopic(previous, victim);
    const nextMatches = next < work.length && sameTopic(victim, next);
    const intoPrevious =
      next >= work.length ||
      (previous >= 0 &&
        (previousMatches !== nextMatches ? previousMatches : sizeOf(previous) <= sizeOf(next)));
    const left = intoPrevious ? previous : victim;
    const right = left + 1;
    const leftSegment = work[left];
    const rightSegment = work[right];
    if (!leftSegment || !rightSegment) break;
    leftSegment.titles.push(...rightSegment.titles);
    work.splice(right, 1);
  }
  // A one-page first segment on a topic of its own is the cover: its title is the document's, and names no chapter
  // it was merged into (a first slide "평균 1" before "평균 2" is content, not a cover).
  const [head, after] = segments;
  const ownTopic = head !== undefined && after !== undefined && head.titles.every((title) => after.titles.every((other) => topicOf(title).topic !== topicOf(other).topic));
  const cover = head?.start === 0 && (after?.start ?? pageCount) === 1 && ownTopic ? new Set(head.titles) : new Set<string>();
  // A chapter that is only about the course or the document (목차, Agenda, 평가 방법) teaches nothing of its own: it
  // joins the chapter after it (the last one, the chapter before), so no chapter is called "목차". The cover counts as
  // front matter in the first chapter.
  for (let index = 0; index < work.length && work.length > 1; ) {
    const segment = work[index];
    const front = (title: string) => isFrontMatterTitle(title) || (index === 0 && cover.has(title));
    if (!segment || segment.titles.length === 0 || !segment.titles.every(front)) {
      index += 1;
      continue;
    }
    const into = index + 1 < work.length ? index + 1 : index - 1;
    const target = work[into];
    if (!target) break;
    if (into > index) {
      target.start = segment.start;
      target.titles.unshift(...segment.titles);
    } else target.titles.push(...segment.titles);
    work.splice(index, 1);
  }
  return work.map((segment, index) => {
    const startPage = segment.start + 1;
    const endPage = (work[index + 1]?.start ?? pageCount) as number;
    const named = index === 0 ? segment.titles.filter((title, at) => at >= cover.size || !cover.has(title)) : segment.titles;
    return { index, title: chapterTitle(named.length > 0 ? named : segment.titles, startPage, endPage), startPage, endPage };
  });
}

/** Removes a trailing slide number or "(계속)" so "평균 1", "평균 2", "평균 (계속)" read as one topic. */
function topicOf(title: string): { topic: string; number: string | null } {
  const withoutContinued = title.replace(/\s*[([]?\s*(계속|cont(inued|'d|\.)?)\s*[)\]]?\s*$/i, '').trim();
  const numbered = /^(.*?[^\d\s])(?:\s+|\s*[-–—:.#]\s*)(\d+)(?:\s*\/\s*\d+)?$/.exec(withoutContinued);
  if (numbered?.[1] && numbered[2]) return { topic: numbered[1], number: numbered[2] };
  return { topic: withoutContinued || title, number: null };
}

/** A merged chapter's title: "A", "A · B", or "A 외 N개 주제"; runs of one topic read "평균 1–8". */
export function chapterTitle(titles: readonly string[], startPage: number, endPage: number): string {
  const all = titles.map((title) => title.replace(/\s+/g, ' ').trim()).filter((title) => title.length > 0);
  const topical = all.filter((title) => !isFrontMatterTitle(title));
  const cleaned = topical.length > 0 ? topical : all;
  const groups: { topic: string; first: string; firstNumber: string | null; lastNumber: string | null; count: number }[] = [];
  for (const title of cleaned) {
    const { topic, number } = topicOf(title);
    const last = groups[groups.length - 1];
    if (last && last.topic === topic) {
      last.count += 1;
      last.lastNumber = number ?? last.lastNumber;
    } else groups.push({ topic, first: title, firstNumber: number, lastNumber: number, count: 1 });
  }
  const names = groups.map((group) => {
    if (group.count === 1) return group.first;
    const numbered = group.firstNumber !== null && group.lastNumber !== null && group.firstNumber !== group.lastNumber;
    return numbered ? `${group.topic} ${group.firstNumber}–${group.lastNumber}` : group.topic;
  });
  const [first, second] = names;
  let title: string;
  if (first === undefined) title = pageRangeLabel(startPage, endPage);
  else if (second === undefined) title = first;
  else if (names.length === 2) title = `${first} · ${second}`;
  else title = `${first} 외 ${names.length - 1}개 주제`;
  return title.length > MAX_TITLE_LENGTH ? `${title.slice(0, MAX_TITLE_LENGTH - 1)}…` : title;
}

export function pageRangeLabel(startPage: number, endPage: number): string {
  return startPage === endPage ? `${startPage}쪽` : `${startPage}–${endPage}쪽`;
}

/**
 * Sorts starts, folds entries that share a page, and makes the first segment start at page 0: a short lead-in
 * (a cover) joins the first chapter; a long one becomes its own "들어가며" chapter.
 */
export function normaliseSegments(entries: readonly Segment[], pageCount: number): Segment[] {
  const sorted = entries
    .filter((entry) => Number.isInteger(entry.start) && entry.start >= 0 && entry.start < pageCount)
    .map((entry, order) => ({ ...entry, order }))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  const segments: Segment[] = [];
  for (const entry of sorted) {
    const last = segments[segments.length - 1];
    if (last && last.start === entry.start) last.titles.push(...entry.titles);
    else segments.push({ start: entry.start, titles: [...entry.titles] });
  }
  const first = segments[0];
  if (first && first.start > 0) {
    if (first.start >= minimumPages([], pageCount)) segments.unshift({ start: 0, titles: ['들어가며'] });
    else first.start = 0;
  }
  return segments;
}

function sizesOf(segments: readonly Segment[], pageCount: number): number[] {
  return segments.map((segment, index) => (segments[index + 1]?.start ?? pageCount) - segment.start);
}

function planSegments(entries: readonly Segment[], extracted: ExtractedPdf, maxChapters: number): Chapter[] | null {
  const { pageCount } = extracted;
  const segments = normaliseSegments(entries, pageCount);
  if (segments.length < 2) return null;
  const sizes = sizesOf(segments, pageCount);
  // Topics matter once a deck has more slides than a lecture has chapters; a short deck keeps the size rule.
  if (isSlideDeck(sizes) && segments.length >= MIN_TOPIC_UNITS) {
    const units = segments.map((segment, index) => ({
      start: segment.start,
      title: segment.titles[0] ?? null,
      text: extracted.pages.slice(segment.start, segment.start + (sizes[index] ?? 1)).map((page) => page.text).join('\n'),
    }));
    const topics = planSlideTopics(units, { pageCount, maxChapters });
    if (topics) return topicChapters(topics, pageCount);
  }
  return mergeSegments(segments, pageCount, { minPages: minimumPages(sizes, pageCount), maxChapters });
}

/** Slides (entries) from which a deck is cut by topic rather than merged by size. */
const MIN_TOPIC_UNITS = 12;

/** A deck with a title on (nearly) every page: six or more entries, most of them one page long. */
function isSlideDeck(segmentSizes: readonly number[]): boolean {
  const singles = segmentSizes.filter((size) => size === 1).length;
  return segmentSizes.length >= 6 && singles >= segmentSizes.length * 0.6;
}

function topicChapters(topics: readonly TopicChapter[], pageCount: number): Chapter[] {
  return topics.map((topic, index) => {
    const endPage = topics[index + 1]?.start ?? pageCount;
    const title = topic.title.length > MAX_TITLE_LENGTH ? `${topic.title.slice(0, MAX_TITLE_LENGTH - 1)}…` : topic.title;
    return { index, title: title || pageRangeLabel(topic.start + 1, endPage), startPage: topic.start + 1, endPage };
  });
}

/** Short pages: a deck printed one slide per page, not a handout. */
const SLIDE_PAGE_LETTERS = 700;
/** Share of pages whose first line must read like a title for the deck to be planned from those lines. */
const TITLED_SHARE = 0.7;

/**
 * A deck with no outline and no larger heading font: each page's first line is its title when most pages start with
 * a title-like line and pages are short, as slides are.
 */
export function planFromPageTitles(extracted: ExtractedPdf, maxChapters = MAX_CHAPTERS): Chapter[] | null {
  const { pageCount, pages } = extracted;
  if (pageCount < MIN_TOPIC_UNITS) return null;
  const letters = pages.map((page) => (page.text.match(/\p{L}/gu) ?? []).length).sort((a, b) => a - b);
  if ((letters[Math.floor(letters.length / 2)] ?? 0) > SLIDE_PAGE_LETTERS) return null;
  const headings = new PageHeadings(pages);
  const units = pages.map((page, start) => ({ start, title: headings.titleOf(start), text: page.text }));
  if (units.filter((unit) => unit.title !== null).length < pageCount * TITLED_SHARE) return null;
  const topics = planSlideTopics(units, { pageCount, maxChapters });
  return topics ? topicChapters(topics, pageCount) : null;
}

/** The outline level that structures the document: the top level, or below a lone top-level entry (a book title). */
function structuringLevel(items: readonly ExtractedOutlineItem[]): readonly ExtractedOutlineItem[] {
  let level = items;
  for (let depth = 0; depth < 3; depth += 1) {
    const resolved = level.filter((item) => item.pageIndex !== null);
    const only = resolved.length === 1 ? resolved[0] : undefined;
    if (!only || only.children.filter((child) => child.pageIndex !== null).length < 2) break;
    level = only.children;
  }
  return level;
}

export function planFromOutline(extracted: ExtractedPdf, maxChapters = MAX_CHAPTERS): Chapter[] | null {
  const resolved = structuringLevel(extracted.outline).filter(
    (item): item is ExtractedOutlineItem & { pageIndex: number } => item.pageIndex !== null,
  );
  // Built only when some bookmark needs it: it reads every page's text once.
  let headings: PageHeadings | undefined;
  const entries = resolved.map((item) => {
    if (!isGenericTitle(item.title)) return { start: item.pageIndex, titles: [item.title] };
    headings ??= new PageHeadings(extracted.pages);
    // "Slide 1–4" starts on the cover, whose title is the material's, not the chapter's: its next page says more.
    const coverFirst = item.pageIndex === 0 && resolved.every((other) => other.pageIndex === 0 || other.pageIndex > 1);
    const title = (coverFirst ? headings.titleOf(1) : null) ?? headings.titleOf(item.pageIndex) ?? item.title;
    return { start: item.pageIndex, titles: title ? [title] : [] };
  });
  return planSegments(entries, extracted, maxChapters);
}

/**
 * Chapter headings are the largest font size that appears on at least two pages (a size used once is the cover's
 * title); each page carrying such a line starts a chapter named after it.
 */
export function planFromHeadings(extracted: ExtractedPdf, maxChapters = MAX_CHAPTERS): Chapter[] | null {
  const body = extracted.bodyFontSize;
  if (body <= 0) return null;
  const isHeading = (text: string, size: number) => size >= body * HEADING_RATIO && /\p{L}/u.test(text) && text.length <= 150;
  const pagesBySize = new Map<number, number>();
  for (const page of extracted.pages) {
    const sizes = new Set(page.headings.filter((line) => isHeading(line.text, line.size)).map((line) => line.size));
    for (const size of sizes) pagesBySize.set(size, (pagesBySize.get(size) ?? 0) + 1);
  }
  const chapterSize = [...pagesBySize].filter(([, pages]) => pages >= 2).map(([size]) => size).sort((a, b) => b - a)[0];
  if (chapterSize === undefined) return null;
  const entries: Segment[] = [];
  extracted.pages.forEach((page, start) => {
    const line = page.headings.find((candidate) => Math.abs(candidate.size - chapterSize) < 0.01 && isHeading(candidate.text, candidate.size));
    if (line) entries.push({ start, titles: [line.text] });
  });
  return planSegments(entries, extracted, maxChapters);
}

/** Even windows of about six pages (at most `maxChapters`), titled by page range and the window's first line. */
export function planByPages(pageCount: number, pageTexts: readonly string[] = [], maxChapters = MAX_CHAPTERS): Chapter[] {
  const count = Math.max(1, Math.min(maxChapters, Math.round(pageCount / 6), pageCount));
  const chapters: Chapter[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = Math.floor((index * pageCount) / count);
    const end = Math.floor(((index + 1) * pageCount) / count) - 1;
    const range = pageRangeLabel(start + 1, end + 1);
    const firstLine = (pageTexts[start] ?? '').split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).find((line) => line.length > 0);
    const useful = firstLine !== undefined && firstLine.length >= 4 && firstLine.length <= 60 && /\p{L}/u.test(firstLine);
    chapters.push({ index, title: useful ? `${firstLine} (${range})` : range, startPage: start + 1, endPage: end + 1 });
  }
  return chapters;
}

/** Why a chapter list does not tile pages 1..pageCount (empty when it does). */
export function chapterProblems(chapters: readonly Chapter[], pageCount: number): string[] {
  const problems: string[] = [];
  if (chapters.length === 0) problems.push('no chapters');
  let expected = 1;
  chapters.forEach((chapter, position) => {
    if (chapter.index !== position) problems.push(`chapter ${position} has index ${chapter.index}`);
    if (!Number.isInteger(chapter.startPage) || !Number.isInteger(chapter.endPage)) problems.push(`chapter ${position}: pages are not integers`);
    if (chapter.startPage < expected) problems.push(`chapter ${position} overlaps the previous one (starts at ${chapter.startPage})`);
    if (chapter.startPage > expected) problems.push(`gap before chapter ${position} (pages ${expected}–${chapter.startPage - 1})`);
    if (chapter.endPage < chapter.startPage) problems.push(`chapter ${position} ends before it starts`);
    if (chapter.title.trim().length === 0) problems.push(`chapter ${position} has no title`);
    expected = chapter.endPage + 1;
  });
  if (chapters.length > 0 && expected - 1 !== pageCount) problems.push(`chapters end at page ${expected - 1}, document has ${pageCount}`);
  return problems;
}

export interface PagePlan {
  source: 'outline' | 'headings';
  chapters: Chapter[];
}

/** The plan the document itself supports (outline, else headings), or null when it says nothing usable. */
export function planFromDocument(extracted: ExtractedPdf, maxChapters = MAX_CHAPTERS): PagePlan | null {
  const outline = planFromOutline(extracted, maxChapters);
  if (outline) return { source: 'outline', chapters: outline };
  const headings = planFromHeadings(extracted, maxChapters) ?? planFromPageTitles(extracted, maxChapters);
  if (headings) return { source: 'headings', chapters: headings };
  return null;
}
