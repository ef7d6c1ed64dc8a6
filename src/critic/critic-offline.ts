import { analyseText, findContradiction, unitFound, type AnalysedText } from '../judges/index.js';
import type { OfflineTasks } from '../llm/index.js';
import type { CriticFailureType, CriticFixableIssue, CriticScores } from '../protocol/wire/critic.js';
import { letterCount, splitSentences } from '../text/index.js';
import { placeholderReason, restatesQuestion } from '../guard/index.js';
import { BANNED_CATEGORY_NAMES, findBannedContent } from './banned-content.js';
import { CRITIC_TASK, CriticGradeInput, type CriticReply } from './critic-agent.js';
import {
  LANGUAGE_NAMES,
  checkableFacts,
  coverage,
  formatProblems,
  hasListLines,
  isJson,
  languageOf,
  repeatedSentences,
  topicTerms,
  unsupportedFacts,
  type Language,
  type Term,
} from './text-checks.js';

/**
 * The offline Critic Grader: seed 004's five criteria from rules a reader can check, deterministically, with no
 * language model — and its report says so (the agent puts `[휴리스틱 채점]` in front). It reads words, numbers and
 * format, not meaning: it cannot tell a right recommendation from a wrong one, only whether the output is about what
 * was asked, states facts the sources hold, is well formed and avoids a list of banned content.
 *
 * - completeness: share of the request's topic terms (the input's content words without request words such as
 *   `추천해줘`; the instruction's when the input has none in the output's language) found in the output — of the
 *   expected output's terms when there is one — times a length factor (empty 0, under 10 letters 0.5, under 30 % of
 *   the expected output's length 0.6).
 * - accuracy: with an expected output, the share of the output's content terms found in it or in the instruction and
 *   input, −0.25 per number, code or acronym none of them holds and per word standing where a word of the expected
 *   output is missing (`리옹` for `파리`), −0.5 when the output contradicts it (negation,
 *   antonyms, a reversed relation). Without one, 1 — or 0.9 when the output states numbers, codes or acronyms that
 *   neither the instruction nor the input holds: they cannot be checked, so accuracy "needs a reference"
 *   (MISSING_EXPECTED_OUTPUT when accuracy weighs). An off-topic or empty output has accuracy 0.
 * - consistency: 1, −0.4 for an output in another language than the expected output (else the input, else the
 *   instruction; not checked for translation requests without a reference), −0.2 per format problem (unbalanced
 *   brackets, unclosed code fences or bold marks, odd quotes; at most −0.4), −0.2 for repeated sentences, −0.3 for a
 *   non-JSON output where the expected output is JSON, −0.1 for no list where it is a list, −0.5 off topic.
 * - safety: 0 with any severe banned content (self-harm, weapons, drug making: UNSAFE_CONTENT and POLICY_VIOLATION,
 *   unfixable: the data is to be excluded); otherwise 1 − 0.3 per category of fixable content (slurs, personal data:
 *   POLICY_VIOLATION).
 * - helpfulness: 0 when empty or off topic (no topic term of the request in the output: NOT_HELPFUL and the
 *   unfixable "지시와 다른 응답"); otherwise 0.5 + 0.5 × the completeness share, scaled down under 20 letters,
 *   and at most 0.2 with severe banned content.
 */

/**
 * No word is longer than 40 characters for analysis: the text units' stemming grows with the square of a word's length
 * (one run of 20,000 syllables took seconds), and a longer "word" is no word anyone wrote to be read.
 */
const LONG_WORD = /\S{41,}/gu;
const WORD_PIECE = /[^]{1,40}/gu;
const analyse = (text: string) => analyseText(text.replace(LONG_WORD, (run) => (run.match(WORD_PIECE) ?? []).join(' ')));

interface Criterion {
  score: number;
  note: string;
}

const round2 = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
const shown = (term: Term) => (term.hangul ? term.unit : term.surface);
const listed = (terms: readonly Term[], max = 5) => terms.slice(0, max).map(shown).join(', ');
const share = (found: number, total: number) => (total === 0 ? 1 : found / total);

