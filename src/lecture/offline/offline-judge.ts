import { analyseText, assessAnswer, type AssessFlag, type Assessment, findContradiction } from '../../judges/index.js';
import { contentTerms, englishCompounds, hasFinalConsonant, isEnglishText, letterCount, looksLikeNoun, splitSentences, termPattern, termsMatch, withParticle } from '../../text/index.js';

/**
 * The offline Q&A judge: the verdict comes from the offline answer assessor (`src/judges`, measured by
 * `npm run eval:judge`), so a give-up, an echo of the question, a pasted passage of the lecture, a bare keyword
 * list or a statement that reverses the model answer is never good; the feedback names, in the student's words,
 * what the answer left out or got backwards.
 */

export interface OfflineJudgeInput {
  question: string;
  modelAnswer: string;
  answer: string;
  /** The lecture the question came from, so a passage pasted from it is recognised. */
  lecture?: string;
}

export interface OfflineJudgement {
  verdict: 'good' | 'bad';
  feedback: string;
  assessment: Assessment;
}

const CONTRADICTIONS: ReadonlySet<AssessFlag> = new Set(['negation', 'antonym', 'reversed', 'swapped']);

/**
 * Words too general to tell a student what was missing ("값", "모두"), besides predicate forms and numbers, which
 * `looksLikeNoun` and the digit test drop.
 */
const VAGUE_WORDS: ReadonlySet<string> = new Set([
  '값', '것', '수', '뒤', '후', '전', '때', '모두', '항상', '각', '매우', '아주', '크게', '함께', '일부', '하나', '여기서',
  '다음', '경우', '정도', '사실', '결과', '방법',
]);

/**
 * A modifier form of a verb (`나눈`, `더한`, `큰`): a word ending in ㄴ or ㄹ that the reference only ever writes
 * bare, before another word, never with a particle. Nouns in a definition carry particles (`평균은`, `개수로`).
 */
function isModifier(term: string, reference: string): boolean {
  const last = Array.from(term).at(-1) ?? '';
  const final = /[\uac00-\ud7a3]/u.test(last) ? (last.charCodeAt(0) - 0xac00) % 28 : 0;
  if (final !== 4 && final !== 8) return false;
  const endings = Array.from(reference.matchAll(new RegExp(`${term}([\\uac00-\\ud7a3]*)`, 'gu')), (match) => match[1] ?? '');
  return endings.length > 0 && endings.every((ending) => ending.length === 0);
}

/**
 * Stems the reference only ever uses as a verb or an adjective (`나누` of `나눈`, `다르` of `다릅니다`, `가깝` of
 * `가까워집니다`): the assessor's units for them are stems, not words a student would recognise as an idea.
 */
function verbStems(reference: string): Set<string> {
  const byUnit = new Map<string, boolean>();
  for (const token of analyseText(reference).tokens) {
    if (!token.hangul || token.unit === '') continue;
    byUnit.set(token.unit, (byUnit.get(token.unit) ?? true) && token.verbal);
  }
  return new Set([...byUnit].filter(([, verbal]) => verbal).map(([unit]) => unit));
}

/** `'term'` followed by the form of `이라는/라는` that fits the term. */
function namedIdea(terms: readonly string[]): string {
  const last = terms.at(-1) ?? '';
  return `${terms.map((term) => `'${term}'`).join(', ')}${hasFinalConsonant(last) ? '이라는' : '라는'}`;
}

function quoted(term: string, pair: '을/를' | '이/가' | '과/와'): string {
  return `'${term}'${withParticle(term, pair).slice(term.length)}`;
}

/**
 * A noun with the copula's 이 still attached (`가치이` of `가치이다`): the noun alone, when the reference writes it so.
 * A student is never quoted half a word.
 */
