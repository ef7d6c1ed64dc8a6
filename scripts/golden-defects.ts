/**
 * Counts the defects of the golden outputs (scripts/golden-lectures.ts: lecture, quiz and exam of every sample deck)
 * by the reading rules of test/golden/README.md, so a reading can be repeated and compared: on old code and new.
 * It imports nothing of src/ but the golden script, and its rules are its own (an English tagger for the part of
 * speech of a blank, a small table for how English words end when read in Korean), so a product change cannot
 * change what it calls a defect.
 *
 * Usage: npx tsx scripts/golden-defects.ts [--list]   (JSON: counts per deck and defect; --list adds every instance)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import winkNLP, { type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { renderAllGolden, type GoldenMaterial } from './golden-lectures.js';
import { MEASURED_DECKS } from './sample-decks.js';

export const DEFECTS = [
  'failure',
  'front-matter',
  'medium-question',
  'placeholder-answer',
  'restated-answer',
  'duplicate',
  'cloze-bad-blank',
  'cloze-partial-term',
  'cloze-fragment',
  'cloze-not-in-source',
  'bad-choices',
  'odd-distractor',
  'particle',
  'code-broken',
  'key-position',
  'gate-passed-bad',
] as const;
export type Defect = (typeof DEFECTS)[number];

export interface DefectInstance {
  deck: string;
  defect: Defect;
  where: string;
  text: string;
}

const nlp = winkNLP(model);
const its = nlp.its;
// The package's types give `lemma` an add-ons parameter that `out` does not accept; at run time it is a token its-function.
const lemmaOf = its.lemma as unknown as ItsFunction<string>;

const BLANK = /_{3,}/u;
const lower = (text: string) => text.normalize('NFKC').toLowerCase();
const loose = (text: string) => lower(text).replace(/[^\p{L}\p{N}]+/gu, '');
const oneLine = (text: string) => text.replace(/\s+/gu, ' ').trim();

/** Words that name the medium or the course, never what it teaches. */
const MEDIUM = /^(?:the\s+)?(?:lecture|lectures|slide|slides|chapter|outline|agenda|introduction|course|summary|overview|contents|table of contents|syllabus|목차|강의|슬라이드|이번 장|개요|요약|수업)$/iu;
/** Texts that are placeholders, not answers. */
const PLACEHOLDERS = new Set(['', '핵심 개념', '이 개념', '핵심 내용', '정답', '모범 답안']);
const GENERIC_EXPLANATION = /간단한 예를 떠올리면 정의가 훨씬 또렷해집니다|정의의 핵심 낱말부터 정리해 봅시다/u;
const FAILURE = /MODEL_OUTPUT_INVALID|QUIZ_GATE_FAILED|\b5\d\d\b/u;
/** A sentence that opens by pointing back at one the student does not see. */
const POINTS_BACK = /^(?:this|these|that|those|it|they|he|she|such|here|there|however|therefore|thus|so|also|then|이럴|이런|이러한|이렇게|이때|이것|이는|그럴|그런|그러한|그렇게|그때|그것|그래서|그러므로|따라서|또한|즉|반면)\b/iu;

/** The concept a lecture question asks about: what stands before `에 대해`, `이/가 무엇`, `이/가 어떤 역할`. */
function askedConcept(question: string): string {
  const text = oneLine(question).replace(/^방금 살펴본 내용에서\s*/u, '');
  return /^(.+?)(?:에 대해|이 |가 |은 |는 |을 |를 )/u.exec(text)?.[1]?.trim() ?? text;
}

// --- How an English word ends when a Korean reads it (for 은/는, 이/가, 을/를, 과/와, (으)로) ---------------------

const LETTER_NAMES_FINAL: Record<string, 'consonant' | 'vowel' | 'rieul' | 'either'> = {
  a: 'vowel', b: 'vowel', c: 'vowel', d: 'vowel', e: 'vowel', f: 'vowel', g: 'vowel', h: 'vowel', i: 'vowel', j: 'vowel', k: 'vowel',
  l: 'rieul', m: 'consonant', n: 'consonant', o: 'vowel', p: 'vowel', q: 'vowel', r: 'either', s: 'vowel', t: 'vowel', u: 'vowel',
  v: 'vowel', w: 'vowel', x: 'vowel', y: 'vowel', z: 'either',
};