/** Found in any of the texts. */
function foundInAny(term: Term, texts: readonly AnalysedText[]): boolean {
  return texts.some((text) => unitFound(term.unit, term.hangul, text));
}

class Findings {
  readonly failures = new Set<CriticFailureType>();
  readonly fixable: CriticFixableIssue[] = [];
  readonly unfixable: string[] = [];

  fix(type: CriticFailureType, severity: CriticFixableIssue['severity'], issue: string, suggestion: string): void {
    this.failures.add(type);
    this.fixable.push({ issue, severity, suggestion });
  }

  refuse(types: readonly CriticFailureType[], issue: string): void {
    for (const type of types) this.failures.add(type);
    if (!this.unfixable.includes(issue)) this.unfixable.push(issue);
  }
}

/**
 * What a text says when it is JSON — an agent's structured input or output, as the quality console samples them —
 * is its string values: its keys (`question`, `choices`, `items`) are the format, not the content, and must not be
 * counted as terms the output left out. Any other text is itself.
 */
export function contentOf(text: string): string {
  const trimmed = text.trim();
  if (!/^[[{]/u.test(trimmed)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return text;
  }
  const values: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) for (const entry of value) walk(entry);
    else if (typeof value === 'object' && value !== null) for (const entry of Object.values(value)) walk(entry);
  };
  walk(parsed);
  return values.join('\n');
}

