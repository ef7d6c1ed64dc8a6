import { type Expr, UnsupportedMath, hasParseError, toExpr, variablesOf } from './expression.js';
import { readMath } from './latex-parser.js';
import { isProse, nestsTooDeep, normaliseAnswer } from './normalise.js';
import { type Region, intersection, intervalOf, relationRegion, union } from './regions.js';
import { LIST_SEPARATORS, outerBrackets, splitRelations, splitTopLevel } from './split.js';
import { type Unit, splitUnit } from './units.js';

/**
 * What an answer says, by shape: values (one number, or solutions of one variable, or a set), named values
 * (`a=2, b=3`), an equation, a region of the real line, a bracketed pair or tuple, or the empty set. Each shape is
 * compared only with the shapes it can mean the same as (`compare-answers.ts`).
 */
export interface Valued {
  expr: Expr;
  unit?: Unit;
}

export type Answer =
  | { kind: 'values'; variable?: string; values: Valued[]; set: boolean; thousands: boolean }
  | { kind: 'named'; entries: Map<string, Valued> }
  | { kind: 'equation'; left: Expr; right: Expr; solvedFor?: string }
  | { kind: 'region'; region: Region }
  | { kind: 'bracket'; open: string; close: string; items: Expr[] }
  | { kind: 'empty' };

/** More items than this in one answer is not an answer we compare (each item is parsed, and lists compare pairwise). */
export const MAX_ITEMS = 10;

/** Reads one formula (no units, no lists) into an expression. */
export function readExpr(text: string): Expr {
  if (text.trim() === '' || isProse(text)) throw new UnsupportedMath('not a formula');
  if (nestsTooDeep(text)) throw new UnsupportedMath('nested too deeply');
  const json = readMath(text);
  if (json === null || hasParseError(json)) throw new UnsupportedMath('unreadable');
  return toExpr(json);
}

function readValued(text: string): Valued {
  const { text: rest, unit } = splitUnit(text.trim());
  const expr = readExpr(rest);
  return unit === undefined ? { expr } : { expr, unit };
}

type Item =
  | { kind: 'value'; variable?: string; value: Valued }
  | { kind: 'equation'; left: Expr; right: Expr; solvedFor?: string }
  | { kind: 'region'; region: Region }
  | { kind: 'bracket'; open: string; close: string; items: string[] }
  | { kind: 'empty' };

const EMPTY = /^(?:\\emptyset|\\varnothing|\\\{\s*\\\})$/;
const REALS = /^\\mathbb\s*\{?R\}?$/;
const INFINITY = /^[+-]?\s*\\infty$/;

/** `x = 1 \pm \sqrt{2}` is two items; two ± signs in one item are too many to expand. */
function expandPlusMinus(text: string): string[] {
  const count = (text.match(/\\(?:pm|mp)(?![A-Za-z])/g) ?? []).length;
  if (count === 0) return [text];
  if (count > 1) throw new UnsupportedMath('more than one ±');
  const minusFirst = /\\mp(?![A-Za-z])/.test(text);
  const signs = minusFirst ? ['-', '+'] : ['+', '-'];
  return signs.map((sign) => text.replace(/\\(?:pm|mp)(?![A-Za-z])/, sign));
}

function readItem(text: string): Item {
  if (EMPTY.test(text)) return { kind: 'empty' };
  if (REALS.test(text)) return { kind: 'region', region: { intervals: [{ low: { value: -Infinity, closed: false }, high: { value: Infinity, closed: false } }] } };
  const member = /^([A-Za-z])\s*\\in\s*(.+)$/s.exec(text);
  if (member) {
    const region = readRegionText(member[2] as string);
    return { kind: 'region', region: { ...region, variable: member[1] as string } };
  }
  if (/\\cup(?![A-Za-z])/.test(text)) return { kind: 'region', region: readRegionText(text) };
  const { terms, operators } = splitRelations(text);
  if (operators.length > 0 && operators.some((operator) => operator !== '=')) {
    return { kind: 'region', region: relationRegion(terms, operators, readExpr) };
  }
  if (operators.length > 1) throw new UnsupportedMath('a chain of equations');
  if (operators.length === 1) {
    const [leftText, rightText] = terms as [string, string];
    const left = readExpr(leftText);
    if (left.kind === 'variable') {
      const value = readValued(rightText);
      if (variablesOf(value.expr).size === 0) return { kind: 'value', variable: left.name, value };
      if (value.unit !== undefined) throw new UnsupportedMath('a unit on a formula');
      const solvedFor = variablesOf(value.expr).has(left.name) ? {} : { solvedFor: left.name };
      return { kind: 'equation', left, right: value.expr, ...solvedFor };
    }
    return { kind: 'equation', left, right: readExpr(rightText) };
  }
  const brackets = outerBrackets(text);
  if (brackets && !brackets.open.includes('{')) {
    const { parts } = splitTopLevel(brackets.inner, [[',', ',']]);
    if (parts.length >= 2) return { kind: 'bracket', open: brackets.open, close: brackets.close, items: parts };
  }
  return { kind: 'value', value: readValued(text) };
}

