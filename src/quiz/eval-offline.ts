import { analyseText, findContradiction, unitFound, type AnalysedText } from '../judges/index.js';
import type { OfflineTasks } from '../llm/index.js';
import type { DocumentType } from '../retrieval/index.js';
import { englishTerms, splitSentences, termPattern } from '../text/index.js';
import { checkQuizItem, type Refusal } from '../guard/index.js';
import { EVAL_TASKS, EvalJudgeInput, type EvalPassage, type EvalReply } from './eval-agent.js';
import { MAX_SCORE, decidePass } from './pass-rule.js';

/**
 * The offline EvalAgent: the same three scores from the item and its retrieved passages, deterministically, with
 * the offline judges' text units (src/judges: particles and endings stripped, spacing-blind Korean matching, Porter
 * stems, negation and antonym checks). It reads facts, not style, so grounding is what it measures best.
 *
 * Grounding — are the keyed answer and the explanation stated by the material? Facts are the content units that are
 * not predicates (nouns, numbers, Latin terms: seed 001's "사실, 숫자, 용어, 날짜"), minus the words every quiz uses
 * to ask (`빈칸`, `알맞은`, `정답`, `해설`…). Passages are cut into sentences and a claim must be carried by ONE
 * sentence, so two facts from neighbouring sentences cannot be glued into a false one.
 * - The keyed answer: the question (its blank `____` filled with the keyed choice) is matched to the passage
 *   sentence that contains most of its facts; every fact of the keyed choice must be in that sentence.
 * - The explanation: each part (between commas) of each of its sentences with at least two facts must have all of
 *   them in one passage sentence.
 * - No claim (an explanation sentence; a cloze question with its blank filled) may contradict its sentence (a
 *   negation on one side only, antonyms swapped, a cause reversed).
 * - Letter abbreviations are glued before any of this (`D/A` → `DA`, `ICC(C)` → `ICCC`), so they stay distinct.
 * 10 only when all three hold; otherwise ⌊10 × the smallest share of facts found⌋, at most 9.
 *
 * Educational — from evidence, two points each: the question asks something; it is 10–250 characters; the keyed
 * choice is not already written in the question; the explanation gives a reason; the keyed answer is a key term of
 * the material (a cloze blank: defined there or said twice; another key: written in the passages). An explanation
 * that does not name the key costs two points, and every item-guard refusal that makes the item teach less (a blank
 * on a verb, an adverb or half a term, a fragment, the medium, a cover page, choices that give the key away) four.
 * A cloze sentence the guard does not find in the passages caps grounding at 3.
 *
 * Insight — 4, plus 3 when the question asks a relation or a reason (왜, 차이, because…), 2 when its blank is the
 * subject of a defining sentence, 3 for each kind of practical cue in the question or explanation (실무 / in
 * practice; 주의 / note that; 예를 들어 / for example; 실수 / mistake; 확인 / check), 2 when the sentence comes from a
 * practical passage; at most 10. A faithful, clear item without tips scores 10 + 10 + 4 and passes; scores vary with
 * what the item asks.
 *
 * Measured by `npm run eval:quiz-judge`: conservative — it rarely passes a wrong
 * item, and fails faithful ones whose explanation paraphrases the material or joins two of its sentences.
 */

/** The blank of a cloze question (quiz-offline.ts writes `____`). `replace` with a /g pattern keeps no state. */
const BLANK = /_{3,}/gu;
const MAX_BELOW_FULL = MAX_SCORE - 1;

/**
 * How quiz items ask, explain and advise: not facts, so never required of the material (an explanation's tip
 * "실무에서는 … 주의하세요" is checked for the facts it states, not for the words that make it advice).
 */
