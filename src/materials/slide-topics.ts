import { stemmer } from 'stemmer';
import { contentTerms } from '../text/index.js';
import { isFrontMatterTitle, isGenericTitle } from './generic-titles.js';

/**
 * Chapters of a slide deck by topic. A deck has a title on nearly every slide, so "a heading starts a chapter" gives
 * thirty one-slide chapters, and merging them by size cuts topics at random ("Gradient Ascent" holding the start of
 * "Genetic Algorithms"). Here the deck is cut where its topic shifts:
 *
 * - the deck's own structure first: a section divider (a title with next to no body), a repeated outline slide, a
 *   "What is …?" / "…이란?" opener, a closing summary or discussion, and the end of a run of slides on one titled topic
 *   ("Causes: …" ×4) open a chapter; slides on one titled topic, and a divider with what follows it, stay together;
 * - else, as TextTiling does, the dips of cohesion between neighbouring slides: each slide is a term vector of its
 *   title (weighted) and body with idf weights (a course name on every slide weighs nothing), a gap's cohesion mixes
 *   the cosine of the three slides on each side with the lexical chains spanning it (a topic's words recurring a
 *   few slides apart), and the deepest dips are cut while deeper than the deck's average or while the deck still has
 *   fewer chapters than its size needs; no chapter is left shorter than its minimum;
 * - a chapter is named after its divider, else the topic at least half its titles share, else the deck's agenda
 *   item aligned with it (in order, by how much of the chapter's weight the item's words carry: a word mentioned in
 *   passing does not name a chapter), else its opening slide (where a lecturer introduces the topic).
 * Front matter (cover, agenda, "Questions?") is never a chapter: it joins the chapter it precedes, or the last one.
 * `npm run eval:chapters` measures the cuts on tagged development and frozen decks.
 */

export interface SlideUnit {
  /** 0-based page where the unit starts; units are in page order and the first starts at 0. */
  start: number;
  /** The unit's title (its bookmark or its page's own title), null when nothing reads like one. */
  title: string | null;
  /** Extracted text of the unit's pages. */
  text: string;
}

export interface TopicChapter {
  /** 0-based first page. */
  start: number;
  title: string;
}

export interface TopicOptions {
  pageCount: number;
  maxChapters: number;
}

/** Slide titles that name a kind of slide, not a topic: they never name a chapter. */
const KIND_TITLE =
  /^(?:examples?|an example|example \d+|exercises?|quiz|demo|discussion|recap|review|summary|in summary|summary and outlook|conclusions?|key takeaways?|takeaways?|next (?:time|lecture|week)|예제|예시|연습\s*문제|문제|정리|요약|복습|토론|마무리|다음\s*시간)$/iu;

const TITLE_WEIGHT = 3;
/** Weights of the slides on each side of a gap, nearest first. */
const WINDOW = [1, 0.6, 0.3];
/** Weight of the lexical chains against the windows' cosine in a gap's cohesion. */
const CHAIN_SHARE = 0.5;
/** Added to a gap's cohesion when both titles open with the same word ("공급의 개념", "공급 곡선"). */
const HEAD_BONUS = 0.25;
/** English stems are cut to this many letters, so "mitochondria" and "mitochondrial" meet. */
const STEM_LETTERS = 7;
/** A divider carries at most this much text besides its title (a Hangul syllable counts as two letters). */
const DIVIDER_LETTERS = 30;

