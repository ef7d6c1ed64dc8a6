import { checkExamItem, type Refusal } from '../guard/index.js';
import { referenceStandsIn } from '../judges/index.js';
import type { ExamPlan, ExamProblem, ValidatorComplaint } from './exam-types.js';

/**
 * The deterministic checks of a written set, run by the server before the validator: they cost no
 * model call and trust nothing the model says. Each failure is a complaint in the validator's own shape
 * (`{id, message}`), fed back to the writer exactly like the validator's feedback:
 * - the count: every planned id is written once, no id the plan does not have (so the count equals the request's);
 * - each item's type is the planned one;
 * - every item has key keywords;
 * - no two questions are the same after normalisation (spacing, punctuation, letter case);
 * - a `Short_Keyword` model answer contains one of its keywords (or an accepted synonym);
 * - every item passes the item guard (src/guard) against the passages: its refusals are complaints marked
 *   {@link GUARD_MARK}, and an item still refused after the last round is dropped, never shipped.
 */

/** How a complaint of the item guard starts (the generator drops items still refused after its last round). */
export const GUARD_MARK = '[검사]';

/**
 * The item guard's refusals of one problem, plus, for a Descriptive item, the judges' own test of a reference: a
 * model answer that restates the question (only its words, at least half of them, in another order, with its frame
 * words) is no reference — the grader abstains on every answer to it (question-words.ts, referenceStandsIn) and a
 * student's echo of the question would match it — so the item is refused as a restated question. A Short_Keyword
 * term built of the question's words (표본평균 for 「표본의 평균을 무엇이라 하는가」) is a recall item and is graded by
 * its keyword.
 */
export function examItemRefusals(problem: Pick<ExamProblem, 'type' | 'question_content' | 'model_answer' | 'key_keywords'>, passages: readonly string[]): Refusal[] {
  const refusals = checkExamItem({ type: problem.type, question: problem.question_content, modelAnswer: problem.model_answer, keywords: problem.key_keywords }, { passages });
  if (problem.type !== 'Descriptive' || refusals.some((refusal) => refusal.rule === 'restated-question')) return refusals;
  if (!referenceStandsIn(problem.question_content, problem.model_answer)) return refusals;
  return [...refusals, { rule: 'restated-question', reason: '모범 답안이 질문에 이미 있는 낱말뿐이라 채점 기준이 되지 못합니다. 질문에 없는 내용으로 답을 쓰세요.' }];
}

/** The item guard's refusals of each problem, by id, against the passages the set was written from. */
export function guardRefusals(problems: readonly ExamProblem[], passages: readonly string[]): Map<number, Refusal[]> {
  const found = new Map<number, Refusal[]>();
  for (const problem of problems) {
    const refusals = examItemRefusals(problem, passages);
    if (refusals.length > 0) found.set(problem.id, refusals);
  }
  return found;
}

/** A keyword's accepted forms: `과적합/Overfitting` is one keyword, either form accepted. */
export function keywordForms(keyword: string): string[] {
  return keyword
    .split('/')
    .map((form) => form.trim())
    .filter((form) => form !== '');
}

/** Text compared loosely: NFKC, no spaces or punctuation, lower case. */
export function looseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Whether `text` contains one form of `keyword` (loosely). */
export function containsKeyword(text: string, keyword: string): boolean {
  const loose = looseText(text);
  return keywordForms(keyword).some((form) => looseText(form) !== '' && loose.includes(looseText(form)));
}

const TYPE_NAMES = { Short_Keyword: '단답형(Short_Keyword)', Descriptive: '서술형(Descriptive)' } as const;

export function checkProblemSet(problems: readonly ExamProblem[], plan: ExamPlan, passages: readonly string[] = []): ValidatorComplaint[] {
  const complaints: ValidatorComplaint[] = [];
  const planned = new Map(plan.planned_items.map((item) => [item.id, item]));
  const seenIds = new Set<number>();
  const seenQuestions = new Map<string, number>();
  for (const problem of problems) {
    const item = planned.get(problem.id);
    if (item === undefined) {
      complaints.push({ id: problem.id, message: `[개수] ${problem.id}번은 출제 계획에 없는 문항입니다. 계획의 id(1~${plan.planned_items.length})만 쓰세요.` });
      continue;
    }
    if (seenIds.has(problem.id)) {
      complaints.push({ id: problem.id, message: `[개수] ${problem.id}번 문항이 두 번 나왔습니다. 문항마다 한 번만 쓰세요.` });
      continue;
    }
    seenIds.add(problem.id);
    if (problem.type !== item.question_type) {
      complaints.push({ id: problem.id, message: `[유형] ${problem.id}번은 계획상 ${TYPE_NAMES[item.question_type]} 문항인데 ${TYPE_NAMES[problem.type]}으로 쓰였습니다.` });
    }
    if (problem.key_keywords.length === 0) {
      complaints.push({ id: problem.id, message: `[키워드] ${problem.id}번에 핵심 키워드가 없습니다. 채점에 필수적인 키워드를 넣으세요.` });
    } else if (problem.type === 'Short_Keyword' && !problem.key_keywords.some((keyword) => containsKeyword(problem.model_answer, keyword))) {
      complaints.push({ id: problem.id, message: `[키워드] ${problem.id}번 단답형의 모범 답안에 핵심 키워드가 하나도 들어 있지 않습니다. 모범 답안은 정답 용어여야 합니다.` });
    }
    const key = looseText(problem.question_content);
    const first = seenQuestions.get(key);
    if (first !== undefined) complaints.push({ id: problem.id, message: `[중복] ${problem.id}번 질문이 ${first}번 질문과 같습니다. 다른 질문으로 바꾸세요.` });
    else seenQuestions.set(key, problem.id);
  }
  if (passages.length > 0) {
    for (const [id, refusals] of guardRefusals(problems, passages)) {
      complaints.push({ id, message: `${GUARD_MARK} ${id}번: ${refusals.map((refusal) => refusal.reason).join(' ')}` });
    }
  }
  for (const item of plan.planned_items) {
    if (!seenIds.has(item.id)) complaints.push({ id: item.id, message: `[개수] 계획의 ${item.id}번 문항(${item.target_topic})이 빠졌습니다. 계획한 ${plan.planned_items.length}문항을 모두 쓰세요.` });
  }
  return complaints;
}
