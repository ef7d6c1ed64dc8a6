/**
 * The rules of the item guard, each with the Korean name the AI 품질 console shows. A refusal names one rule and
 * says, in Korean, what is wrong with the item; the same sentence is what a model is told when it rewrites it.
 */
export const GUARD_RULES = [
  'placeholder',
  'restated-question',
  'quoted-passage',
  'medium-question',
  'duplicate',
  'front-matter',
  'cloze-blank-word',
  'cloze-partial-term',
  'cloze-fragment',
  'cloze-not-in-source',
  'cloze-in-code',
  'cloze-choice-shape',
  'choices',
  'particle',
] as const;
export type GuardRule = (typeof GUARD_RULES)[number];

export const GUARD_RULE_NAMES: Readonly<Record<GuardRule, string>> = {
  placeholder: '자리표시 답',
  'restated-question': '질문을 되풀이한 답',
  'quoted-passage': '지문을 그대로 옮긴 답',
  'medium-question': '강의·슬라이드 자체를 묻는 질문',
  duplicate: '중복 문항',
  'front-matter': '표지·목차에서 낸 문항',
  'cloze-blank-word': '빈칸이 기능어·동사·부사·형용사',
  'cloze-partial-term': '용어의 일부만 빈칸',
  'cloze-fragment': '앞 문맥이 필요한 빈칸 문장',
  'cloze-not-in-source': '근거 자료에 없는 빈칸 문장',
  'cloze-in-code': '코드·수식 속 빈칸',
  'cloze-choice-shape': '빈칸에 맞지 않는 보기',
  choices: '보기 중복·정답 누락',
  particle: '영어 낱말 뒤 조사 오류',
};

/** One reason an item may not be stored or shown. */
export interface Refusal {
  rule: GuardRule;
  /** What is wrong, in Korean: shown to the instructor, logged, and given to a model that rewrites the item. */
  reason: string;
}
