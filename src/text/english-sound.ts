/**
 * How an English word ends when a Korean reader says it, which is what picks a particle after it: `heuristic`
 * 휴리스틱 ends in ㄱ (heuristic이), `Outline` 아웃라인 in ㄴ (Outline을), `Summary` 서머리 in a vowel (Summary를),
 * `search` 서치 in a vowel (search를), `simple` 심플 in ㄹ (simple로). The rules follow how loanwords are written in
 * Korean (외래어 표기법): a final m, n, ng, l and a short-vowel k, p or t (written -ck, -ic, -ap, -it: 블록, 스텝,
 * 유닛) keep their consonant; a final t, d, s, x, ch, sh, f, v, k, g, b, p after a long vowel or another consonant and
 * a silent e after them get a vowel (스테이트, 메서드, 스위치…); r and y are vowels. An acronym is read letter by
 * letter (`IQR` 아이큐알, `BFS` 비에프에스), digits as Sino-Korean numbers.
 */

export type FinalSound = 'consonant' | 'rieul' | 'vowel';

/** How each letter's Korean name ends (에이, 비, 씨, …, 엘, 엠, 엔, 알): L is ㄹ, M and N consonants, R ㄹ (알). */
const LETTER_NAME: Readonly<Record<string, FinalSound>> = {
  l: 'rieul',
  m: 'consonant',
  n: 'consonant',
  r: 'rieul',
};

/** Short words ending in a short vowel and t that Korean writes with 트 all the same (비트, 세트, 키트, 히트). */
const READ_WITH_TEU: ReadonlySet<string> = new Set(['bit', 'set', 'kit', 'hit']);

/** Endings whose Korean spelling ends in a consonant, longest first where they overlap. */
const CONSONANT_ENDINGS: readonly RegExp[] = [
  /(?:m|mb|me|mme)$/u, // 알고리즘, 타임
  /(?:n|ne|nne|gn)$/u, // 디비에이션, 라인, 디자인
  /ng(?:ue)?$/u, // 스트링
  /(?:ck|ic|ique|ik|ak|ok|uk)$/u, // 블록, 휴리스틱, 테크닉
  /(?:[aeiou]p|pp)$/u, // 스텝, 맵 (a short vowel before p: ㅂ)
  /ype$/u, // 타입
];

/** Whether `word` (letters, digits and a few symbols) ends, read in Korean, in a consonant, ㄹ or a vowel. */
export function englishFinalSound(word: string): FinalSound {
  const bare = word.normalize('NFC').replace(/[^\p{L}\p{N}*+#]+$/u, '');
  const last = bare.at(-1) ?? '';
  // Read aloud: 영 일 삼 육 칠 팔 end in a consonant (일, 칠, 팔 in ㄹ).
  if (/\d/u.test(last)) return '178'.includes(last) ? 'rieul' : '036'.includes(last) ? 'consonant' : 'vowel';
  // A* (에이스타), C++ (씨플러스플러스), C# (씨샵): the symbol's name.
  if (last === '*') return 'vowel';
  if (last === '+') return 'vowel';
  if (last === '#') return 'consonant';
  const letters = bare.replace(/[^A-Za-z]/gu, '');
  if (letters === '') return 'vowel';
  // An acronym or a single letter is read letter by letter.
  if (/^[A-Z]{2,6}s?$/u.test(letters) || letters.length === 1) {
    // A plural acronym (`GPUs`) is read with 스: a vowel.
    if (/[A-Z]s$/u.test(letters)) return 'vowel';
    return LETTER_NAME[(letters.at(-1) ?? '').toLowerCase()] ?? 'vowel';
  }
  const lower = letters.toLowerCase();
  if (/(?:l|ll|le|el|al)$/u.test(lower)) return 'rieul';
  // A t after one short vowel is ㅅ (unit 유닛, format 포맷, robot 로봇, about 어바웃); after a long vowel, a silent e
  // or another consonant it is 트 (state 스테이트, boat 보트, object 오브젝트), and so in a few short words (bit 비트).
  if (/(?:^|[^aeiou])[aeiou]t$|out$/u.test(lower) && !READ_WITH_TEU.has(lower)) return 'consonant';
  if (/(?:[aeiou]t|[aeiou]te)$/u.test(lower)) return 'vowel';
  if (CONSONANT_ENDINGS.some((ending) => ending.test(lower))) return 'consonant';
  return 'vowel';
}

/** Whether a word in Latin letters (or digits) is what the particle follows. */
export function isLatinWord(word: string): boolean {
  return /[A-Za-z0-9*+#]$/u.test(word.normalize('NFC').replace(/[)\]'"’”]+$/u, ''));
}