const FRAME_TEXT =
  '다음 빈칸 들어갈 말로 알맞은 옳은 옳지 않은 것은 고르시오 고르세요 정답 오답 보기 해설 문제 자료 원문 따라서 주체 사람 누구 무엇 어디 언제 해당 적절 설명 내용 이유 근거 ' +
  '실무 실무에서는 현업 주의 주의할 유의 조심 점 점에 팁 꼭 반드시 필요 중요 ' +
  'which what following correct statement true false answer best choice explanation material practice note careful tip';
/**
 * Trade and safety texts name things with letters the text units would split into single letters: `D/A` and `D/P`,
 * `B/L`, `ICC(A)` and `ICC(C)`. Glued into one word (`DA`, `ICCA`) they stay different terms.
 */
function glueAbbreviations(text: string): string {
  return text.replace(/\b([A-Za-z])\/([A-Za-z])\b/gu, '$1$2').replace(/\b([A-Za-z]{2,})\(([A-Za-z0-9])\)/gu, '$1$2');
}
const analyse = (text: string) => analyseText(glueAbbreviations(text));

let frameUnits: ReadonlySet<string> | undefined;
function frame(): ReadonlySet<string> {
  frameUnits ??= new Set(analyseText(FRAME_TEXT).units);
  return frameUnits;
}

interface Fact {
  unit: string;
  hangul: boolean;
  surface: string;
}

/** Verb forms the Korean stemmer leaves whole (`책임진다는`, `부과된다`): predicates, however they are spelled. */
const VERB_FORM = /(?:[는한된진있없]다|다는)$/u;

/** The facts of a text: its distinct non-predicate content units outside the quiz frame. */
function factsOf(text: AnalysedText): Fact[] {
  const seen = new Set<string>();
  const facts: Fact[] = [];
  for (const token of text.tokens) {
    if (!token.content || token.predicate || token.unit === '' || frame().has(token.unit) || seen.has(token.unit)) continue;
    if (token.hangul && VERB_FORM.test(token.surface)) continue;
    seen.add(token.unit);
    facts.push({ unit: token.unit, hangul: token.hangul, surface: token.surface });
  }
  return facts;
}

interface SourceSentence {
  text: string;
  analysed: AnalysedText;
  /** The sentence read as one clause, for the contradiction check (see {@link contradicts}). */
  whole: AnalysedText;
  documentType: DocumentType;
}

/**
 * The judges line negations up clause by clause, and a comma makes a clause: `보험료는 매수인, 즉 수입자가
 * 부담합니다` would put the predicate in another clause than the claim's `보험료는 매수인이 부담하지 않습니다`. A
 * claim is checked against the one sentence that carries all its facts, so both are read whole.
 */
const asOneClause = (text: string) => analyse(text.replace(/[,，;]/gu, ' '));

function contradicts(claim: string, sentence: SourceSentence): boolean {
  return findContradiction(asOneClause(claim), sentence.whole).flipped;
}

function sourceSentences(passages: readonly EvalPassage[]): SourceSentence[] {
  return passages.flatMap((passage) =>
    splitSentences(passage.text).map((text) => ({ text, analysed: analyse(text), whole: asOneClause(text), documentType: passage.documentType })),
  );
}

const found = (facts: readonly Fact[], sentence: SourceSentence) => facts.filter((fact) => unitFound(fact.unit, fact.hangul, sentence.analysed));

/** The sentence holding most of `facts` (first one on a tie, in passage order), with what it holds. */
function bestSentence(facts: readonly Fact[], sentences: readonly SourceSentence[]): { sentence: SourceSentence; found: Fact[] } | undefined {
  let best: { sentence: SourceSentence; found: Fact[] } | undefined;
  for (const sentence of sentences) {
    const held = found(facts, sentence);
    if (best === undefined || held.length > best.found.length) best = { sentence, found: held };
  }
  return best;
}

/**
 * The claims of an explanation sentence: its parts between commas and semicolons, since an explanation often joins in
 * one sentence what the material says in two (`…110%로 정하며, 10%는 …`). Each part must still be in one sentence.
 */
