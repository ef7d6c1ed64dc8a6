/**
 * Dictionary-free Korean word handling for the answer assessor: one eojeol in, its stem, polarity and role out.
 * Students write informal endings (해요체, 개조식 -음/-함), forget spaces and mix in English, so the rules strip
 * generously and the matcher (text-units.ts) also compares spacing-free character bigrams.
 */

const HANGUL = /^[\uac00-\ud7a3]$/u;

export function isHangul(character: string): boolean {
  return HANGUL.test(character);
}

/** Whether a Hangul syllable has a final consonant (batchim), which decides 이/가, 은/는, 을/를, 과/와, 으로/로. */
export function hasBatchim(syllable: string): boolean {
  return isHangul(syllable) && (syllable.charCodeAt(0) - 0xac00) % 28 !== 0;
}

/** Particles that follow a consonant-final stem only (이/은/을/과/으로…): `나이` is a word, `값이` is `값`+`이`. */
const AFTER_BATCHIM: ReadonlySet<string> = new Set([
  '이', '은', '을', '과', '으로', '으로는', '으로서', '으로써', '이나', '이랑', '이라', '이란', '이라고', '이라는', '이며',
  '이고', '이다', '이에요', '이야', '인데', '이지만', '이면', '이므로', '이니까', '인', '임', '이죠', '입니다', '이었다',
]);
/** Particles that follow a vowel-final stem only. */
const AFTER_VOWEL: ReadonlySet<string> = new Set([
  '가', '를', '와', '로', '로는', '로서', '로써', '나', '랑', '라', '란', '라고', '라는', '예요',
]);

/**
 * Noun particles and copula forms, longest first. Stripping them leaves the noun; a stem must keep one syllable.
 * Comparison `보다` is a relation cue and is reported as such.
 */
const NOUN_ENDINGS: readonly string[] = [
  '이었습니다', '였습니다', '이었어요', '였어요', '입니다', '이에요', '이예요', '이라고', '이라는', '이지만', '이므로',
  '이니까', '으로써', '으로서', '으로는', '으로도', '에서는', '에서도', '에서의', '에게서', '까지는', '부터는', '에서',
  '에게', '에는', '에도', '에의', '로는', '로써', '로서', '로도', '까지', '부터', '보다', '처럼', '마다', '조차', '만큼',
  '이라', '이란', '이며', '이고', '이다', '이야', '이죠', '인데', '이면', '이나', '이랑', '과는', '와는', '과의', '와의',
  '에요', '예요', '라고', '라는', '으로', '이든', '든지', '하고', '이랑', '은', '는', '이', '가', '을', '를', '의', '에',
  '로', '와', '과', '도', '만', '란', '나', '며', '랑', '인', '임', '요', '다', '고', '야',
];

/**
 * Verbal endings after a 하다/되다/시키다 stem (`증가`+`한다`) or a plain verb stem. Their presence also tells the
 * keyword-list rule that the answer has a predicate.
 */
const VERB_TAILS: readonly string[] = [
  '었습니다', '았습니다', '였습니다', '했습니다', '습니다', 'ㅂ니다', '었어요', '았어요', '였어요', '는데요', '거든요',
  '잖아요', '더라고요', '니까요', '어서요', '아서요', '으니까', '니까', '으므로', '므로', '는데', '지만', '면서', '도록',
  '려고', '으면', '어요', '아요', '여요', '네요', '지요', '군요', '었다', '았다', '였다', '는다', 'ㄴ다', '어서', '아서',
  '여서', '으며', '어야', '아야', '십시오', '시오', '세요', '을수록', '수록', '게', '고', '며', '면', '서', '요', '죠', '다', '지', '는', '은', '을', '기', '음', '어',
  '아', '여', '네', '니', '냐', '야',
];

/** Syllables that begin a 하다/되다/시키다 form after a noun of two or more syllables: `증가한다`, `연결돼요`. */
const LIGHT_VERB_SYLLABLES: ReadonlySet<string> = new Set([
  '하', '한', '할', '함', '합', '해', '했', '되', '된', '될', '됨', '됩', '돼', '됐', '시',
]);
/** Light-verb syllables that can end a word by themselves (`증가한`, `증가함`, `증가해`); `하`/`되` need a tail. */
const LIGHT_VERB_FINAL: ReadonlySet<string> = new Set(['한', '할', '함', '해', '했', '된', '될', '됨', '돼', '됐']);
/** Syllables of 지다 (`커진다`, `작아져요`) after a stem ending in ㅏ/ㅓ/ㅕ without batchim. */
const BECOME_SYLLABLES: ReadonlySet<string> = new Set(['지', '진', '질', '짐', '져', '졌']);

