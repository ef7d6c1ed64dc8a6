/**
 * What word overlap cannot read in a short answer: the names of things (bulb A, switch Z) and the numbers it states.
 * Both are read from the raw texts, because the analyser drops single letters (`a` is a stopword) and a number
 * written another way (`127.0.0.0/8` for `127.xx.yy.zz`) shares no unit with the reference.
 *
 * - Labels: single letters that name parts (`A and C`, `bulb b`, `Switch Z`). An answer that names a label neither the
 *   reference nor the question names, or joins labels (`A and C`) the reference never joins, may say the right words
 *   about the wrong things: its good verdict is not sure (verdict-confidence.ts).
 * - Numbers: an answer stating a number the reference does not state cannot be compared by overlap (a range, another
 *   notation, another unit): a bad verdict no flag decided on it is not sure.
 */

/** Words after which a single `a` names a part (`bulb a is`, `a and b`) instead of being an article (`a gap`). */
const LABEL_FOLLOWERS: ReadonlySet<string> = new Set([
  'and', 'or', ',', 'is', 'are', 'was', 'were', 'would', 'will', 'has', 'have', 'does', 'do', 'can', 'should',
  'stay', 'stays', 'remain', 'remains',
]);
const JOINERS: ReadonlySet<string> = new Set([',', 'and', 'or']);
/** Labels at most this many words apart, one of them a joiner, are named together (`A and C`, `bulb A and bulb C`). */
const JOIN_GAP = 2;

function sentenceTokens(text: string): string[][] {
  return text
    .split(/(?<=[A-Za-z0-9])[.!?](?=\s|$)|[\n;]/u)
    .map((sentence) => sentence.match(/[A-Za-z0-9]+(?:[/.'][A-Za-z0-9]+)*|,/gu) ?? []);
}

function isLabel(words: readonly string[], index: number): boolean {
  const word = words[index] ?? '';
  if (word.length !== 1 || !/[A-Za-z]/u.test(word) || word === 'i' || word === 'I') return false;
  if (word !== 'a' && word !== 'A') return true;
  const next = words[index + 1];
  return next === undefined || LABEL_FOLLOWERS.has(next.toLowerCase()) || (next.length === 1 && /[A-Za-z]/u.test(next));
}

export interface NamedLabels {
  labels: ReadonlySet<string>;
  /** Labels named together (joined by and/or/commas); single labels are groups of one. */
  groups: readonly ReadonlySet<string>[];
}

/** The single-letter labels a text names, uppercased, and the groups it names them in. */
export function namedLabels(text: string): NamedLabels {
  const labels = new Set<string>();
  const groups: Set<string>[] = [];
  for (const words of sentenceTokens(text)) {
    let group: number[] = [];
    const close = () => {
      if (group.length > 0) groups.push(new Set(group.map((index) => (words[index] ?? '').toUpperCase())));
    };
    words.forEach((_, index) => {
      if (!isLabel(words, index)) return;
      labels.add((words[index] ?? '').toUpperCase());
      const last = group.at(-1);
      const between = last === undefined ? [] : words.slice(last + 1, index);
      if (last !== undefined && between.length <= JOIN_GAP && between.some((word) => JOINERS.has(word.toLowerCase()))) {
        group.push(index);
        return;
      }
      close();
      group = [index];
    });
    close();
  }
  return { labels, groups };
}

/**
 * The answer names labels and the references do too, but the answer names one that neither any reference nor the
 * question names, or joins two or more that no group of any reference holds together (`A and C` for `A and B`). All
 * the references are read: an alternative that names no part (`there is still a closed path`) must not hide a
 * wrong pair.
 */
export function namesOtherLabels(answer: string, references: readonly string[], question: string): boolean {
  const said = namedLabels(answer);
  const expected = references.map((reference) => namedLabels(reference));
  const known = new Set(expected.flatMap((named) => [...named.labels]));
  if (said.labels.size === 0 || known.size === 0) return false;
  const asked = namedLabels(question).labels;
  for (const label of said.labels) if (!known.has(label) && !asked.has(label)) return true;
  const held = expected.flatMap((named) => named.groups);
  return said.groups.some((group) => group.size >= 2 && !held.some((together) => [...group].every((label) => together.has(label))));
}

/** Numbers as written (`1.5`, `127.0.0.0`, `10,000`): digits with inner points or commas. */
export function statedNumbers(text: string): string[] {
  return text.match(/\d+(?:[.,]\d+)*/gu) ?? [];
}

/** The answer states a number that the reference does not. */
export function statesOtherNumber(answer: string, reference: string): boolean {
  const known = new Set(statedNumbers(reference));
  return statedNumbers(answer).some((number) => !known.has(number));
}
