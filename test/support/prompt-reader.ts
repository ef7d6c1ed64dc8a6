import { FENCE_TAGS } from '../../src/text/prompt-fence.js';

/**
 * A lenient reader of prompts, the oracle of the fence tests (F1, F2): it reads every bracket that looks like `<`
 * as `<` and skips spaces, invisible and combining characters, punctuation and slashes of any width, comparing
 * letters after NFKC and case folding. Written apart from src/llm/prompt-fence.ts on purpose.
 */

export const LESS_THAN = /&(?:lt;?|#0*60;?|#x0*3c;?)|[<＜﹤‹〈〈⟨《≺˂ᐸ❮⧼«⋖]/giu;
const SKIPPED = /[\s\p{Cf}\p{M}\p{P}ᅟᅠㅤﾠ∕⁄⧸╱]/u;

/** The text as a lenient reader sees it. */
export function readerView(text: string): string {
  let out = '';
  for (const character of text.normalize('NFC').replace(LESS_THAN, '<')) {
    if (character === '<') out += '<';
    else if (!SKIPPED.test(character)) out += character.normalize('NFKC').toLowerCase();
  }
  return out;
}

const NAMES = FENCE_TAGS.map((tag) => [tag, readerView(tag)] as const);

/** The fence tags a reader would see opened or closed in `text`. */
export function tagsSeen(text: string): string[] {
  const view = readerView(text);
  return NAMES.filter(([, name]) => view.includes(`<${name}`)).map(([tag]) => tag);
}

/** How many times a reader sees each fence tag opened or closed (longest name first, so `<자료_발췌` is not `<자료`). */
export function tagCounts(text: string): Record<string, number> {
  const view = readerView(text);
  const counts: Record<string, number> = {};
  const byLength = [...NAMES].sort((left, right) => right[1].length - left[1].length);
  for (let index = view.indexOf('<'); index >= 0; index = view.indexOf('<', index + 1)) {
    const found = byLength.find(([, name]) => view.startsWith(name, index + 1));
    if (found) counts[found[0]] = (counts[found[0]] ?? 0) + 1;
  }
  return counts;
}
