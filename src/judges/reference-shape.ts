/**
 * The shape of a model answer, as far as it bears on what overlap can tell. A rubric (a list of parts or of
 * acceptable alternatives: "One of the following justifications should be given: ● … ● …", "0.5 P for a sensible
 * choice out of: …", "다음 중 하나: ① … ②") is not one answer but several: a right answer that gives one of its
 * options shares few of its words, so little overlap is no evidence of a wrong answer (verdict-confidence.ts).
 */

/** A line that opens a list item: a bullet, a number or letter with a stop or bracket, a circled number. */
const LIST_ITEM = /^\s*(?:[●•○▪◦\-*–·]|\(?\d{1,2}[.)]|\(?[a-z][.)]|[\u2460-\u2473])\s*\S/u;

/** Phrases that introduce alternatives or parts to choose from, in English and Korean. */
const ALTERNATIVES =
  /\b(?:one|any|some|two|three) of the following\b|\bpossible (?:answers?|challenges|differences|reasons|examples)\b|\b(?:choice|choose) (?:out )?of\b|\bmay be considered\b|\balso (?:be )?acceptable\b|\balternatively\b|다음\s*중|중\s*(?:하나|한\s*가지|두\s*가지)|(?:도|모두)\s*(?:인정|정답)/iu;

/** Whether a reference lists parts or alternatives rather than stating one answer. */
export function listsAlternatives(reference: string): boolean {
  // Lines are read before NFKC, which turns a circled number into a bare digit.
  const items = reference.split('\n').filter((line) => LIST_ITEM.test(line)).length;
  return items >= 2 || ALTERNATIVES.test(reference.normalize('NFKC'));
}