/** consonant, vowel, ㄹ, or 'either' when Korean speakers say it both ways. */
function englishEnding(word: string): 'consonant' | 'vowel' | 'rieul' | 'either' {
  const bare = word.replace(/[^A-Za-z0-9]+$/u, '');
  if (bare === '') return 'either';
  if (/\d$/u.test(bare)) return '013678'.includes(bare.at(-1) ?? '') ? 'consonant' : 'vowel';
  // An acronym is read letter by letter (IQR 아이큐알, BFS 비에프에스).
  if (/^[A-Z]{2,5}$/u.test(bare) || bare.length === 1) return LETTER_NAMES_FINAL[(bare.at(-1) ?? '').toLowerCase()] ?? 'either';
  const w = bare.toLowerCase();
  if (/(?:ll|l|le)$/u.test(w) && !/(?:ble|ple|cle|gle|dle|tle)$/u.test(w)) return 'rieul';
  if (/(?:ble|ple|cle|gle|dle|tle)$/u.test(w)) return 'rieul';
  if (/(?:m|me|n|ne|ng|ck|ic|ism|tion|sion)$/u.test(w)) return /ng$/u.test(w) ? 'consonant' : 'consonant';
  if (/(?:[aeiou]p|[aeiou]b|[^aeiou]ype)$/u.test(w)) return 'either';
  if (/(?:a|i|o|u|y|er|or|ar|ure|ow|aw|ew|s|x|z|ch|sh|ce|se|ge|t|te|d|de|f|fe|v|ve|k|ke|g|ph|th|ue)$/u.test(w)) return 'vowel';
  return 'either';
}