/** `[1, 3)`, `(-\infty, 2] \cup (3, \infty)`, `\mathbb{R}`. */
function readRegionText(text: string): Region {
  const pieces = splitTopLevel(text, [['\\cup', 'or']]).parts;
  return union(
    pieces.map((piece) => {
      if (REALS.test(piece)) return { intervals: [{ low: { value: -Infinity, closed: false }, high: { value: Infinity, closed: false } }] };
      const brackets = outerBrackets(piece);
      const inner = brackets ? splitTopLevel(brackets.inner, [[',', ',']]).parts : [];
      if (!brackets || inner.length !== 2 || brackets.open.includes('{')) throw new UnsupportedMath('not an interval');
      return intervalOf(brackets.open, brackets.close, inner[0] as string, inner[1] as string, readExpr);
    }),
  );
}

/** `{1, 2}`, `\{1, 2\}`, `\{x \mid x > 2\}` around the whole answer. */
function readSet(text: string, thousands: boolean): Answer | undefined {
  const brackets = outerBrackets(text);
  if (!brackets || !brackets.open.includes('{')) return undefined;
  if (brackets.inner === '') return { kind: 'empty' };
  const builder = /^([A-Za-z])\s*(?:\\mid|\||:)\s*(.+)$/s.exec(brackets.inner);
  if (builder) {
    const answer = combine(splitItems(builder[2] as string), thousands);
    if (answer.kind !== 'region') throw new UnsupportedMath('an unusual set');
    return answer;
  }
  const answer = combine(splitItems(brackets.inner), thousands);
  if (answer.kind !== 'values' || answer.variable !== undefined) throw new UnsupportedMath('an unusual set');
  return { ...answer, set: true };
}

interface Items {
  items: Item[];
  connectors: string[];
}

function splitItems(text: string): Items {
  const { parts, connectors } = splitTopLevel(text, LIST_SEPARATORS);
  if (parts.length > MAX_ITEMS) throw new UnsupportedMath('too many items');
  const items: Item[] = [];
  const joins: string[] = [];
  parts.forEach((part, index) => {
    if (part === '') throw new UnsupportedMath('an empty item');
    const expanded = expandPlusMinus(part);
    expanded.forEach((piece, pieceIndex) => {
      if (items.length > 0) joins.push(pieceIndex > 0 ? 'or' : (connectors[index - 1] ?? ','));
      items.push(readItem(piece));
    });
  });
  if (items.length > MAX_ITEMS) throw new UnsupportedMath('too many items');
  return { items, connectors: joins };
}

function combine({ items, connectors }: Items, thousands: boolean): Answer {
  const [first] = items;
  if (first === undefined) throw new UnsupportedMath('nothing to read');
  if (items.length === 1) {
    switch (first.kind) {
      case 'value':
        return { kind: 'values', ...(first.variable === undefined ? {} : { variable: first.variable }), values: [first.value], set: false, thousands };
      case 'equation':
        return first.solvedFor === undefined
          ? { kind: 'equation', left: first.left, right: first.right }
          : { kind: 'equation', left: first.left, right: first.right, solvedFor: first.solvedFor };
      case 'region':
        return { kind: 'region', region: first.region };
      case 'empty':
        return { kind: 'empty' };
      case 'bracket':
        // An end at infinity makes it an interval; otherwise it is a pair (or an interval, decided on comparison).
        if (first.items.length === 2 && first.items.some((item) => INFINITY.test(item))) {
          const [low, high] = first.items as [string, string];
          return { kind: 'region', region: intervalOf(first.open, first.close, low, high, readExpr) };
        }
        return { kind: 'bracket', open: first.open, close: first.close, items: first.items.map(readExpr) };
    }
  }
  if (items.every((item) => item.kind === 'region')) {
    const regions = items.map((item) => (item as Extract<Item, { kind: 'region' }>).region);
    // Conditions joined by commas are ambiguous (a system, or a list of cases): only 또는/or and 그리고/and count.
    if (connectors.every((connector) => connector === 'or')) return { kind: 'region', region: union(regions) };
    if (connectors.every((connector) => connector === 'and')) return { kind: 'region', region: intersection(regions) };
    throw new UnsupportedMath('conditions joined ambiguously');
  }
  if (items.every((item) => item.kind === 'value') && !connectors.includes('and')) {
    const values = items as Array<Extract<Item, { kind: 'value' }>>;
    const names = new Set(values.map((item) => item.variable).filter((name) => name !== undefined));
    if (names.size <= 1) {
      const [variable] = names;
      return { kind: 'values', ...(variable === undefined ? {} : { variable }), values: values.map((item) => item.value), set: false, thousands };
    }
  }
  if (items.every((item) => item.kind === 'value' && item.variable !== undefined)) {
    const entries = new Map<string, Valued>();
    for (const item of items as Array<Extract<Item, { kind: 'value' }>>) {
      if (entries.has(item.variable as string)) throw new UnsupportedMath('a name given twice');
      entries.set(item.variable as string, item.value);
    }
    return { kind: 'named', entries };
  }
  throw new UnsupportedMath('a mixed answer');
}

/** Reads an answer; throws `UnsupportedMath` when it is not one the checker can compare. */
export function parseAnswer(raw: string): Answer {
  const normalised = normaliseAnswer(raw);
  if (normalised === undefined) throw new UnsupportedMath('empty or too long');
  const set = readSet(normalised.text, normalised.thousands);
  if (set !== undefined) return set;
  return combine(splitItems(normalised.text), normalised.thousands);
}