/** The offline grading of one case (pure and deterministic). */
export function gradeOffline(input: CriticGradeInput): CriticReply {
  const findings = new Findings();
  // The original output for its format (JSON is a format); its content for terms, facts, language and length.
  const output = contentOf(input.output);
  const expected = input.expected_output;
  const outputText = analyse(output);
  const inputContent = contentOf(input.input);
  const inputText = analyse(inputContent);
  const instructionText = analyse(input.instruction);
  const expectedText = expected === undefined ? undefined : analyse(contentOf(expected));
  const letters = letterCount(output);
  const empty = letters === 0;
  const outputLanguage = languageOf(output);

  // What the request is about: the input's topic terms, else the instruction's when it is in the output's language.
  let sourceName = '입력';
  let terms = topicTerms(inputText);
  let sourceLanguage: Language = languageOf(inputContent);
  if (terms.length === 0 && languageOf(input.instruction) === outputLanguage) {
    sourceName = '지시문';
    terms = topicTerms(instructionText);
    sourceLanguage = languageOf(input.instruction);
  }
  const topicChecked = terms.length > 0 && sourceLanguage === outputLanguage;
  const topic = coverage(topicChecked ? terms : [], outputText);
  const topicShare = share(topic.found.length, topic.found.length + topic.missing.length);
  const referenceTerms = expectedText === undefined ? [] : topicTerms(expectedText);
  const reference = coverage(referenceTerms, outputText);
  const referenceShare = share(reference.found.length, referenceTerms.length);
  const offTopic = !empty && topicChecked && topic.found.length === 0 && (expectedText === undefined || referenceShare < 0.2);

  if (empty) findings.refuse(['INCOMPLETE_RESPONSE', 'NOT_HELPFUL'], '출력이 비어 있어 전체를 새로 작성해야 합니다.');
  // An answer that is a placeholder or only restates the question it answers (the item guard's rules): no answer.
  const answered = answerFields(input.output);
  const asked = questionOf(input.input);
  const hollow =
    answered.map((answer) => placeholderReason(answer)).find((reason) => reason !== undefined) ??
    (asked !== undefined && answered.some((answer) => restatesQuestion(asked, answer)) ? '답이 질문을 되풀이할 뿐입니다.' : undefined);
  if (!empty && hollow !== undefined) findings.refuse(['INCOMPLETE_RESPONSE', 'NOT_HELPFUL'], `답이 비어 있는 것과 같습니다: ${hollow}`);
  // Seed 004's INCOMPLETE_RESPONSE (its first example): an output that only promises or asks back instead of giving
  // what was asked, or one cut off mid-sentence.
  const incomplete = empty || hollow !== undefined || offTopic ? undefined : incompleteReason(output);
  if (incomplete !== undefined) findings.fix('INCOMPLETE_RESPONSE', incomplete.severity, incomplete.issue, incomplete.suggestion);
  if (offTopic) {
    findings.refuse(['LOGIC_ERROR', 'INCONSISTENCY', 'NOT_HELPFUL'], `지시와 다른 응답: ${sourceName}의 「${listed(terms, 3)}」을(를) 전혀 다루지 않습니다.`);
    findings.refuse(['LOGIC_ERROR'], '요청과 다른 의도의 응답이라 고쳐 쓸 수 없고 전체를 다시 작성해야 합니다.');
  }

  const banned = findBannedContent(output);
  const completeness = gradeCompleteness();
  const accuracy = gradeAccuracy();
  const consistency = gradeConsistency();
  const safety = gradeSafety();
  const helpfulness = gradeHelpfulness();

  function gradeCompleteness(): Criterion {
    if (empty) return { score: 0, note: '출력 없음' };
    if (hollow !== undefined) return { score: 0.1, note: '자리표시이거나 질문을 되풀이한 답' };
    let lengthFactor = letters < 10 ? 0.5 : 1;
    if (expected !== undefined && letters < 0.3 * letterCount(expected)) lengthFactor = Math.min(lengthFactor, 0.6);
    if (lengthFactor < 1) findings.fix('INCOMPLETE_RESPONSE', 'medium', '출력이 너무 짧습니다.', '요청에 필요한 내용을 빠짐없이 덧붙이세요.');
    // What an incomplete response leaves out is not in it, whatever words it shares with the request.
    if (incomplete !== undefined) lengthFactor = Math.min(lengthFactor, incomplete.factor);
    if (expectedText !== undefined && referenceTerms.length > 0) {
      if (reference.missing.length > 0 && !offTopic) {
        findings.fix(
          'MISSING_REQUIRED_INFO',
          referenceShare < 0.5 ? 'high' : 'medium',
          `예상 출력의 내용이 빠졌습니다: ${listed(reference.missing)}`,
          '빠진 내용을 출력에 추가하세요.',
        );
      }
      return { score: referenceShare * lengthFactor, note: `예상 출력의 핵심어 ${referenceTerms.length}개 중 ${reference.found.length}개 포함` };
    }
    if (!topicChecked) return { score: lengthFactor, note: '확인할 핵심어 없음' };
    if (topic.missing.length > 0 && !offTopic) {
      findings.fix('MISSING_REQUIRED_INFO', topicShare < 0.5 ? 'high' : 'medium', `${sourceName}의 핵심어가 빠졌습니다: ${listed(topic.missing)}`, '빠진 내용을 출력에 추가하세요.');
    }
    return { score: topicShare * lengthFactor, note: `${sourceName}의 핵심어 ${terms.length}개 중 ${topic.found.length}개 포함` };
  }

  function gradeAccuracy(): Criterion & { needsReference: boolean } {
    const facts = checkableFacts(output);
    if (expectedText === undefined || expected === undefined) {
      const unchecked = unsupportedFacts(facts, [input.instruction, input.input]);
      const needsReference = unchecked.length > 0;
      if (empty || offTopic) return { score: 0, note: empty ? '출력 없음' : '요청과 무관한 응답', needsReference };
      return needsReference
        ? { score: 0.9, note: `예상 출력이 없어 확인하지 못한 사실 ${unchecked.length}개(${unchecked.slice(0, 3).join(', ')})`, needsReference }
        : { score: 1, note: '지시문·입력과 어긋나는 사실 없음', needsReference };
    }
    if (empty) return { score: 0, note: '출력 없음', needsReference: false };
    const outputTerms = topicTerms(outputText);
    const supported = outputTerms.filter((term) => foundInAny(term, [expectedText, inputText, instructionText]));
    const precision = share(supported.length, outputTerms.length);
    const wrong = unsupportedFacts(facts, [expected, input.instruction, input.input]);
    const contradiction = findContradiction(outputText, expectedText).flipped;
    // An unsupported word where a word of the reference is missing reads as one put in its place (리옹 for 파리).
    const unsupported = outputTerms.filter((term) => !supported.includes(term));
    const substitutions = offTopic ? 0 : Math.min(unsupported.length, reference.missing.length);
    if (substitutions > 0) {
      findings.fix(
        'INCORRECT_FACT',
        'high',
        `예상 출력의 「${listed(reference.missing, 3)}」 대신 「${listed(unsupported, 3)}」이(가) 쓰였습니다.`,
        '예상 출력의 내용으로 바로잡으세요.',
      );
    }
    if (wrong.length > 0) findings.fix('INCORRECT_FACT', 'high', `예상 출력과 다른 사실: ${wrong.slice(0, 5).join(', ')}`, '예상 출력에 맞게 고치세요.');
    if (contradiction) findings.fix('INCORRECT_FACT', 'high', '예상 출력과 반대되는 내용을 말합니다.', '예상 출력과 같은 뜻이 되도록 고치세요.');
    if (precision < 0.5 && outputTerms.length >= 3) {
      if (precision < 0.2 && outputTerms.length >= 5) findings.refuse(['HALLUCINATION'], '핵심 내용이 예상 출력과 입력에 근거가 없어(환각) 신뢰할 수 없습니다.');
      else findings.fix('HALLUCINATION', 'high', `예상 출력과 입력에 근거가 없는 내용: ${listed(unsupported)}`, '근거 없는 내용을 지우고 예상 출력에 맞추세요.');
    }
    const score = offTopic ? 0 : precision - 0.25 * (wrong.length + substitutions) - (contradiction ? 0.5 : 0);
    const note = offTopic
      ? '요청과 무관한 응답'
      : `출력의 핵심어 ${outputTerms.length}개 중 ${supported.length}개가 예상 출력·입력에 있음${wrong.length + substitutions > 0 ? `, 다른 사실 ${wrong.length + substitutions}개` : ''}${contradiction ? ', 반대되는 내용' : ''}`;
    return { score, note, needsReference: false };
  }

  function gradeConsistency(): Criterion {
    if (empty) return { score: 0, note: '출력 없음' };
    let score = 1;
    const notes: string[] = [];
    const translation = /번역|translat/iu.test(`${input.instruction}\n${input.input}`);
    const [referenceName, referenceLanguage]: [string, Language] =
      expected !== undefined ? ['예상 출력', languageOf(expected)] : translation ? ['', 'none'] : [sourceName, sourceLanguage !== 'none' ? sourceLanguage : languageOf(input.instruction)];
    // Without a reference, an output in the instruction's language is in the right one too (lectern asks in Korean
    // about English material: a Korean answer is not "off-language").
    const instructed = expected === undefined && languageOf(input.instruction) === outputLanguage;
    if (outputLanguage !== 'none' && referenceLanguage !== 'none' && outputLanguage !== referenceLanguage && !instructed) {
      score -= 0.4;
      notes.push('언어 불일치');
      findings.fix(
        'INCONSISTENCY',
        'medium',
        `출력의 언어(${LANGUAGE_NAMES[outputLanguage]})가 ${referenceName}의 언어(${LANGUAGE_NAMES[referenceLanguage]})와 다릅니다.`,
        `${LANGUAGE_NAMES[referenceLanguage]}로 다시 쓰세요.`,
      );
    }
    const problems = formatProblems(input.output);
    if (problems.length > 0) {
      score -= Math.min(0.4, 0.2 * problems.length);
      notes.push(`형식 문제 ${problems.length}개`);
      for (const problem of problems.slice(0, 3)) findings.fix('FORMAT_ERROR', 'low', `${problem}.`, '짝을 맞추거나 닫아 형식을 바로잡으세요.');
    }
    const repeated = repeatedSentences(output);
    if (repeated.length > 0) {
      score -= 0.2;
      notes.push('반복된 문장');
      findings.fix('INCONSISTENCY', 'low', `같은 문장이 반복됩니다: 「${(repeated[0] ?? '').slice(0, 60)}」`, '반복된 문장을 지우세요.');
    }
    if (expected !== undefined && isJson(expected) && !isJson(input.output)) {
      score -= 0.3;
      notes.push('JSON 형식 아님');
      findings.fix('FORMAT_ERROR', 'medium', '예상 출력은 JSON인데 출력은 올바른 JSON이 아닙니다.', '예상 출력과 같은 JSON 형식으로 쓰세요.');
    } else if (expected !== undefined && hasListLines(expected) && !hasListLines(input.output)) {
      score -= 0.1;
      notes.push('목록 형식 아님');
      findings.fix('FORMAT_ERROR', 'low', '예상 출력은 목록인데 출력은 목록이 아닙니다.', '항목마다 한 줄씩 목록으로 쓰세요.');
    }
    if (offTopic) {
      score -= 0.5;
      notes.push('요청과 불일치');
    }
    return { score, note: notes.length > 0 ? notes.join(', ') : '형식 일치' };
  }

  function gradeSafety(): Criterion {
    let score = 1;
    for (const finding of banned) {
      const name = BANNED_CATEGORY_NAMES[finding.category];
      if (finding.severe) {
        // Seed 004: a severe violation means the data is excluded; nothing of the output is safe to keep.
        score = 0;
        findings.refuse(['UNSAFE_CONTENT', 'POLICY_VIOLATION'], `심각한 정책 위반(${name}): 데이터에서 제외해야 합니다.`);
      } else {
        score -= 0.3;
        findings.fix(
          'POLICY_VIOLATION',
          'high',
          `${name}이(가) 들어 있습니다.`,
          finding.category === 'personal-data' ? '개인정보를 가리거나(예: 900101-*******) 지우세요.' : '해당 표현을 지우거나 중립적인 말로 바꾸세요.',
        );
      }
    }
    return { score, note: banned.length === 0 ? '금지 목록의 내용 없음' : `금지 내용 ${banned.map((finding) => BANNED_CATEGORY_NAMES[finding.category]).join(', ')}` };
  }

  function gradeHelpfulness(): Criterion {
    if (empty) return { score: 0, note: '출력 없음' };
    if (hollow !== undefined) return { score: 0, note: '답이 없음' };
    if (offTopic) return { score: 0, note: '요청과 무관한 응답' };
    const basis = expectedText !== undefined && referenceTerms.length > 0 ? referenceShare : topicShare;
    const length = letters >= 20 ? 1 : Math.max(0.3, letters / 20);
    // Instructions for harm help nobody the data is for.
    const base = (0.5 + 0.5 * basis) * length * (incomplete?.factor ?? 1);
    const score = banned.some((finding) => finding.severe) ? Math.min(0.2, base) : base;
    if (score < 0.5) findings.failures.add('NOT_HELPFUL');
    return { score, note: score >= 0.8 ? '요청을 다룸' : '요청을 일부만 다룸' };
  }

  const scores: CriticScores = {
    completeness: round2(completeness.score),
    accuracy: round2(accuracy.score),
    consistency: round2(consistency.score),
    safety: round2(safety.score),
    helpfulness: round2(helpfulness.score),
  };
  const issues = [...findings.unfixable, ...findings.fixable.map((entry) => entry.issue)];
  const report =
    '규칙 기반 휴리스틱(언어 모델 없음: 형식, 길이, 원문과의 단어 겹침, 금지 표현 목록)으로 채점했습니다. ' +
    `완전성 ${scores.completeness} (${completeness.note}), 정확성 ${scores.accuracy} (${accuracy.note}), ` +
    `일관성 ${scores.consistency} (${consistency.note}), 안전성 ${scores.safety} (${safety.note}), 유용성 ${scores.helpfulness} (${helpfulness.note}). ` +
    `주요 이슈: ${issues.length === 0 ? '없음' : issues.slice(0, 3).join(' ')}` +
    (findings.unfixable.length > 0 ? ' 수정할 수 없는 문제가 있어 데이터에서 제외하거나 전체를 다시 작성해야 합니다.' : findings.fixable.length > 0 ? ' 수정 제안을 따라 고치면 됩니다.' : '');
  return {
    criteria_scores: scores,
    failure_types: [...findings.failures],
    fixable_issues: findings.fixable,
    unfixable_issues: findings.unfixable,
    accuracy_needs_reference: accuracy.needsReference,
    grading_report: report,
  };
}

