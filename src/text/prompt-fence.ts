/**
 * Untrusted text in prompts — what students write, what a PDF says (its title, chapter titles, text and passages),
 * and what a model wrote that is quoted back to a model (model answers, explanations, a lecture, a validation
 * error) — goes into a prompt only through `fence`: inside a tag of its own, with every tag-like form of any fence
 * tag inside it neutralised, so the text can neither close its fence nor open another and pose as instructions.
 * Prompts say that fenced text is data, not instructions.
 *
 * "Tag-like" is read the way a model might read it: any bracket that looks like `<` (ASCII, full-width, small,
 * single and double angle quotes, math and CJK angle brackets, HTML entities), then — ignoring spaces, line breaks,
 * invisible and combining characters, punctuation and slashes of any width — the letters of a fence tag's name,
 * compared after NFKC and case folding. Such a bracket becomes `(`: `</학생_답변>`, `＜／학생 답변＞`, `< /학생_답변 >`,
 * `‹학생\u200b_답변›` all end up as harmless `(/학생_답변>`-like text. (Closing brackets stay: with no opening
 * bracket before the name they open and close nothing, and turned into something a reader skips they could let an
 * earlier bracket reach a later name.) Everything else — an HTML tutorial's `<form>` or `<br>` — is left alone; the
 * text is normalised to NFC so decomposed Hangul cannot spell a name around the check.
 */

/** Every tag a prompt fences text in (prompts/*.md). A new fence tag must be added here. */
export const FENCE_TAGS = [
  '학생_답변',
  '학생_질문',
  '자료',
  '자료_제목',
  '자료_발췌',
  '챕터_제목',
  '쪽별_첫_줄',
  '출처',
  '이미_낸_문제',
  '퀴즈_문항',
  '수학_문제',
  '참고_자료',
  '수정_요청',
  '이미_작성된_강의',
  '강의_내용',
  '질문',
  '모범_답안',
  '확인_질문',
  '하위_개념',
  '하위_개념_설명',
  '핵심_개념',
  '다시_설명할_개념',
  '설명할_점',
  '설명',
  '이전_설명',
  '설명한_내용',
  'validation_error',
  '평가_기준',
  '평가_지시문',
  '평가_입력',
  '평가_출력',
  '평가_예상_출력',
  '출제_계획',
  '학습자_프로필',
  '검증_피드백',
  '이전_문제',
  '검증_대상',
  '핵심_키워드',
  '키워드_근거',
  '시험_기록',
] as const;
export type FenceTag = (typeof FENCE_TAGS)[number];

/** Brackets read as `<`: the longest forms first (entities), then single characters. */
const OPENER = /&(?:lt;?|#0*60;?|#x0*3c;?)|[<\uff1c\ufe64\u2039\u2329\u3008\u27e8\u300a\u227a\u02c2\u1438\u276e\u29fc\u00ab\u22d6]/giu;
const OPENER_AT = new RegExp(OPENER.source, 'iuy');
/** What a reader skips between the bracket and the name, and inside the name. */
const IGNORED = /[\s\p{Cf}\p{M}\p{P}\u115f\u1160\u3164\uffa0\u2215\u2044\u29f8\u2571]/u;

/** A name as compared: NFKC, lower case, without what a reader skips. */
function skeleton(text: string): string {
  let out = '';
  for (const character of text) if (!IGNORED.test(character)) out += character.normalize('NFKC').toLowerCase();
  return out;
}

const NAMES = [...new Set(FENCE_TAGS.map(skeleton))];

/** The bracket-like token at `index`, if any (its length). */
function bracketAt(text: string, index: number): number {
  OPENER_AT.lastIndex = index;
  return OPENER_AT.exec(text)?.[0].length ?? 0;
}

const characterAt = (text: string, index: number) => String.fromCodePoint(text.codePointAt(index) ?? 0);

/**
 * Where a fence name spelled from the letter at `start` ends (the index after its last letter), or -1. What a
 * reader skips, and brackets, may sit between the letters. The longest name wins (`자료_발췌` over `자료`).
 */
function nameEnd(text: string, start: number): number {
  let spelled = '';
  let end = -1;
  let index = start;
  while (index < text.length) {
    const bracket = bracketAt(text, index);
    if (bracket > 0) {
      index += bracket;
      continue;
    }
    const character = characterAt(text, index);
    if (!IGNORED.test(character)) {
      spelled += character.normalize('NFKC').toLowerCase();
      if (!NAMES.some((name) => name.startsWith(spelled))) break;
      if (NAMES.includes(spelled)) end = index + character.length;
    }
    index += character.length;
  }
  return end;
}

/** The text with every tag-like form of a fence tag made harmless (see the module comment); NFC. */
export function neutraliseFenceTags(text: string): string {
  const source = text.normalize('NFC');
  // One pass, linear in the text however many brackets it has: brackets wait (with what a reader skips between
  // them) for the next letter; when a fence name is spelled from there, every waiting bracket is neutralised — also
  // one that only reaches the name across another bracket, which becomes a `(` a reader would skip.
  const edits = new Map<number, [number, string]>();
  let waiting: number[] = [];
  let index = 0;
  while (index < source.length) {
    const bracket = bracketAt(source, index);
    if (bracket > 0) {
      waiting.push(index);
      edits.set(index, [bracket, '']);
      index += bracket;
      continue;
    }
    const character = characterAt(source, index);
    if (IGNORED.test(character)) {
      index += character.length;
      continue;
    }
    if (waiting.length > 0) {
      const end = nameEnd(source, index);
      for (const at of waiting) {
        if (end < 0) edits.delete(at);
        else edits.set(at, [edits.get(at)?.[0] ?? 0, '(']);
      }
      waiting = [];
    }
    index += character.length;
  }
  for (const at of waiting) edits.delete(at);
  if (edits.size === 0) return source;
  let out = '';
  let copied = 0;
  for (const at of [...edits.keys()].sort((left, right) => left - right)) {
    const [length, replacement] = edits.get(at) ?? [0, ''];
    out += source.slice(copied, at) + replacement;
    copied = at + length;
  }
  return out + source.slice(copied);
}

/** `text` inside `<tag>` … `</tag>`, on lines of their own, with nothing inside able to close or open a fence. */
export function fence(tag: FenceTag, text: string): string {
  return `<${tag}>\n${neutraliseFenceTags(text)}\n</${tag}>`;
}