export function planSlideTopics(units: readonly SlideUnit[], options: TopicOptions): TopicChapter[] | null {
  if (units.length < 2) return null;
  const front = units.map((unit, index) => isFront(unit, index, units));
  const content = units.map((_, index) => index).filter((index) => !front[index]);
  if (content.length === 0) return null;

  const vectors = termVectors(content.map((index) => units[index] as SlideUnit));
  const isDivider = dividerTest(units);
  const dividers = content.map((index) => isDivider(units[index] as SlideUnit));
  // An "Outline" slide in the middle of the deck opens the section that follows it.
  const openedByFront = content.map((index, position) => position > 0 && front[index - 1] === true && index - 1 > (content[position - 1] ?? -1));

  // Gap g lies between content[g] and content[g + 1]; cutting it starts a chapter at content[g + 1].
  const chains = chainCohesion(vectors);
  const title = (position: number) => units[content[position] as number]?.title ?? null;
  const together = (position: number) => sameTopic(title(position), title(position + 1));
  // A run of at least three slides on one titled topic ("Causes: …" ×4) is a section: it ends where the run does,
  // unless an example of it follows.
  const runEnds = (gap: number) =>
    !together(gap) && gap >= 1 && together(gap - 1) && (gap < 2 || together(gap - 2) || together(gap + 1)) && !isKind(title(gap + 1));
  // "What is …?" slides open sections, unless the deck is made of them.
  const openers = content.filter((index) => isOpener(units[index]?.title ?? null)).length * 3 <= content.length;
  const gaps: Gap[] = [];
  for (let gap = 0; gap + 1 < content.length; gap += 1) {
    const before = sum(WINDOW.map((weight, offset) => scaled(vectors[gap - offset], weight)));
    const after = sum(WINDOW.map((weight, offset) => scaled(vectors[gap + 1 + offset], weight)));
    gaps.push({
      cohesion:
        CHAIN_SHARE * (chains[gap] ?? 0) +
        (1 - CHAIN_SHARE) * cosine(before, after) +
        (sameHead(title(gap), title(gap + 1)) ? HEAD_BONUS : 0),
      // A divider belongs with what follows it, and slides on one titled topic stay together.
      keep: dividers[gap] === true || together(gap),
      // A divider or a mid-deck outline opens a section, and so does the end of a run of slides on one titled topic
      // when another run starts ("Mean" ×6 then "Median" ×6).
      cut:
        dividers[gap + 1] === true ||
        openedByFront[gap + 1] === true ||
        (openers && isOpener(title(gap + 1))) ||
        isCloser(title(gap)) ||
        runEnds(gap),
    });
  }
  const boundaries = chooseBoundaries(gaps, content.length, options);
  const groups: number[][] = [];
  let current: number[] = [];
  content.forEach((unitIndex, position) => {
    if (boundaries.has(position) && current.length > 0) {
      groups.push(current);
      current = [];
    }
    current.push(unitIndex);
  });
  if (current.length > 0) groups.push(current);

  const agenda = agendaItems(units, front);
  const agendaTitles = alignAgenda(agenda, groups.map((group) => sum(group.map((unitIndex) => vectors[content.indexOf(unitIndex)]))));
  return groups.map((group, index) => {
    // A chapter starts at its first unit, or at the front matter right before it (a cover, a mid-deck outline).
    let startUnit = group[0] as number;
    const previousContent = index === 0 ? -1 : (groups[index - 1]?.at(-1) as number);
    while (startUnit - 1 > previousContent && front[startUnit - 1]) startUnit -= 1;
    if (index === 0) startUnit = 0;
    return { start: units[startUnit]?.start ?? 0, title: chapterTitle(group, units, isDivider, agendaTitles[index] ?? null) };
  });
}

function isFront(unit: SlideUnit, index: number, units: readonly SlideUnit[]): boolean {
  const title = unit.title?.replace(/\s+/gu, ' ').trim() ?? '';
  if (title.length > 0 && isFrontMatterTitle(title)) return true;
  // The first page of a deck is its cover unless its title continues on the next slide.
  if (index === 0 && units.length > 2) return !sameTopic(unit.title, units[1]?.title ?? null);
  return false;
}

/** Letters of a unit's text besides its title; a Hangul syllable counts as two, for it says about as much. */
function bodyWeight(unit: SlideUnit): number {
  const body = unit.title ? unit.text.replace(unit.title, '') : unit.text;
  return (body.match(/\p{L}/gu) ?? []).length + (body.match(/[\uac00-\ud7a3]/gu) ?? []).length;
}