const PARTICLE_AFTER_LATIN = /([A-Za-z][A-Za-z0-9*'’-]*)(\)|’|'|")?(은|는|이|가|을|를|과|와|으로|로)(?=[\s.,?!)」]|$)/gu;
const NEEDS: Record<string, 'consonant' | 'vowel'> = { 은: 'consonant', 이: 'consonant', 을: 'consonant', 과: 'consonant', 으로: 'consonant', 는: 'vowel', 가: 'vowel', 를: 'vowel', 와: 'vowel', 로: 'vowel' };

/** Particles that do not fit the English word before them (`heuristic가`, `Outline를`). */
function particleMistakes(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(PARTICLE_AFTER_LATIN)) {
    const [, word = '', , particle = ''] = match;
    // A unit after a number (`3 m로`) is read as its name (미터), not as a letter.
    if (/^[A-Za-z]{1,3}$/u.test(word) && /\d\s*$/u.test(text.slice(0, match.index))) continue;
    if (match[2] === ')' && /[\uac00-\ud7a3]\($/u.test(text.slice(0, match.index))) continue;
    // `이` or `가` starting a Korean word after a space is no particle; here it follows the word directly.
    const ending = englishEnding(word);
    if (ending === 'either') continue;
    const needed = NEEDS[particle];
    if (particle === '로' && ending === 'rieul') continue;
    const sound = ending === 'rieul' ? 'consonant' : ending;
    if (needed !== undefined && needed !== sound) found.push(match[0]);
  }
  return found;
}

// --- English part of speech of a blank ---------------------------------------------------------------------------

/** The tag of `word` in `sentence` (the first token equal to it or with it as lemma), by the tagger. */
function tagIn(sentence: string, word: string): string | undefined {
  const doc = nlp.readDoc(sentence);
  const tokens = doc.tokens().out().map((token) => token.toLowerCase());
  const lemmas = doc.tokens().out(lemmaOf).map((lemma) => lemma.toLowerCase());
  const tags = doc.tokens().out(its.pos);
  const target = word.toLowerCase();
  const index = tokens.includes(target) ? tokens.indexOf(target) : lemmas.indexOf(target);
  return index >= 0 ? tags[index] : undefined;
}

const NOUN_TAGS = new Set(['NOUN', 'PROPN']);
/** A word the tagger reads as a noun in a plain frame (`We study the variable.`): it can be one. */
const canBeNoun = (word: string) => NOUN_TAGS.has(tagIn(`We study the ${word}.`, word) ?? '');

/**
 * Whether the blank's word is a noun where it stands: tagged so in its sentence, or tagged an adjective there by a
 * tagger that often reads a sentence-initial noun so (`A variable is …`) while the word can be a noun.
 */
function nounIn(sentence: string, word: string): boolean {
  const tag = tagIn(sentence, word);
  return NOUN_TAGS.has(tag ?? '') || ((tag === 'ADJ' || tag === 'X') && canBeNoun(word));
}

/** The original sentence a cloze item quotes in its explanation (`자료의 원문은 「…」`), else the question filled in. */
function clozeSource(question: string, explanation: string, key: string): string {
  return /원문은 「(.+?)」/u.exec(explanation)?.[1] ?? (/「(.+)」/u.exec(question)?.[1] ?? question).replace(new RegExp(BLANK.source, 'gu'), key);
}

export function findDefects(material: GoldenMaterial): DefectInstance[] {
  const deck = material.deck;
  const found: DefectInstance[] = [];
  const add = (defect: Defect, where: string, text: string) => found.push({ deck: deck.name, defect, where, text: oneLine(text).slice(0, 200) });
  const front = (deck.frontMatter ?? []).map(lower);
  const hasFront = (text: string) => front.find((entry) => lower(text).includes(entry));
  const allText = material.chapters.map((chapter) => chapter.raw).join('\n');

  // Lectures.
  for (const chapter of material.chapters) {
    const where = `${chapter.index + 1}장`;
    const body = chapter.raw.replace(/^# .*$/mu, '');
    const shown = [body, ...chapter.questions.flatMap((question) => [question.modelAnswer, ...question.subconcepts.flatMap((part) => [part.concept, part.question, part.explanation])]), ...chapter.choices];
    for (const text of shown) {
      const entry = hasFront(text);
      if (entry !== undefined) add('front-matter', `${where} 강의`, `${entry}: ${text}`);
      for (const mistake of particleMistakes(text)) add('particle', `${where} 강의`, mistake);
    }
    const concepts = new Set<string>();
    for (const question of chapter.questions) {
      const concept = askedConcept(question.text);
      if (MEDIUM.test(concept)) add('medium-question', `${where} 질문`, question.text);
      if (concepts.has(lower(concept))) add('duplicate', `${where} 질문`, question.text);
      concepts.add(lower(concept));
      const answer = oneLine(question.modelAnswer);
      if (PLACEHOLDERS.has(answer) || loose(answer) === loose(chapter.title) || loose(answer) === loose(material.title)) add('placeholder-answer', `${where} 모범 답안`, question.text);
      else if (loose(answer).includes(loose(question.text)) || loose(question.text).includes(loose(answer))) add('restated-answer', `${where} 모범 답안`, `${question.text} → ${answer}`);
      const parts = new Set<string>();
      for (const part of question.subconcepts) {
        if (MEDIUM.test(part.concept)) add('medium-question', `${where} 하위 개념`, part.concept);
        if (GENERIC_EXPLANATION.test(part.explanation)) add('placeholder-answer', `${where} 하위 개념`, `${part.concept}: ${part.explanation}`);
        if (parts.has(lower(part.concept))) add('duplicate', `${where} 하위 개념`, part.concept);
        parts.add(lower(part.concept));
      }
    }
    const choices = new Set<string>();
    for (const choice of chapter.choices) {
      if (MEDIUM.test(choice)) add('medium-question', `${where} 손들기`, choice);
      const key = lower(choice).replace(/s$/u, '');
      if (choices.has(key)) add('duplicate', `${where} 손들기`, choice);
      choices.add(key);
      // A concept met only inside code is an identifier, not something the deck teaches.
      const inProse = sentencesOf(allText).some((sentence) => !isCodeLine(sentence, deck.code) && lower(sentence).includes(lower(choice)));
      if (!inProse) add('odd-distractor', `${where} 손들기`, choice);
    }
  }
  // Code and formula lines stay whole: each is a line of some chapter's lecture as written.
  const lines = new Set(allText.split('\n').map((line) => line.trim()));
  for (const code of deck.code ?? []) if (!lines.has(code.trim())) add('code-broken', '강의', code);

  // Quizzes.
  const positions = [0, 0, 0, 0];
  for (const quiz of material.items.quizzes) {
    const where = `퀴즈 ${quiz.scope}`;
    if (quiz.notice !== undefined && FAILURE.test(quiz.notice)) add('failure', where, quiz.notice);
    const sources = new Set<string>();
    const questions = new Set<string>();
    const perPosition = [0, 0, 0, 0];
    const passages = lower(quiz.passages.join('\n'));
    for (const { item, review } of quiz.items) {
      const before = found.length;
      const key = item.choices[item.answer] ?? '';
      if (item.choices.length !== 4 || new Set(item.choices.map(lower)).size !== item.choices.length || key === '') add('bad-choices', where, item.question);
      if (item.answer >= 0 && item.answer < 4) {
        positions[item.answer] = (positions[item.answer] ?? 0) + 1;
        perPosition[item.answer] = (perPosition[item.answer] ?? 0) + 1;
      }
      if (PLACEHOLDERS.has(key.trim())) add('placeholder-answer', where, item.question);
      if (MEDIUM.test(key)) add('medium-question', where, `${key}: ${item.question}`);
      for (const text of [item.question, ...item.choices, item.explanation]) {
        const entry = hasFront(text);
        if (entry !== undefined) add('front-matter', where, `${entry}: ${text}`);
        for (const mistake of particleMistakes(text)) add('particle', where, mistake);
      }
      if (questions.has(loose(item.question))) add('duplicate', where, item.question);
      questions.add(loose(item.question));
      const cloze = BLANK.test(item.question);
      if (cloze) {
        const source = clozeSource(item.question, item.explanation, key);
        if (sources.has(loose(source))) add('duplicate', where, `같은 문장: ${source}`);
        sources.add(loose(source));
        if (!passages.includes(lower(key)) || !loose(passages).includes(loose(source))) add('cloze-not-in-source', where, `${key}: ${source}`);
        if ((deck.code ?? []).some((code) => loose(code).includes(loose(source)) || loose(source).includes(loose(code)))) add('code-broken', where, `빈칸이 코드·수식에: ${item.question}`);
        const blanked = /「(.+)」/u.exec(item.question)?.[1] ?? item.question;
        if (POINTS_BACK.test(blanked.trim())) add('cloze-fragment', where, blanked);
        if (/[A-Za-z]/u.test(key) && !/[\uac00-\ud7a3]/u.test(key)) {
          const words = key.split(/\s+/u);
          const head = words.at(-1) ?? key;
          if (!nounIn(source, head)) add('cloze-bad-blank', where, `${key} (${tagIn(source, head) ?? '?'}): ${source}`);
          // Half of a term the deck keeps saying as two words (`____ ascent`, `learning` of `learning rate`).
          const around = new RegExp(`([A-Za-z-]+)\\s+${escape(key)}\\b|\\b${escape(key)}\\s+([A-Za-z-]+)`, 'giu');
          for (const match of source.matchAll(around)) {
            const phrase = lower(match[0]);
            const next = match[2] ?? '';
            const joined = (allText.toLowerCase().match(new RegExp(`\\b${escape(phrase)}\\b`, 'gu')) ?? []).length;
            const tagNext = next === '' ? undefined : tagIn(source, next);
            if (joined >= 2 && (match[1] === undefined || !/^(?:the|a|an|of|and|or|to|in|with|by|for|is|are)$/iu.test(match[1])) && (next === '' || tagNext === 'NOUN')) {
              add('cloze-partial-term', where, `${match[0]}: ${source}`);
              break;
            }
          }
          for (const [position, choice] of item.choices.entries()) {
            if (position === item.answer) continue;
            if ((/^[A-Z][a-z]+$/u.test(choice) && !allText.includes(choice.toLowerCase())) || !canBeNoun(choice.split(/\s+/u).at(-1) ?? choice)) add('odd-distractor', where, `${choice} (${key})`);
          }
        } else {
          // Korean: a blank with no particle after it, before a number or a predicate, is an adverb's place.
          if (/_{3,}\s+(?:\d|[가-힣]+(?:니다|다)\b)/u.test(item.question)) add('cloze-bad-blank', where, item.question);
          if (/_{3,}(?:이\(가\)|은\(는\))\s*(?:아니|없|있)/u.test(item.question)) add('cloze-fragment', where, item.question);
        }
      }
      if (review?.is_passed === true && found.length > before) add('gate-passed-bad', where, item.question);
    }
    if (Math.max(...perPosition) >= 3) add('key-position', where, `정답 위치 ${perPosition.join('/')}`);
  }

  // The exam.
  const exam = material.items.exam;
  if (exam.notice !== undefined && FAILURE.test(exam.notice)) add('failure', '시험', exam.notice);
  const examQuestions = new Set<string>();
  for (const problem of exam.problems) {
    const where = `시험 ${problem.id}번`;
    const answer = oneLine(problem.modelAnswer);
    for (const text of [problem.question, problem.modelAnswer, ...problem.keywords]) {
      const entry = hasFront(text);
      if (entry !== undefined) add('front-matter', where, `${entry}: ${text}`);
      for (const mistake of particleMistakes(text)) add('particle', where, mistake);
    }
    if (PLACEHOLDERS.has(answer) || problem.keywords.some((keyword) => PLACEHOLDERS.has(keyword.trim())) || loose(answer) === loose(material.title)) add('placeholder-answer', where, `${problem.question} → ${answer}`);
    else if (problem.type === 'Descriptive' && loose(problem.question).includes(loose(answer))) add('restated-answer', where, answer);
    const quoted = /「(.+)」/u.exec(problem.question)?.[1];
    if (problem.type === 'Short_Keyword' && /빈칸/u.test(problem.question) && (quoted === undefined || !BLANK.test(quoted))) add('cloze-fragment', where, `빈칸 없는 빈칸 문제: ${problem.question}`);
    const concept = /^(.+?)(?:이|가)\s무엇인지/u.exec(problem.question)?.[1];
    if (concept !== undefined && (MEDIUM.test(concept) || PLACEHOLDERS.has(concept))) add('medium-question', where, problem.question);
    if (examQuestions.has(loose(problem.question))) add('duplicate', where, problem.question);
    examQuestions.add(loose(problem.question));
  }

  // The answer key over all quizzes of the deck: no position holds more than 30 %, judged with at least 40 items (a
  // few quizzes of two keys per position at most can reach 40 % by chance; test/fair-keys.test.ts counts 1,000).
  const total = positions.reduce((sum, value) => sum + value, 0);
  if (total >= 40 && Math.max(...positions) > 0.3 * total) add('key-position', '퀴즈 모두', `정답 위치 ${positions.join('/')}`);
  return found;
}

const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+|\n+/u).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');

/** A line of code or a formula: one of the deck's, or one that reads like a statement of code. */
function isCodeLine(line: string, code: readonly string[] | undefined): boolean {
  return (code ?? []).some((entry) => line.trim() === entry.trim()) || /^(?:def|for|while|if|return)\b.*:?$|^[\w.]+\s*=\s*\S/u.test(line.trim());
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** Counts per deck and defect, and the total per defect. */
export function countDefects(instances: readonly DefectInstance[], decks: readonly string[]): { decks: Record<string, Record<Defect, number>>; total: Record<Defect, number> } {
  const zero = () => Object.fromEntries(DEFECTS.map((defect) => [defect, 0])) as Record<Defect, number>;
  const perDeck: Record<string, Record<Defect, number>> = Object.fromEntries(decks.map((deck) => [deck, zero()]));
  const total = zero();
  for (const instance of instances) {
    const counts = perDeck[instance.deck] ?? zero();
    counts[instance.defect] += 1;
    perDeck[instance.deck] = counts;
    total[instance.defect] += 1;
  }
  return { decks: perDeck, total };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { materials } = await renderAllGolden(MEASURED_DECKS);
  const instances = materials.flatMap(findDefects);
  const counts = countDefects(instances, materials.map((material) => material.deck.name));
  console.log(JSON.stringify({ ...counts, ...(process.argv.includes('--list') ? { instances } : {}) }, null, 2));
}
