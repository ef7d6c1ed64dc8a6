import { stemmer } from 'stemmer';

/**
 * English word lists for the answer assessor: stopwords, negation cues, cheap synonym groups and antonym pairs.
 * Everything is keyed by Porter stem so that answer and reference go through exactly the same rules.
 */

/**
 * Function words that carry no content. Negation cues are deliberately absent: they are kept aside as polarity
 * (see NEGATIONS) rather than dropped, so "not connected" and "connected" stay distinguishable.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'it\'s', 'they', 'them', 'their', 'there',
  'theirs', 'he', 'she', 'him', 'her', 'his', 'hers', 'we', 'us', 'our', 'you', 'your', 'i', 'me', 'my', 'one',
  'ones', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'doing', 'done', 'have',
  'has', 'had', 'having', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'of', 'to',
  'in', 'on', 'at', 'by', 'for', 'with', 'from', 'into', 'onto', 'about', 'as', 'than', 'then', 'so', 'such',
  'and', 'or', 'but', 'if', 'because', 'since', 'while', 'when', 'where', 'which', 'who', 'whom', 'whose', 'what',
  'why', 'how', 'also', 'just', 'only', 'very', 'too', 'still', 'even', 'already', 'yet', 'both', 'each', 'either',
  'any', 'some', 'other', 'another', 'there\'s', 'here', 'thus', 'therefore', 'hence', 'however', 'although',
  'though', 'whether', 'through', 'between', 'over', 'under', 'up', 'down', 'out', 'off', 'again', 'further',
  'once', 'all', 'most', 'many', 'much', 'own', 'way', 'like', 'e.g', 'i.e', 'etc', 'get', 'gets', 'got',
  'via', 'per', 'within', 'against', 'among', 'upon', 'well', 'really', 'actually', 'thing',
  'things', 'something', 'make', 'makes', 'made', 'let', 'lets', 'use', 'used', 'using', 'uses',
]);

/** Negation cues. Contractions are expanded before lookup (`don't` → `do` + `not`). */
export const ENGLISH_NEGATIONS: ReadonlySet<string> = new Set([
  'not', 'no', 'never', 'none', 'nothing', 'neither', 'nor', 'cannot', 'without', 'nobody', 'nowhere',
]);

/** Words that are stopwords for matching but still say the sentence has a predicate (not a bare keyword list). */
export const ENGLISH_PREDICATE_CUES: ReadonlySet<string> = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'have', 'has', 'had', 'will',
  'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'because', 'if', 'when', 'so', 'since',
  'while', 'which', 'that', 'there', 'it', 'they', 'to', 'cannot', 'not',
]);

/**
 * Cheap synonym groups: every member maps to the group's first word. Only general vocabulary, nothing taken from a
 * particular dev question, so the groups help unseen questions as much as seen ones.
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['same', 'equal', 'identical', 'equivalent'],
  ['different', 'differ', 'difference', 'distinct', 'unequal'],
  ['increase', 'rise', 'grow', 'raise', 'gain'],
  ['decrease', 'reduce', 'decline', 'drop', 'diminish', 'shrink'],
  ['more', 'greater', 'higher', 'larger', 'bigger'],
  ['less', 'fewer', 'lower', 'smaller'],
  ['big', 'large', 'huge'],
  ['small', 'little', 'tiny'],
  ['connect', 'link', 'attach', 'join'],
  ['separate', 'disconnect', 'detach', 'isolate'],
  ['fast', 'quick', 'rapid', 'speedy'],
  ['start', 'begin', 'initiate'],
  ['end', 'finish'],
  ['need', 'require', 'necessary'],
  ['calculate', 'compute'],
  ['choose', 'select', 'pick'],
  ['send', 'transmit'],
  ['error', 'mistake', 'fault'],
  ['show', 'indicate', 'display', 'reveal'],
  ['enough', 'sufficient'],
  ['whole', 'entire'],
  ['cheap', 'inexpensive'],
  ['simple', 'easy'],
  ['able', 'capable'],
  ['car', 'automobile'],
];

/** Antonym pairs (by group head). An answer that swaps one for the other flips the meaning of the reference. */
const ANTONYM_PAIRS: readonly (readonly [string, string])[] = [
  ['same', 'different'], ['increase', 'decrease'], ['more', 'less'], ['big', 'small'], ['before', 'after'],
  ['open', 'closed'], ['true', 'false'], ['positive', 'negative'], ['high', 'low'], ['connect', 'separate'],
  ['fast', 'slow'], ['start', 'end'], ['inside', 'outside'], ['maximum', 'minimum'], ['always', 'never'],
  ['input', 'output'], ['send', 'receive'], ['accept', 'reject'], ['success', 'failure'], ['cause', 'effect'],
  ['parallel', 'series'], ['heavy', 'light'], ['hot', 'cold'], ['strong', 'weak'], ['direct', 'indirect'],
  ['dependent', 'independent'], ['add', 'remove'], ['absorb', 'reflect'], ['gain', 'loss'], ['long', 'short'],
  ['first', 'last'], ['top', 'bottom'], ['upper', 'lower'], ['cheap', 'expensive'], ['simple', 'complex'],
  ['easy', 'difficult'], ['possible', 'impossible'], ['correct', 'incorrect'], ['valid', 'invalid'],
  ['even', 'odd'], ['attract', 'repel'], ['expand', 'contract'], ['rise', 'fall'], ['enough', 'insufficient'],
  ['close', 'far'], ['near', 'far'],
];