/** Irregular or contracted stems folded onto one form: 커요/큰 → 크, 달라요/다른 → 다르. */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['커', '크'], ['큰', '크'], ['클', '크'], ['달라', '다르'], ['다른', '다르'], ['달랐', '다르'], ['빨라', '빠르'],
  ['빠른', '빠르'], ['느려', '느리'], ['느린', '느리'], ['같아', '같'], ['같은', '같'], ['작아', '작'], ['작은', '작'],
  ['많아', '많'], ['많은', '많'], ['적어', '적'], ['적은', '적'], ['높아', '높'], ['높은', '높'], ['낮아', '낮'],
  ['낮은', '낮'], ['넓어', '넓'], ['넓은', '넓'], ['좁아', '좁'], ['좁은', '좁'], ['길어', '길'], ['긴', '길'],
  ['짧아', '짧'], ['짧은', '짧'], ['늘어나', '늘'], ['늘어', '늘'], ['늘어난', '늘'], ['줄어들', '줄'], ['줄어', '줄'],
  ['줄어든', '줄'], ['줄어드', '줄'], ['늘려', '늘'], ['늘린', '늘'], ['늘렸', '늘'], ['늘리', '늘'], ['줄여', '줄'], ['줄인', '줄'],
  ['줄였', '줄'], ['줄이', '줄'], ['커졌', '크'], ['작아졌', '작'], ['나타내', '나타내'], ['나타낸', '나타내'], ['나타냄', '나타내'],
  ['같다', '같'], ['크다', '크'], ['작다', '작'], ['많다', '많'], ['적다', '적'], ['높다', '높'], ['낮다', '낮'],
  ['다르다', '다르'], ['다르', '다르'], ['달라진', '다르'], ['빨리', '빠르'], ['느리게', '느리'], ['올라', '오르'],
  ['오른', '오르'], ['올라간', '올라가'], ['내려', '내리'], ['내린', '내리'], ['내려간', '내려가'],
  // The four operations and nearness: a definition's content is often only these verbs (`더한 뒤 … 나눈 값`).
  ['나눈', '나누'], ['나눠', '나누'], ['나눴', '나누'], ['나눌', '나누'], ['뺀', '빼'], ['뺄', '빼'], ['뺐', '빼'],
  ['가까워', '가깝'], ['가까운', '가깝'], ['가까워져', '가깝'], ['가까워지', '가깝'], ['가까워진', '가깝'], ['가까워졌', '가깝'],
  ['멀어', '멀'], ['먼', '멀'], ['멀어져', '멀'], ['멀어지', '멀'], ['멀어진', '멀'], ['멀어졌', '멀'],
]);

/**
 * One-syllable roots of 하다 verbs that a light-verb split would otherwise leave whole (`더한`, `곱해서`), with the
 * stem each folds to: 합하다 is 더하다.
 */
const SHORT_LIGHT_ROOTS: ReadonlyMap<string, string> = new Map([['더', '더하'], ['곱', '곱하'], ['합', '더하']]);

/** Polarity words: standalone adverbs and the predicates 않다/없다/아니다/못하다 in any ending. */
/** `없애다` (to get rid of: `병원체를 빨리 없앰`) is a verb of its own, not `없다`. */
const NEGATION_WORD = /^(?:안|못|않.*|없(?![애앰앴앨]).*|아니.*|아닌.*|아닙.*|아냐|아님|못하.*|못해.*|못한.*|전혀|결코)$/u;
/** Negation fused onto a noun or verb: `관계없다`, `필요없어요`, `상관없이`, `일정하지않다`. */
const NEGATION_SUFFIX = /^(.+?)(?:없다|없어요|없어|없는|없이|없음|없고|없습니다|없으며|지않다|지않아요|지않은|지않고|지않습니다|지않음|지못한다|지못해요|지못함|지못하고)$/u;

export interface KoreanWord {
  /** The stem used for matching ('' when the word is only a polarity or function marker). */
  stem: string;
  negation: boolean;
  /** A verbal or copular ending was seen: the answer has a predicate. */
  predicate: boolean;
  /** `보다`, a conditional `-면` or similar: the order of the concepts around it carries meaning. */
  relation: boolean;
  /** A connective ending (`-고`, `-며`, `-지만`, `반면`) closes a clause: paired concepts are read per clause. */
  clauseEnd: boolean;
  /**
   * The stem is a verb's or an adjective's (`나눈`, `다릅니다`, `커져요`), not a noun's: a noun with a copula
   * (`값입니다`) or a light verb (`증가한다`) keeps its noun.
   */
  verbal: boolean;
}

