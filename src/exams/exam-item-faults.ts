import { withParticle } from '../text/index.js';
import { containsKeyword, keywordForms, looseText } from './exam-checks.js';
import type { ExamProblem } from './exam-types.js';
import { keywordFormFault } from './keyword-forms.js';

/**
 * What a Korean teacher would not publish in a written set, found without a model (the offline validator's checks
 * beyond facts and keyword presence):
 * - two items on one fact: Short_Keyword items with the same answer, Descriptive items with the same model answer, two
 *   items on one term whatever their types (a Short_Keyword item whose answer a Descriptive item explains or asks
 *   about: the one gives the other away);
 * - an item asking what a term is (`X이(가) 무엇인지 …`) when the material does not define X (`염기 A는 T와 …
 *   결합한다` says something of 염기, it does not say what 염기 is), or naming a term glued with its particle (`중기에`);
 * - `공통으로` ("common to the blanks") with fewer than two blanks;
 * - a keyword glued with a particle or joining two terms (`금리와 물가`), a Descriptive keyword the material never uses
 *   as a noun (a verb stem: `나타내`), a keyword twice, or only the question's own terms as keywords;
 * - an item asking what a term is (`X이(가) 무엇인지 …`) whose model answer is not the material's definition of X
 *   when the material has one.
 */

type Item = Pick<ExamProblem, 'id' | 'type' | 'question_content' | 'model_answer' | 'key_keywords'>;

/** The term a Descriptive item asks to explain (`threads가 무엇인지 …` → `threads`), if it asks that. */
export function explainedTerm(question: string): string | undefined {
  return /^(?<term>.+?)(?:이|가) 무엇인지/u.exec(question.trim())?.groups?.term;
}

const ABOUT = /^자료의 내용을 바탕으로 (?<term>.+?)에 대하여 설명하시오/u;
/** A Descriptive question on what the material says of a term it does not define (`염기`): not "무엇인지". */
export const aboutQuestion = (term: string) => `자료의 내용을 바탕으로 ${term}에 대하여 설명하시오.`;
/** The term such a question asks about, if it is one. */
export const aboutTerm = (question: string): string | undefined => ABOUT.exec(question.trim())?.groups?.term;

/** The term an item is on: a Short_Keyword item's answer (its forms), the term a Descriptive item explains or asks about. */
function askedTerms(problem: Item): string[] {
  if (problem.type === 'Short_Keyword') return problem.key_keywords.slice(0, 1).flatMap((keyword) => keywordForms(keyword));
  const term = explainedTerm(problem.question_content) ?? aboutTerm(problem.question_content);
  return term === undefined ? [] : [term];
}

const BLANKS = /_{2,}/gu;

/** A term compared loosely and in the singular (`Threads`, `thread`; `processes`, `process`). */
const termKey = (term: string) => looseText(term).replace(/(?<=(?:s|x|ch|sh))es$/u, '').replace(/(?<=[^s])s$/u, '');

/**
 * The faults of each item, by id. `definitionsOf` gives the material's definition sentences of a term (none: the
 * definition check does not apply).
 */
export function itemFaults(problems: readonly Item[], source: string, definitionsOf: (term: string) => readonly string[]): Map<number, string[]> {
  const faults = new Map<number, string[]>();
  const add = (id: number, message: string) => faults.set(id, [...(faults.get(id) ?? []), message]);
  const seen = new Map<string, number>();
  for (const problem of problems) {
    const term = problem.type === 'Descriptive' ? explainedTerm(problem.question_content) : undefined;
    const keys = [...(problem.type === 'Descriptive' ? [`reference:${looseText(problem.model_answer)}`] : []), ...askedTerms(problem).map((asked) => `term:${termKey(asked)}`)];
    const earlier = keys.map((key) => seen.get(key)).find((id) => id !== undefined);
    if (earlier !== undefined) add(problem.id, `[중복] ${problem.id}번은 ${earlier}번과 같은 사실을 같은 답으로 묻습니다. 다른 개념을 묻는 문항으로 바꾸세요.`);
    else for (const key of keys) seen.set(key, problem.id);

    if (problem.question_content.includes('공통으로') && (problem.question_content.match(BLANKS) ?? []).length < 2) {
      add(problem.id, "[질문 명확성] 빈칸이 하나뿐인데 '공통으로' 들어갈 용어를 묻습니다.");
    }

    const keywords = problem.key_keywords.map((keyword) => looseText(keyword));
    if (new Set(keywords).size < keywords.length) add(problem.id, '[키워드] 같은 키워드가 두 번 들어 있습니다.');
    for (const keyword of problem.key_keywords) {
      const fault = keywordFormFault(keyword, source);
      const named = containsKeyword(problem.question_content, keyword);
      if (fault === 'particle') add(problem.id, `[키워드] '${keyword}'에는 조사가 붙어 있거나 두 용어가 이어져 있습니다. 용어(명사)만 키워드로 쓰세요.`);
      else if (fault === 'not-noun' && problem.type === 'Descriptive' && !named) {
        add(problem.id, `[키워드] '${keyword}'${withParticle(keyword, '은/는').slice(keyword.length)} 자료에서 명사로 쓰이지 않습니다(동사 어간 등). 개념을 나타내는 용어를 키워드로 쓰세요.`);
      }
    }
    if (problem.type === 'Descriptive' && problem.key_keywords.length > 0 && problem.key_keywords.every((keyword) => containsKeyword(problem.question_content, keyword))) {
      add(problem.id, '[키워드] 키워드가 질문에 이미 있는 용어뿐이라 답의 내용을 채점하지 못합니다.');
    }

    if (term !== undefined) {
      const definitions = definitionsOf(term);
      const answer = looseText(problem.model_answer);
      if (keywordFormFault(term, source) === 'particle') {
        add(problem.id, `[질문 명확성] 묻는 용어 '${term}'에 조사가 붙어 있습니다. 용어(명사)만 쓰세요.`);
      } else if (definitions.length === 0) {
        add(problem.id, `[정의] ${withParticle(term, '이/가')} 무엇인지 묻는데 자료에 ${term}의 정의가 없습니다. 자료가 정의하는 용어를 묻거나 '${term}에 대하여 설명하시오'로 물으세요.`);
      } else if (!definitions.some((sentence) => answer.includes(looseText(sentence)))) {
        add(problem.id, `[정의] ${withParticle(term, '이/가')} 무엇인지 묻는데 모범 답안이 자료의 정의 문장(「${definitions[0] ?? ''}」)이 아닙니다. 정의 문장으로 답하세요.`);
      }
    }
  }
  return faults;
}