/** A section divider: a title with next to no text, on a deck whose slides otherwise say much more. */
function dividerTest(units: readonly SlideUnit[]): (unit: SlideUnit) => boolean {
  const weights = units.map(bodyWeight).sort((a, b) => a - b);
  const median = weights[Math.floor(weights.length / 2)] ?? 0;
  return (unit) => unit.title !== null && bodyWeight(unit) <= Math.min(DIVIDER_LETTERS, median / 4);
}

interface Gap {
  /** How much the slides on both sides share (0 = nothing). */
  cohesion: number;
  /** Never cut here. */
  keep: boolean;
  /** Cut here whenever the chapters on both sides stay long enough. */
  cut: boolean;
}

/**
 * Content positions that start a chapter, chosen by depth (TextTiling): how far the cohesion dips below the highest
 * point on each side. Cuts keep every chapter at least `minimum` units long, and go on while deeper than the average
 * dip or while the deck still has fewer chapters than a deck of its size needs.
 */
function chooseBoundaries(gaps: readonly Gap[], count: number, options: TopicOptions): Set<number> {
  const minimum = count >= 9 ? 3 : 2;
  const maxChapters = Math.max(1, Math.min(options.maxChapters, Math.floor(count / minimum)));
  const minChapters = Math.min(maxChapters, count >= 12 ? Math.max(2, Math.round(count / 10)) : 1);
  const curve = gaps.map((gap) => gap.cohesion);
  const depths = curve.map((value, index) => {
    let left = value;
    for (let at = index - 1; at >= 0 && (curve[at] as number) >= left; at -= 1) left = curve[at] as number;
    let right = value;
    for (let at = index + 1; at < curve.length && (curve[at] as number) >= right; at += 1) right = curve[at] as number;
    return left - value + (right - value);
  });
  const positive = depths.filter((depth, index) => depth > 0 && !gaps[index]?.keep);
  const average = positive.length > 0 ? positive.reduce((total, depth) => total + depth, 0) / positive.length : Infinity;
  const order = gaps
    .map((gap, index) => ({ index, depth: depths[index] ?? 0, cut: gap.cut, keep: gap.keep }))
    .filter((gap) => !gap.keep)
    // On a tie the later gap: a slide that shares nothing with either side goes on with the section it follows.
    .sort((a, b) => Number(b.cut) - Number(a.cut) || b.depth - a.depth || (curve[a.index] ?? 0) - (curve[b.index] ?? 0) || b.index - a.index);
  const cuts: number[] = [];
  const fits = (position: number) => {
    const sorted = [0, ...cuts, position, count].sort((a, b) => a - b);
    return sorted.every((value, index) => index === 0 || value - (sorted[index - 1] as number) >= minimum);
  };
  for (const { index, depth, cut } of order) {
    if (cuts.length + 1 >= maxChapters) break;
    const enough = cuts.length + 1 >= minChapters;
    if (!cut && (depth <= 0 || (enough && depth < average))) continue;
    if (fits(index + 1)) cuts.push(index + 1);
  }
  return new Set(cuts);
}

type Vector = Map<string, number>;

/**
 * A text's terms for comparing slides: English words stemmed and cut to STEM_LETTERS; Korean words without their
 * particles, plus the first two syllables of a longer one, so the compounds of a topic meet (수요량 and 수요 곡선).
 */
function terms(text: string): string[] {
  return contentTerms(text)
    .filter((term) => /\p{L}/u.test(term) && Array.from(term).length >= 2)
    .flatMap((term) => {
      if (/^[a-z]+$/u.test(term)) return [stemmer(term).slice(0, STEM_LETTERS)];
      const syllables = Array.from(term);
      return syllables.length >= 3 && /^[\uac00-\ud7a3]+$/u.test(term) ? [term, syllables.slice(0, 2).join('')] : [term];
    });
}