function agreesWithStem(stem: string, ending: string): boolean {
  const last = Array.from(stem).at(-1) ?? '';
  if (AFTER_BATCHIM.has(ending)) return hasBatchim(last);
  // (으)로 takes the bare 로 after ㄹ too: `확률로`, `물로`.
  if (ending.startsWith('로') && isHangul(last) && (last.charCodeAt(0) - 0xac00) % 28 === 8) return true;
  if (AFTER_VOWEL.has(ending)) return !hasBatchim(last);
  return true;
}

function validTail(tail: string): boolean {
  return tail === '' || VERB_TAILS.includes(tail) || (Array.from(tail).length <= 4 && VERB_TAILS.some((ending) => tail.endsWith(ending)));
}

/** The vowel index (0 = ㅏ, 4 = ㅓ, 6 = ㅕ) of a Hangul syllable. */
function vowelOf(syllable: string): number {
  return Math.floor(((syllable.charCodeAt(0) - 0xac00) % 588) / 28);
}

/**
 * The stem of a 하다/되다/시키다 or 지다 form, or undefined. The noun before a light verb keeps two syllables so
 * that nouns ending in those syllables (`포함`, `이해`, `제한`) are never cut.
 */
function stripLightVerb(word: string): { stem: string; verbal: boolean } | undefined {
  const syllables = Array.from(word);
  for (let index = 1; index < syllables.length; index += 1) {
    const syllable = syllables[index] ?? '';
    const tail = syllables.slice(index + 1).join('');
    const shortRoot = index === 1 ? SHORT_LIGHT_ROOTS.get(syllables[0] ?? '') : undefined;
    if ((index >= 2 || shortRoot !== undefined) && LIGHT_VERB_SYLLABLES.has(syllable)) {
      const rest = syllable === '시' ? tail.replace(/^(키|킨|킬|킴|켜|켰)/u, '') : tail;
      if (syllable === '시' && rest === tail) continue;
      if ((rest !== '' || LIGHT_VERB_FINAL.has(syllable) || syllable === '시') && validTail(rest)) {
        // A noun before 하다/되다 stays a noun (`증가`); a short root (`더하`) is a verb.
        return shortRoot !== undefined ? { stem: shortRoot, verbal: true } : { stem: syllables.slice(0, index).join(''), verbal: false };
      }
    }
    const previous = syllables[index - 1] ?? '';
    if (BECOME_SYLLABLES.has(syllable) && !hasBatchim(previous) && [0, 4, 6].includes(vowelOf(previous))) {
      if ((tail !== '' || syllable !== '지') && validTail(tail)) {
        const stem = syllables.slice(0, index);
        // 작아지다 → 작, 늘어나다 → 늘: the linking 아/어 belongs to the ending.
        if (stem.length >= 2 && ['아', '어'].includes(stem.at(-1) ?? '')) stem.pop();
        return { stem: stem.join(''), verbal: true };
      }
    }
  }
  return undefined;
}

const CONDITIONAL_ENDINGS = ['하면', '되면', '으면', '이면', '면'];
/** Endings that, stripped, show a predicate (copula or verb), as opposed to a case particle. */
const PARTICLES_ONLY: ReadonlySet<string> = new Set([
  '은', '는', '이', '가', '을', '를', '의', '에', '로', '와', '과', '도', '만', '란', '나', '랑', '으로', '에서', '에게',
  '에는', '에도', '로는', '까지', '부터', '처럼', '마다', '조차', '만큼', '으로는', '에서는', '에서도', '과는', '와는',
  '과의', '와의', '에서의', '에의', '보다', '으로도', '로도', '이나', '이랑', '이란', '이라는', '라는', '인', '하고',
]);
const ALL_ENDINGS: readonly string[] = [...new Set([...NOUN_ENDINGS, ...VERB_TAILS])].sort(
  (left, right) => right.length - left.length,
);

/** The longest ending (particle, copula or verbal tail) that leaves a Hangul stem agreeing with it. */
function stripEnding(word: string): { stem: string; ending: string } {
  for (const ending of ALL_ENDINGS) {
    if (!word.endsWith(ending) || word.length <= ending.length) continue;
    const stem = word.slice(0, word.length - ending.length);
    if (!isHangul(Array.from(stem).at(-1) ?? '') || !agreesWithStem(stem, ending)) continue;
    return { stem, ending };
  }
  return { stem: word, ending: '' };
}