function withoutCopula(term: string, reference: string): string {
  const before = Array.from(term).at(-2) ?? '';
  // Only after a vowel-final syllable (가치이다): after a consonant the 이 is part of the noun (길이, 높이).
  if (!term.endsWith('이') || !/[\uac00-\ud7a3]/u.test(before) || (before.charCodeAt(0) - 0xac00) % 28 !== 0) return term;
  return new RegExp(`${term}(?:다|며|고|라|므로|지만)`, 'u').test(reference) ? term.slice(0, -1) : term;
}

/**
 * Concepts of the evidence worth naming to a student: nouns of two letters or more that the question does not
 * already say, no numbers, symbols or variables, at most `limit`.
 */
export function studentConcepts(labels: readonly string[], question: string, reference: string, limit = 2): string[] {
  if (isEnglishText(reference)) return englishConcepts(labels, question, reference, limit);
  const asked = contentTerms(question);
  const verbs = verbStems(reference);
  const concepts: string[] = [];
  for (const label of labels) {
    const term = withoutCopula(label.trim(), reference);
    if (Array.from(term).length < 2 || letterCount(term) < 2 || /\d/u.test(term) || VAGUE_WORDS.has(term)) continue;
    // Variables and symbols (x̄, μ, E[X], xₙ) are not ideas a student is missing.
    if (!/^(?:[\uac00-\ud7a3]+|[A-Za-z]{3,}(?:\s[A-Za-z]{3,})*)$/u.test(term)) continue;
    if (verbs.has(term) || !looksLikeNoun(term) || isModifier(term, reference) || asked.some((word) => termsMatch(word, term))) continue;
    if (concepts.some((other) => termsMatch(other, term))) continue;
    concepts.push(term);
    if (concepts.length === limit) break;
  }
  return concepts;
}

/**
 * `studentConcepts` of an English reference: each label (a word of the assessor's evidence) named as the longest noun
 * compound of the reference that has it (`quantum` -> `time quantum`, `utilization` -> `CPU utilization`). A label in
 * no compound is a verb, an adjective, a function word or a generic noun of the prose (`moves`, `new`, `between`,
 * `low`, `time` alone): it names no idea, so it is not named.
 */
function englishConcepts(labels: readonly string[], question: string, reference: string, limit: number): string[] {
  const compounds = englishCompounds(reference);
  const concepts: string[] = [];
  for (const label of labels) {
    const word = label.trim().toLowerCase();
    if (word.length < 2) continue;
    const has = (compound: string): boolean => compound.toLowerCase().split(' ').some((part) => part === word || (part.startsWith(word) && part.length - word.length <= 2));
    const compound = compounds.filter(has).sort((left, right) => right.split(' ').length - left.split(' ').length)[0];
    // The question already says it (`Process States에 대해 …`): naming it tells the student nothing.
    if (compound === undefined || termPattern(compound).test(question)) continue;
    if (concepts.some((other) => other.toLowerCase() === compound.toLowerCase())) continue;
    concepts.push(compound);
    if (concepts.length === limit) break;
  }
  return concepts;
}

/**
 * The two ideas whose places the answer swapped against the model answer or one of its sentences, when both are
 * nouns a student can be shown (`'값'과 '개수'`); undefined otherwise.
 */
function swappedIdeas(answer: string, references: readonly string[]): [string, string] | undefined {
  const analysed = analyseText(answer);
  for (const reference of references) {
    const { swapped, reversed } = findContradiction(analysed, analyseText(reference));
    const pair = swapped ?? reversed;
    if (pair === undefined) continue;
    const verbs = verbStems(reference);
    if (pair.every((term) => /^[\uac00-\ud7a3]{1,8}$/u.test(term) && !verbs.has(term) && looksLikeNoun(term))) return pair;
  }
  return undefined;
}