function claimsOf(sentence: string): string[] {
  return sentence.split(/[,，;]\s+/u).filter((claim) => claim.trim() !== '');
}

interface Grounding {
  score: number;
  problems: string[];
  /** The sentence the question rests on. */
  anchor: SourceSentence | undefined;
}

const quote = (text: string, max = 60) => `「${text.length > max ? `${text.slice(0, max)}…` : text}」`;

function judgeGrounding(input: EvalJudgeInput, sentences: readonly SourceSentence[]): Grounding {
  const { item } = input;
  const key = item.choices[item.answer] ?? '';
  const problems: string[] = [];
  let lowest = 1;

  // The keyed answer, in the sentence the question is about.
  const statement = item.question.replace(BLANK, key);
  const keyText = analyse(key);
  const keyFacts = factsOf(keyText).length > 0 ? factsOf(keyText) : keyText.units.map((unit) => ({ unit, hangul: /[\uac00-\ud7a3]/u.test(unit), surface: unit }));
  const keyUnits = new Set(keyFacts.map((fact) => fact.unit));
  const questionFacts = factsOf(analyse(statement)).filter((fact) => !keyUnits.has(fact.unit));
  let anchor: SourceSentence | undefined;
  let anchorScore = -1;
  for (const sentence of sentences) {
    // Most question facts first; on a tie the sentence with more of the keyed answer.
    const score = found(questionFacts, sentence).length * 100 + found(keyFacts, sentence).length;
    if (score > anchorScore) {
      anchor = sentence;
      anchorScore = score;
    }
  }
  const keyHeld = anchor === undefined ? [] : found(keyFacts, anchor);
  if (keyFacts.length > 0) {
    lowest = Math.min(lowest, keyHeld.length / keyFacts.length);
    if (keyHeld.length < keyFacts.length) {
      problems.push(`정답 「${key}」이(가) 문제가 가리키는 자료 문장${anchor ? ` ${quote(anchor.text)}` : ''}에 없습니다.`);
    }
  }
  // Only a filled-in blank makes the question a claim; a plain question may ask with a negation (`옳지 않은 것은?`).
  const cloze = statement !== item.question;
  if (cloze && anchor !== undefined && contradicts(statement, anchor)) {
    lowest = 0;
    problems.push(`정답을 넣은 문제가 자료 문장 ${quote(anchor.text)}과 반대로 말합니다.`);
  }

  // Every explanation sentence that states facts, each in one sentence of the material.
  for (const sentence of splitSentences(item.explanation)) {
    // Facts part by part (see claimsOf)…
    let supported = true;
    for (const claim of claimsOf(sentence)) {
      const facts = factsOf(analyse(claim));
      if (facts.length < 2) continue;
      const held = bestSentence(facts, sentences)?.found ?? [];
      lowest = Math.min(lowest, held.length / facts.length);
      if (held.length < facts.length) {
        supported = false;
        const missing = facts.filter((fact) => !held.includes(fact)).map((fact) => fact.surface);
        problems.push(`해설 ${quote(claim)}에서 자료로 확인되지 않는 말: ${missing.join(', ')}.`);
      }
    }
    // …polarity over the whole sentence, whose negation may sit in another part than its facts (`…매수인, 즉
    // 수입자가 부담하지 않습니다`).
    const facts = factsOf(analyse(sentence));
    const best = facts.length < 2 ? undefined : bestSentence(facts, sentences);
    if (supported && best !== undefined && contradicts(sentence, best.sentence)) {
      lowest = 0;
      problems.push(`해설 ${quote(sentence)}이(가) 자료 문장 ${quote(best.sentence.text)}과 반대로 말합니다.`);
    }
  }
  const score = problems.length === 0 ? MAX_SCORE : Math.min(MAX_BELOW_FULL, Math.floor(MAX_SCORE * lowest));
  return { score, problems, anchor };
}