const CLAUSE_ENDINGS: ReadonlySet<string> = new Set(['고', '며', '으며', '지만', '는데', '면서', '이고', '이며', '이지만', '인데']);

/** `준`/`낸` before `-다` (보여준다, 나타낸다): the ㄴ belongs to the ending, not to the stem. */
function withoutFinalNieun(stem: string): string {
  const last = stem.at(-1) ?? '';
  if (!isHangul(last) || (last.charCodeAt(0) - 0xac00) % 28 !== 4) return stem;
  return stem.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) - 4);
}

function fold(stem: string): string {
  const folded = IRREGULAR.get(stem) ?? stem;
  // 학생들 → 학생: the plural suffix is not part of the concept.
  return Array.from(folded).length >= 2 && folded.endsWith('들') ? folded.slice(0, -1) : folded;
}

/** Syllables whose final ㅂ before `니다` is not the formal ending's: 습니다 and 읍니다 are endings, 입니다 the copula. */
const FORMAL_B_KEPT: ReadonlySet<string> = new Set(['습', '읍', '입']);

/**
 * The stem of a formal `-ㅂ니다` form whose ㅂ sits in the stem's last syllable (`작아집니다` → `작아지`,
 * `다릅니다` → `다르`, `줄어듭니다` → `줄어드`), or undefined when the word is not one.
 */
function formalStem(word: string): string | undefined {
  if (!word.endsWith('니다') || word.length < 3) return undefined;
  const syllable = word.at(-3) ?? '';
  if (!isHangul(syllable) || FORMAL_B_KEPT.has(syllable) || (syllable.charCodeAt(0) - 0xac00) % 28 !== 17) return undefined;
  return word.slice(0, -3) + String.fromCharCode(syllable.charCodeAt(0) - 17);
}

/** Analyses one Hangul eojeol (already NFKC-normalised, lowercased, without punctuation). */
export function analyseKoreanWord(word: string): KoreanWord {
  const plain = { negation: false, predicate: false, relation: false, clauseEnd: false, verbal: false };
  const clauseEnd = [...CLAUSE_ENDINGS].some((ending) => word.endsWith(ending) && word.length > ending.length);
  // A negating predicate closes its clause like any other (`낮에는 일어나지 않고 밤에만 일어난다`).
  if (NEGATION_WORD.test(word)) return { ...plain, stem: '', negation: true, predicate: true, clauseEnd };
  const fused = NEGATION_SUFFIX.exec(word);
  if (fused?.[1] !== undefined) return { ...analyseKoreanWord(fused[1]), negation: true, predicate: true };
  if (word === '반면' || word === '반면에') return { ...plain, stem: '', clauseEnd: true };
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return { ...plain, stem: irregular, predicate: true, verbal: true };
  const relation = CONDITIONAL_ENDINGS.some((ending) => word.endsWith(ending) && word.length > ending.length);
  const light = stripLightVerb(word);
  if (light !== undefined) return { ...plain, stem: fold(light.stem), predicate: true, relation, clauseEnd, verbal: light.verbal };
  const formal = formalStem(word);
  if (formal !== undefined) return { ...analyseKoreanWord(formal), predicate: true, verbal: true };
  const first = stripEnding(word);
  if (first.ending === '') return { ...plain, stem: fold(word) };
  if (first.ending === '보다') return { ...plain, stem: fold(first.stem), relation: true };
  const predicate = !PARTICLES_ONLY.has(first.ending);
  // A copula split by a tense ending (`값이었어요` → `값이` → `값`); particles never stack twice here (`도로를`).
  const copulaStem = predicate && first.stem.endsWith('이') && hasBatchim(Array.from(first.stem).at(-2) ?? '');
  const stem = copulaStem ? first.stem.slice(0, -1) : first.ending === '다' ? withoutFinalNieun(first.stem) : first.stem;
  // Past the copula (이다, 입니다, 예요, 였다, 인, 임) an ending on a stem is a verb's: nouns need the copula.
  // A stem left ending in 이 (`가치이다`, `높이`) is taken for a noun.
  const verbal = IRREGULAR.has(stem) || (predicate && !copulaStem && !stem.endsWith('이') && !/^(?:이|입|예|였|인|임)/u.test(first.ending));
  return { stem: fold(stem), negation: false, predicate, relation, clauseEnd: clauseEnd && predicate, verbal };
}

/** Whether a Hangul run is nothing but a particle or copula ending (`가` in `variance가`). */
export function isBareEnding(run: string): boolean {
  return ALL_ENDINGS.includes(run) || run === '이다' || run === '입니다';
}