function termVectors(units: readonly SlideUnit[]): Vector[] {
  const raw = units.map((unit) => {
    const vector: Vector = new Map();
    const title = unit.title ?? '';
    const body = title ? unit.text.replace(title, ' ') : unit.text;
    for (const term of terms(body)) vector.set(term, (vector.get(term) ?? 0) + 1);
    for (const term of terms(title)) vector.set(term, (vector.get(term) ?? 0) + TITLE_WEIGHT);
    return vector;
  });
  const idf = inverseDocumentFrequency(raw);
  return raw.map((vector) => new Map([...vector].map(([term, count]) => [term, count * (idf.get(term) ?? 0)])));
}

function inverseDocumentFrequency(vectors: readonly Vector[]): Map<string, number> {
  const frequency = new Map<string, number>();
  for (const vector of vectors) for (const term of vector.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const total = vectors.length;
  return new Map([...frequency].map(([term, count]) => [term, Math.log((total + 1) / count)]));
}

function scaled(vector: Vector | undefined, factor: number): Vector | undefined {
  return vector && new Map([...vector].map(([term, value]) => [term, value * factor]));
}

function sum(vectors: readonly (Vector | undefined)[]): Vector {
  const total: Vector = new Map();
  for (const vector of vectors) if (vector) for (const [term, value] of vector) total.set(term, (total.get(term) ?? 0) + value);
  return total;
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  for (const [term, value] of a) dot += value * (b.get(term) ?? 0);
  const norm = (vector: Vector) => Math.sqrt([...vector.values()].reduce((total, value) => total + value * value, 0));
  const product = norm(a) * norm(b);
  return product === 0 ? 0 : dot / product;
}

/**
 * The topic a title names: the part before a colon or dash ("Genetic Algorithms: Crossover"), without a trailing
 * number or "(cont.)" ("A* Search (cont.)", "평균 2").
 */
export function titleTopic(title: string): string {
  return displayTopic(title).toLowerCase();
}

function sameTopic(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  const left = titleTopic(a);
  const right = titleTopic(b);
  if (left.length === 0 || right.length === 0) return false;
  if (left === right) return true;
  // "Genetic Algorithms" and "Genetic Algorithm Operators": the shorter topic's terms all appear in the longer.
  const leftTerms = new Set(terms(left));
  const rightTerms = new Set(terms(right));
  const [small, large] = leftTerms.size <= rightTerms.size ? [leftTerms, rightTerms] : [rightTerms, leftTerms];
  return small.size >= 2 && [...small].every((term) => large.has(term));
}

/** Titles that introduce a topic: "What is a heuristic?", "지도학습이란?", "Introduction to …", "… 개요". */
const OPENER_TITLE = /^(?:what (?:is|are)\b.+|introduc(?:tion|ing)\b.+|.+(?:이란|란)\s*(?:무엇인가|무엇일까)\s*[?？]?|.+(?:이란|란)\s*[?？]|.+\s(?:개요|소개|입문))$/iu;

/** Slides that close a section: a summary, a recap, a discussion or a quiz in the middle of a deck. */
const CLOSER_TITLE = /^(?:summary|in summary|recap|review|discussion|discussion questions?|key takeaways?|takeaways?|check your understanding|quiz|exercises?|practice(?: problems)?|정리|요약|토론|복습|확인\s*문제|생각해\s*(?:보기|봅시다))\s*[?？!]?$/iu;

/** A slide named after its kind ("Example: …", "Exercises"), not a topic. */
function isKind(title: string | null): boolean {
  return title !== null && KIND_TITLE.test(displayTopic(title));
}

function isCloser(title: string | null): boolean {
  return title !== null && CLOSER_TITLE.test(title.replace(/\s+/gu, ' ').trim());
}

function isOpener(title: string | null): boolean {
  return title !== null && OPENER_TITLE.test(title.replace(/\s+/gu, ' ').trim());
}

/** Titles that open with the same topic word, a hint (not a rule) that the slides go on with one topic. */
function sameHead(a: string | null, b: string | null): boolean {
  if (!a || !b || isKind(a) || isKind(b)) return false;
  const [left] = terms(a);
  const [right] = terms(b);
  return left !== undefined && left === right;
}

function usableTitle(title: string | null): title is string {
  if (!title) return false;
  const text = title.replace(/\s+/gu, ' ').trim();
  return text.length > 0 && !isFrontMatterTitle(text) && !KIND_TITLE.test(text) && !isGenericTitle(text);
}

/**
 * A chapter's name: its divider's title; else the topic at least half of its titles share ("Genetic Algorithms");
 * else the deck's agenda item for it; else the title of its first slide that names a topic, which is where a
 * lecturer introduces it ("Heuristics" before "Greedy Best-First Search").
 */
function chapterTitle(group: readonly number[], units: readonly SlideUnit[], isDivider: (unit: SlideUnit) => boolean, agendaTitle: string | null): string {
  const titles = group.map((index) => units[index]?.title ?? null);
  const first = units[group[0] as number];
  if (first && isDivider(first) && usableTitle(first.title)) return topicName(first.title);
  const topics = new Map<string, { count: number; text: string }>();
  for (const title of titles) {
    if (!usableTitle(title)) continue;
    const topic = titleTopic(title);
    const entry = topics.get(topic);
    if (entry) entry.count += 1;
    else topics.set(topic, { count: 1, text: displayTopic(title) });
  }
  const [top] = [...topics.values()].sort((a, b) => b.count - a.count);
  if (top && top.count >= 2 && top.count * 2 >= group.length) return top.text;
  if (agendaTitle) return agendaTitle;
  const opening = titles.find(usableTitle);
  return topicName(opening ?? titles.find((title): title is string => Boolean(title)) ?? '');
}

/** A title as a chapter name: an opener's question becomes its topic ("지도학습이란?" → "지도학습"). */
function topicName(title: string): string {
  const text = clean(title);
  const what = /^what (?:is|are) (?:an? |the )?(.+?)\s*[?？]$/iu.exec(text)?.[1];
  if (what) return what.charAt(0).toUpperCase() + what.slice(1);
  const korean = /^(.+?)(?:이란|란)\s*(?:(?:무엇인가|무엇일까)\s*[?？]?|[?？])$/u.exec(text)?.[1];
  return korean && /[\uac00-\ud7a3]$/u.test(korean) ? korean : text;
}

/** The items an agenda or 목차 slide lists: its short lines after the title, without numbering or bullets. */
function agendaItems(units: readonly SlideUnit[], front: readonly boolean[]): string[] {
  const agenda = units.find((unit, index) => front[index] && unit.title !== null && AGENDA_TITLE.test(clean(unit.title)));
  if (!agenda?.title) return [];
  return agenda.text
    .split('\n')
    .map((line) =>
      clean(line)
        .replace(/^(?:[-*•·‣▪◦●○■□▶►]|\d{1,2}[.)]|[①-⑳])\s*/u, '')
        // A table of contents' dotted leader and page number: "뉴턴의 운동 법칙 .......... 6".
        .replace(/\s*(?:[.·…]{3,}|\s[.·…]\s)\s*\d*\s*$/u, '')
        .trim(),
    )
    .filter((line) => line.length >= 2 && line.length <= 60 && line !== clean(agenda.title as string) && /\p{L}/u.test(line));
}