const REASON_CUE = /때문|므로|따라서|이유|근거|원문|왜냐하면|그래서|\bbecause\b|\bsince\b|\btherefore\b|\bso\b|\breason\b/iu;
const INSIGHT_CUES: readonly RegExp[] = [
  /실무|현업|\bin practice\b|\bin the field\b/iu,
  /주의|조심|유의|\bnote that\b|\bbe careful\b|\bwatch out\b/iu,
  /예를 들어|예를 들면|예컨대|\bfor example\b|\be\.g\./iu,
  /실수|오류|\bmistake|\bpitfall/iu,
  /확인|점검|체크|\bcheck/iu,
];
const PRACTICAL_TYPES: ReadonlySet<DocumentType> = new Set(['common_mistake', 'guideline', 'error_checklist', 'case', 'procedure']);

/** Guard rules that make an item teach less (or nothing): each costs educational value. */
const TEACHES_LESS = new Set(['placeholder', 'medium-question', 'front-matter', 'cloze-blank-word', 'cloze-partial-term', 'cloze-fragment', 'cloze-in-code', 'cloze-choice-shape', 'choices', 'duplicate', 'particle']);

/** Whether the keyed answer is a key term of the material the passages are from: defined there, or said twice. */
function isKeyTerm(key: string, passages: readonly EvalPassage[]): boolean {
  const text = passages.map((passage) => passage.text).join('\n');
  if (/[A-Za-z]/u.test(key) && !/[\uac00-\ud7a3]/u.test(key)) {
    const terms = englishTerms(splitSentences(text));
    return terms.some((term) => term.term.toLowerCase() === key.trim().toLowerCase()) || (text.match(termPattern(key.trim())) ?? []).length >= 2;
  }
  return text.split(key.trim()).length - 1 >= 2;
}

/**
 * Educational value from evidence, two points each: the question asks something; it is 10–250 characters; the keyed
 * choice is not written in the question; the explanation gives a reason; the keyed answer is a key term of the
 * material (defined there or said at least twice). Every item-guard refusal that makes the item teach less (a blank
 * on a verb or an adverb, half a term, a fragment, the medium, a cover page, choices that give the key away) takes
 * four points.
 */