/** Korean function words and question scaffolding: no content once stripped. */
export const KOREAN_STOPWORDS: ReadonlySet<string> = new Set([
  '그리고', '그러나', '하지만', '그래서', '따라서', '그러면', '그런데', '또한', '또는', '및', '즉', '등', '것', '수',
  '때', '이것', '그것', '저것', '여기', '거기', '우리', '여러분', '이런', '그런', '저런', '어떤', '무엇', '무엇인지',
  '무엇인가', '왜', '어떻게', '있', '하', '되', '위해', '위한', '대한', '대해', '대해서', '통해', '같이', '다음', '이번',
  '이제', '먼저', '바로', '다시', '매우', '아주', '정말', '진짜', '가장', '더', '잘', '좀', '이', '그', '저', '또', '각',
  '모든', '경우', '정도', '부분', '내용', '설명', '서술', '말해', '보세요', '봅시다', '자신', '말', '예', '들어',
  '들면', '하나', '두', '세', '뭐', '뭔가', '거', '게', '건', '걸', '음', '어', '아', '네', '그냥', '약간', '보통', '대충',
  '일단', '각각', '서로', '쓰시오', '설명하시오', '답', '답하시오', '무슨', '어느', '얼마나', '있다', '있어요', '있는',
  '한', '하는', '할', '해', '된', '되는', '관련', '의미', '뜻', '가지', '중', '안에', '때문에', '거의', '즉', '꼭', '많이',
]);

/** Relation stems around which the order of two concepts carries meaning (원인/결과, 영향, 때문, 보다…). */
export const KOREAN_RELATIONS: ReadonlySet<string> = new Set([
  '원인', '결과', '때문', '영향', '결정', '좌우', '일으키', '일으킨', '유발', '초래', '야기', '의존', '포함', '속하', '먼저',
  '나중', '이전', '이후', '변환', '바뀌',
]);

/** Passive markers flip the expected order (`A에 의해 B가 결정된다`). */
export const KOREAN_PASSIVE: ReadonlySet<string> = new Set(['의해', '의하', '의한', '의해서']);

/** Antonym stem pairs; an answer swapping one for the other says the opposite of the reference. */
const KOREAN_ANTONYM_PAIRS: readonly (readonly [string, string])[] = [
  ['같', '다르'], ['증가', '감소'], ['크', '작'], ['많', '적'], ['높', '낮'], ['이전', '이후'], ['원인', '결과'],
  ['양수', '음수'], ['최대', '최소'], ['상승', '하강'], ['늘', '줄'], ['길', '짧'], ['빠르', '느리'], ['강하', '약하'],
  ['직접', '간접'], ['참', '거짓'], ['독립', '종속'], ['포함', '제외'], ['정비례', '반비례'], ['비례', '반비례'],
  ['수입', '수출'], ['흡수', '방출'], ['팽창', '수축'], ['가열', '냉각'], ['확대', '축소'], ['넓', '좁'], ['상승', '하락'],
  ['증가', '하락'], ['인력', '척력'], ['산성', '염기성'], ['동일', '다르'], ['일정', '변하'],
  ['무겁', '가볍'], ['밝', '어둡'], ['쉽', '어렵'], ['안쪽', '바깥쪽'], ['입력', '출력'],
  ['성공', '실패'], ['찬성', '반대'], ['과대', '과소'], ['과적합', '과소적합'], ['오르', '내리'], ['오르', '떨'],
  ['올라가', '내려가'], ['올라가', '떨'], ['상승', '하강'], ['높', '떨'], ['가깝', '멀'],
];

/**
 * Families of mutually exclusive stems: any two members are opposites in the sense that matters here (an answer
 * that multiplies where the reference adds states a different operation).
 */
const KOREAN_EXCLUSIVE_FAMILIES: readonly (readonly string[])[] = [['더하', '빼', '곱하', '나누']];

const koreanAntonymOf = new Map<string, string[]>();
const familyPairs = KOREAN_EXCLUSIVE_FAMILIES.flatMap((family) =>
  family.flatMap((left, index) => family.slice(index + 1).map((right) => [left, right] as const)),
);
for (const [left, right] of [...KOREAN_ANTONYM_PAIRS, ...familyPairs]) {
  koreanAntonymOf.set(left, [...(koreanAntonymOf.get(left) ?? []), right]);
  koreanAntonymOf.set(right, [...(koreanAntonymOf.get(right) ?? []), left]);
}

/** The stems opposite to a Korean stem (`다르` → `같`, `동일`). */
export function koreanAntonyms(stem: string): readonly string[] {
  return koreanAntonymOf.get(stem) ?? [];
}