const AGENDA_TITLE = /^(?:목차|차례|contents|table of contents|agenda|outline|overview|today'?s agenda|today'?s topics)$/iu;

/**
 * Agenda items matched to chapters in order (both run through the deck in the same order): the monotone alignment
 * with the most shared weight, an item's weight in a chapter being the share of the chapter's term weight its words
 * carry. Counting shared words instead lets a word a chapter mentions once in passing ("scheduled" on a threads slide)
 * outvote the word its slides are about, and every later item then lands one chapter early. A chapter gets an item
 * only when they share a word, or when the agenda lists exactly one item per chapter and most pairs share one (then
 * the deck follows its agenda).
 */
function alignAgenda(items: readonly string[], chapters: readonly Vector[]): (string | null)[] {
  const result: (string | null)[] = chapters.map(() => null);
  if (items.length === 0) return result;
  const share = (item: string, chapter: Vector) => {
    const whole = [...chapter.values()].reduce((total, value) => total + value, 0);
    const carried = [...new Set(terms(item))].reduce((total, term) => total + (chapter.get(term) ?? 0), 0);
    return whole === 0 ? 0 : carried / whole;
  };
  const score = chapters.map((chapter) => items.map((item) => share(item, chapter)));
  if (items.length === chapters.length) {
    const matching = score.filter((row, index) => (row[index] ?? 0) > 0).length;
    if (matching * 2 > chapters.length) return items.map((item) => item);
  }
  // best[c][i]: the most overlap aligning chapters < c with items < i.
  const best = chapters.map(() => new Array<number>(items.length + 1).fill(0));
  best.push(new Array<number>(items.length + 1).fill(0));
  for (let c = chapters.length - 1; c >= 0; c -= 1) {
    for (let i = items.length - 1; i >= 0; i -= 1) {
      const take = (score[c]?.[i] ?? 0) > 0 ? (score[c]?.[i] ?? 0) + (best[c + 1]?.[i + 1] ?? 0) : -Infinity;
      (best[c] as number[])[i] = Math.max(take, best[c + 1]?.[i] ?? 0, best[c]?.[i + 1] ?? 0);
    }
  }
  for (let c = 0, i = 0; c < chapters.length && i < items.length; ) {
    const here = best[c]?.[i] ?? 0;
    if ((score[c]?.[i] ?? 0) > 0 && here === (score[c]?.[i] ?? 0) + (best[c + 1]?.[i + 1] ?? 0)) {
      result[c] = items[i] ?? null;
      c += 1;
      i += 1;
    } else if (here === (best[c + 1]?.[i] ?? 0)) c += 1;
    else i += 1;
  }
  return result;
}