/** The feedback for a verdict, from the assessment's flags and evidence. */
function feedbackFor(assessment: Assessment, question: string, reference: string, flags: readonly AssessFlag[], answer: string): string {
  const missing = studentConcepts(assessment.evidence.missing, question, reference);
  const matched = studentConcepts(assessment.evidence.matched, question, reference);
  const missingLine = missing.length > 0 ? ` ${namedIdea(missing)} 생각이 빠져 있어요.` : '';
  if (assessment.label2 === 'good') {
    const praise = matched.length > 0 ? ` 특히 ${quoted(matched.join("', '"), '을/를')} 정확히 짚었어요.` : '';
    const more = missing.length > 0 ? ` ${namedIdea(missing)} 점까지 함께 떠올리면 더 완벽해요.` : '';
    return `좋아요, 핵심을 잘 이해하고 있어요.${praise}${more}`;
  }
  if (flags.includes('give-up')) {
    const start = missing.length > 0 ? `${namedIdea(missing)} 생각부터` : '핵심부터';
    return `괜찮아요, 처음에는 어려울 수 있어요. ${start} 차근차근 함께 짚어 봅시다.`;
  }
  if (flags.includes('reversed') || flags.includes('swapped')) {
    const pair = swappedIdeas(answer, [reference, ...splitSentences(reference)]);
    if (pair !== undefined) {
      const [first, second] = pair;
      return `${quoted(first, '과/와')} ${quoted(second, '이/가')} 놓인 자리가 모범 답안과 서로 바뀌어 있어요. 둘이 각각 어떤 역할을 하는지 다시 생각해 봅시다.`;
    }
    return `설명의 순서나 짝이 거꾸로 되어 있어요. 무엇이 무엇에 영향을 주는지 다시 생각해 봅시다.${missingLine}`;
  }
  if (flags.some((flag) => CONTRADICTIONS.has(flag))) {
    return `모범 답안과 반대되는 내용이 들어 있어요. 어느 부분이 다른지 함께 짚어 봅시다.${missingLine}`;
  }
  if (flags.includes('echo')) return `질문을 다시 말하기보다, 그 뜻을 자신의 말로 풀어 보세요.${missingLine}`;
  if (flags.includes('pasted-passage')) return `강의 문장을 그대로 옮기기보다, 자신의 말로 설명해 보세요.${missingLine}`;
  if (flags.includes('keyword-list')) {
    return `낱말만 늘어놓기보다, 그 낱말들이 어떻게 이어지는지 문장으로 설명해 보세요.${missingLine}`;
  }
  return missing.length > 0
    ? `답변에 ${namedIdea(missing)} 생각이 빠져 있어요. 이 부분을 함께 하나씩 짚어 봅시다.`
    : '핵심이 조금 부족해요. 이 부분을 함께 하나씩 짚어 봅시다.';
}

/**
 * The verdict on `answer` against the model answer: the assessor's good/bad (label2), and good only if no single
 * sentence of the model answer is contradicted either — a longer model answer dilutes a reversal of one of its
 * sentences, so each sentence is checked on its own too.
 */
export function judgeOfflineAnswer({ question, modelAnswer, answer, lecture }: OfflineJudgeInput): OfflineJudgement {
  const source = lecture !== undefined && lecture.trim().length > 0 ? { source: lecture } : {};
  const assessment = assessAnswer({ question, reference: modelAnswer, answer, ...source });
  const flags = [...assessment.evidence.flags];
  let verdict = assessment.label2;
  const sentences = splitSentences(modelAnswer);
  if (verdict === 'good' && sentences.length > 1) {
    for (const sentence of sentences) {
      const contradicted = assessAnswer({ question, reference: sentence, answer }).evidence.flags.filter((flag) => CONTRADICTIONS.has(flag));
      if (contradicted.length > 0) {
        verdict = 'bad';
        flags.push(...contradicted);
      }
    }
  }
  const judged: Assessment = verdict === assessment.label2 ? assessment : { ...assessment, label2: verdict, label3: 'incorrect' };
  return { verdict, feedback: feedbackFor(judged, question, modelAnswer, flags, answer), assessment: judged };
}