function judgeEducational(input: EvalJudgeInput, refusals: readonly Refusal[], notes: string[]): number {
  const { item } = input;
  const key = item.choices[item.answer] ?? '';
  let score = 0;
  const asks = /[?？]\s*(?:[「『"“].*)?$|_{3,}|고르(?:시오|세요)/su.test(item.question);
  if (asks) score += 2;
  else notes.push('문제가 무엇을 묻는지 분명하지 않습니다.');
  const length = item.question.length;
  if (length >= 10 && length <= 250) score += 2;
  else notes.push('문제의 길이가 신입사원이 한 번에 읽기에 알맞지 않습니다.');
  if (!item.question.replace(BLANK, '').toLowerCase().includes(key.toLowerCase())) score += 2;
  else notes.push('정답이 문제에 그대로 나옵니다.');
  if (REASON_CUE.test(item.explanation)) score += 2;
  else notes.push('해설이 정답의 이유를 밝히지 않습니다.');
  // A blank asks for a term: it must be a key term of the material. Another question's key must be the material's.
  const cloze = /_{3,}/u.test(item.question);
  const text = input.passages.map((passage) => passage.text).join('\n').toLowerCase();
  if (key.trim() !== '' && (cloze ? isKeyTerm(key, input.passages) : text.includes(key.trim().toLowerCase()) || !/[A-Za-z가-힣]{2}/u.test(key))) score += 2;
  else if (cloze) notes.push(`정답 「${key}」은(는) 자료가 정의하거나 거듭 쓰는 핵심 용어가 아닙니다.`);
  else score += 2;
  const explanation = analyse(item.explanation);
  const keyUnits = analyse(key).units;
  if (!(item.explanation.length >= 20 && keyUnits.length > 0 && keyUnits.every((unit) => unitFound(unit, /[\uac00-\ud7a3]/u.test(unit), explanation)))) {
    score -= 2;
    notes.push('해설이 정답을 짚어 주지 않습니다.');
  }
  const costly = refusals.filter((refusal) => TEACHES_LESS.has(refusal.rule));
  for (const refusal of costly) notes.push(refusal.reason);
  return Math.max(0, score - 4 * costly.length);
}

/** A question that asks for a relation or a reason rather than a surface word. */
const RELATION_CUE = /왜|어떻게|차이|관계|비교|이유|때문|원인|결과|영향|\bwhy\b|\bhow\b|\bdifference\b|\brelat|\bcompare|\bbecause\b|\bcauses?\b/iu;
/** A sentence that defines its subject: what a blank on that subject asks is the concept itself. */
const DEFINING = /^(?:(?:a|an|the)\s+)?____\s+(?:is|are|refers to|means)\b|____(?:\([^)]*\))?(?:은\(는\)|이란|란)\s|라고\s*(?:합니다|한다)/iu;

/**
 * Insight: 4, plus 3 when the question asks a relation or a reason (왜, 차이, because…), 2 when its blank is the
 * subject of a defining sentence (it asks for the concept, not a word around it), 3 for each kind of practical cue
 * (실무 / in practice, 주의 / note that, 예를 들어 / for example, 실수 / mistake, 확인 / check), 1 when the sentence
 * comes from a practical passage (2); at most 10.
 */
function judgeInsight(input: EvalJudgeInput, anchor: SourceSentence | undefined, notes: string[]): number {
  const text = `${input.item.question}\n${input.item.explanation}`;
  const cues = INSIGHT_CUES.filter((cue) => cue.test(text)).length;
  const practical = anchor !== undefined && PRACTICAL_TYPES.has(anchor.documentType);
  const relation = RELATION_CUE.test(input.item.question);
  const blanked = /「([^」]*_{3,}[^」]*)」/u.exec(input.item.question)?.[1] ?? '';
  const defining = DEFINING.test(blanked.trim());
  if (cues === 0) notes.push("'실무에서는 ~', '주의할 점은 ~' 같은 실무 팁이 없습니다.");
  if (!relation && !defining && blanked !== '') notes.push('관계나 이유가 아니라 문장의 낱말 하나를 묻습니다.');
  return Math.min(MAX_SCORE, 4 + (relation ? 3 : 0) + (defining ? 2 : 0) + 3 * cues + (practical ? 2 : 0));
}

/** The offline judgement of one item (pure and deterministic). */
export function judgeOffline(input: EvalJudgeInput): EvalReply {
  const sentences = sourceSentences(input.passages);
  const grounding = judgeGrounding(input, sentences);
  const notes: string[] = [];
  // The item guard's verdict is evidence too: a sentence not in the passages is a grounding failure, the rest cost
  // educational value.
  const refusals = checkQuizItem(input.item, { passages: input.passages.map((passage) => passage.text) });
  const unfounded = refusals.find((refusal) => refusal.rule === 'cloze-not-in-source');
  if (unfounded !== undefined) {
    grounding.score = Math.min(grounding.score, 3);
    grounding.problems.push(unfounded.reason);
  }
  const educational = judgeEducational(input, refusals, notes);
  const insight = judgeInsight(input, grounding.anchor, notes);
  const decision = decidePass({ grounding: grounding.score, educational, insight });
  const feedback = [
    grounding.problems.length === 0 ? '정답과 해설의 사실이 자료와 일치합니다.' : grounding.problems.join(' '),
    ...notes,
  ].join(' ');
  return {
    grounding_score: decision.grounding,
    educational_score: decision.educational,
    insight_score: decision.insight,
    is_passed: decision.is_passed,
    feedback,
  };
}

export const evalOfflineTasks: OfflineTasks = {
  [EVAL_TASKS.judge]: { object: (input) => judgeOffline(EvalJudgeInput.parse(input)) },
};