function clean(title: string): string {
  return title.replace(/\s+/gu, ' ').trim();
}

/** A topic as written in its first title ("Genetic Algorithms" from "Genetic Algorithms: Crossover"). */
function displayTopic(title: string): string {
  const text = clean(title);
  const head = /^(.{3,}?)\s*(?::|：|\s[-–—]\s)\s*\S/u.exec(text)?.[1] ?? text;
  return head
    .replace(/\s*[([]?\s*(?:계속|cont(?:inued|'d|\.)?)\s*[)\]]?\s*$/iu, '')
    .replace(/(?:\s+|\s*[-–—#.]\s*)\d+(?:\s*\/\s*\d+)?$/u, '')
    .replace(/\s*\(\d+\)$/u, '')
    .trim();
}

/** Maximum distance (in units) between two occurrences of a term that still link them into one chain. */
const CHAIN_GAP = 3;

/**
 * Lexical chains: a term's occurrences less than CHAIN_GAP units apart form a chain; the cohesion at a gap is the
 * share of the chains' weight (idf) that spans it, so a topic's own words tie its slides together even when no two
 * neighbours share much.
 */
function chainCohesion(vectors: readonly Vector[]): number[] {
  const spans = new Array<number>(Math.max(0, vectors.length - 1)).fill(0);
  const positions = new Map<string, number[]>();
  vectors.forEach((vector, position) => {
    for (const term of vector.keys()) {
      const list = positions.get(term);
      if (list) list.push(position);
      else positions.set(term, [position]);
    }
  });
  const idf = inverseDocumentFrequency(vectors);
  for (const [term, list] of positions) {
    const weight = idf.get(term) ?? 0;
    for (let index = 1; index < list.length; index += 1) {
      const from = list[index - 1] as number;
      const to = list[index] as number;
      if (to - from > CHAIN_GAP) continue;
      for (let gap = from; gap < to; gap += 1) spans[gap] = (spans[gap] ?? 0) + weight;
    }
  }
  const peak = Math.max(0, ...spans);
  return peak === 0 ? spans : spans.map((value) => value / peak);
}