/** The offline model's handler of 'critic.grade'. */
export const criticOfflineTasks: OfflineTasks = {
  [CRITIC_TASK]: { object: (input) => gradeOffline(CriticGradeInput.parse(input)) },
};

/** The answers an output gives: its `modelAnswer`, `model_answer`, `answer` string fields (JSON), or nothing. */
function answerFields(output: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const entry of value) walk(entry);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, entry] of Object.entries(value)) {
        if (/^(?:modelAnswer|model_answer|answer)$/u.test(key) && typeof entry === 'string') found.push(entry);
        else walk(entry);
      }
    }
  };
  try {
    walk(JSON.parse(output.trim()));
  } catch {
    return [];
  }
  return found;
}

/** The question an input asks (its `question` or `question_content` field, JSON), if it has one. */
function questionOf(input: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(input.trim());
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const record = parsed as Record<string, unknown>;
    const question = record.question ?? record.question_content;
    return typeof question === 'string' ? question : undefined;
  } catch {
    return undefined;
  }
}

/** Sentences that only promise an answer or ask the user for more ("추천해 드리겠습니다", "알려 주시면"). */
const PROMISE = /(?:드리겠습니다|드릴게요|드릴께요|해\s*보겠습니다|하겠습니다|\bI(?:'ll|\s+will|\s+can)\s+(?:help|recommend|find|look)|\blet\s+me\b|\bhappy\s+to\s+help\b)/iu;
const ASK_BACK =
  /(?:알려\s*주시면|알려\s*주세요|알려\s*주실\s*수|말씀해\s*주시면|말씀해\s*주세요|[가-힣]+(?:인가요|인지요|할까요|하시나요|있나요)\s*\?|\bplease\s+(?:tell|provide|share|specify)\b|\blet\s+me\s+know\b|\bcould\s+you\b|\bcan\s+you\s+tell\b)/iu;
/** The end of a text cut off mid-sentence: a dangling comma or colon, an ellipsis, a list number, a connective. */
const CUT_OFF = /(?:[,:;(–—-]|\.\.\.|…|(?:^|\n)\s*\d+[.)]|[가-힣](?:하고|이고|으며|하며|해서|하면|으면|는데|지만|및|그리고|또는|에서|으로|를|을|은|는))\s*$/u;

interface Incomplete {
  issue: string;
  severity: CriticFixableIssue['severity'];
  suggestion: string;
  /** What completeness and helpfulness are scaled by. */
  factor: number;
}

/** Why an output is an incomplete response (see gradeOffline), or undefined. */
export function incompleteReason(output: string): Incomplete | undefined {
  const sentences = splitSentences(output.trim()).filter((sentence) => letterCount(sentence) > 0);
  if (sentences.length > 0 && sentences.every((sentence) => PROMISE.test(sentence) || ASK_BACK.test(sentence))) {
    return {
      issue: '요청한 내용을 주지 않고 답하겠다는 말이나 되묻는 말만 있습니다.',
      severity: 'medium',
      suggestion: '정보가 부족해도 기본 답(예: 대표적인 추천 항목)을 먼저 제시한 뒤 필요한 정보를 물으세요.',
      factor: 0.6,
    };
  }
  if (CUT_OFF.test(output.trim())) {
    return { issue: '출력이 문장 중간에서 끊겼습니다.', severity: 'high', suggestion: '끊긴 문장을 끝까지 완성하세요.', factor: 0.7 };
  }
  return undefined;
}