/**
 * Families of mutually exclusive words: any two members are opposites here (an answer that multiplies where the
 * reference adds states a different operation).
 */
const EXCLUSIVE_FAMILIES: readonly (readonly string[])[] = [
  ['add', 'subtract', 'multiply', 'divide'],
  ['sum', 'product', 'quotient'],
];

/** `closed` and `close` stem apart; fold the adjective forms the stemmer leaves distinct. */
const STEM_OVERRIDES: ReadonlyMap<string, string> = new Map([
  ['closed', 'close'], ['opened', 'open'], ['longer', 'long'], ['shorter', 'short'], ['faster', 'fast'],
  ['slower', 'slow'], ['stronger', 'strong'], ['weaker', 'weak'], ['heavier', 'heavy'], ['lighter', 'light'],
  ['hotter', 'hot'], ['colder', 'cold'], ['earlier', 'early'], ['later', 'late'], ['lowest', 'low'],
  ['highest', 'high'], ['largest', 'big'], ['smallest', 'small'], ['biggest', 'big'], ['greatest', 'more'],
  ['least', 'less'], ['most', 'more'], ['went', 'go'], ['gone', 'go'], ['ran', 'run'], ['took', 'take'],
  ['taken', 'take'], ['gave', 'give'], ['given', 'give'], ['kept', 'keep'], ['lost', 'loss'], ['lose', 'loss'],
  ['children', 'child'], ['people', 'person'], ['data', 'datum'], ['added', 'add'], ['adding', 'add'],
  ['closer', 'close'], ['closest', 'close'], ['nearer', 'near'], ['nearest', 'near'], ['farther', 'far'],
  ['farthest', 'far'],
]);

const synonymHead = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const head = stemmer(group[0] ?? '');
  for (const word of group) synonymHead.set(stemmer(word), head);
}

/** The canonical unit of an English word: stem, then synonym group head. */
export function englishUnit(word: string): string {
  const override = STEM_OVERRIDES.get(word);
  const stem = override === undefined ? stemmer(word) : stemmer(override);
  return synonymHead.get(stem) ?? stem;
}

const antonymOf = new Map<string, string[]>();
const familyPairs = EXCLUSIVE_FAMILIES.flatMap((family) =>
  family.flatMap((left, index) => family.slice(index + 1).map((right) => [left, right] as const)),
);
for (const [left, right] of [...ANTONYM_PAIRS, ...familyPairs]) {
  const leftUnit = englishUnit(left);
  const rightUnit = englishUnit(right);
  antonymOf.set(leftUnit, [...(antonymOf.get(leftUnit) ?? []), rightUnit]);
  antonymOf.set(rightUnit, [...(antonymOf.get(rightUnit) ?? []), leftUnit]);
}

/** The units opposite to an English unit (`increas` → `decreas`). */
export function englishAntonyms(unit: string): readonly string[] {
  return antonymOf.get(unit) ?? [];
}

/** Relation words around which the order of two concepts carries meaning ("A causes B" ≠ "B causes A"). */
export const ENGLISH_RELATIONS: ReadonlySet<string> = new Set(
  ['cause', 'causes', 'caused', 'lead', 'leads', 'result', 'results', 'affect', 'affects', 'depend', 'depends',
    'determine', 'determines', 'produce', 'produces', 'precede', 'precedes', 'follow', 'follows', 'contain',
    'contains', 'include', 'includes', 'than', 'before', 'after', 'influence', 'influences', 'control',
    'controls', 'create', 'creates', 'become', 'becomes', 'into', 'convert', 'converts', 'eat', 'eats', 'if'].map(
    (word) => englishUnit(word),
  ),
);

/** Passive markers flip the expected order of the two concepts ("B is caused by A"). */
export const ENGLISH_PASSIVE: ReadonlySet<string> = new Set(['by']);
