/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EX14 — One fact, one item; every chapter first. On an English OS deck (3 chapters, 5 items, 2 Descriptive, three
 *   seeds): no two Short_Keyword items with the same answer, no two items with the same model answer, an item in every
 *   chapter asked for (scheduling included), and a Descriptive item on a term the deck defines is answered with that
 *   definition; the whole set passes the offline validator in one round.
 * - EX15 — Sentences that make an item. `Definition: a thread is …` defines `thread` (the label dropped); a
 *   comparative with nothing to compare with (`Indirect costs are larger: …`, `비용은 더 크다`) defines nothing;
 *   `금리와 물가는 …` names no term; `FCFS runs processes …` says something of FCFS. `공통으로` only with two blanks or more.
 * - EX16 — Korean keywords are terms. On a Korean economics handout (3 chapters, 3 items, 1 Descriptive): no term
 *   glued with its particle, no verb stem, no keyword twice, a comparison names two different terms, one item per chapter.
 * - EX17 — The offline validator names what a teacher would not publish: the same fact asked twice, `공통으로` with one
 *   blank, a keyword glued with its particle or joining two terms, a keyword the material uses only as a verb stem, a
 *   "무엇인지 설명하시오" item whose model answer is not the material's definition of its term.
 * - EX18 — A comparison only of terms the material contrasts. On a Korean biology handout (3 chapters, 4 items, 2
 *   Descriptive, three seeds) no "세포막과 체세포 분열" (a membrane in 1장, a process in 2장); a comparison, when there is
 *   one, is 체세포 분열 with 감수 분열 (2장). Terms sharing a word part in two chapters are compared only when one
 *   sentence of the material names both.
 * - EX19 — Korean keywords are whole terms. The DNA definition's keywords include 이중 나선 and 유전 물질, never 나선,
 *   물질, 가닥 alone; no -적 form (`유전적`); the offline validator accepts them.
 * - EX20 — A model answer says each thing once. `DNA는 이중 나선 구조의 유전 물질이다.` does not follow the DNA
 *   definition, nor `A process is a program in execution tracked by its PCB.` the process one; a second sentence that
 *   adds something (round robin's response time) does.
 * - EX21 — A term is never a word with its particle. `중기에는 염색체가 적도판에 배열된다.` defines nothing (중기 + 에 + 는
 *   says when, not what); an item asking what `중기에` is is flagged. On the biology handout (8 items, 5 Descriptive)
 *   no question names a word glued with 에, 에서, 으로 or 와/과; 중기 is asked about as 중기.
 * - EX22 — "무엇인지" only of a term the material defines. A Descriptive item on a term the material only says
 *   something of (`염기 A는 T와, G는 C와 상보적으로 결합한다.`, `Round robin gives …`) asks about it ("자료의 내용을
 *   바탕으로 X에 대하여 설명하시오"), never what it is; the validator flags a "무엇인지" item on a term with no
 *   definition in the material (Korean and English).
 * - EX23 — One term, one item, whatever the types. A Short_Keyword item whose answer a Descriptive item explains or
 *   asks about (세포막 as 2번's answer and 7번's question) is flagged as the same fact twice, and the planner writes
 *   none: on the biology handout (8 items, 5 Descriptive, three seeds) no term is both an answer and a question's.
 * - EG28 — The report's passage holds the item's sentence. On the biology handout the DNA item's passage is in 유전
 *   물질's chapter with the DNA definition as its quote; the membrane item's in 세포의 구조 with its definition.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  examPassages,
  generateExam,
  loadExamSource,
  parseDefinition,
  planOffline,
  reviewPassages,
  validateOffline,
  writeItem,
  aboutTerm,
  explainedTerm,
  type ExamProblem,
  type ExamRequest,
  type GeneratedExam,
} from '../src/exams/index.js';
import { deckPdf, operatingSystemsDeck, slide, type Deck } from '../scripts/slide-decks.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** EX14–EX23, EG28 (test/SPEC.md, "Exams: generation"): the offline Planner, Writer and Validator on three decks a newcomer made. */

const econHandout: Deck = {
  name: 'ko-econ',
  korean: true,
  titleStyle: 'heading',
  slides: [
    slide('front', '경제 — 화폐와 금융', '고등학교 통합사회 12차시', '사회과 김민수'),
    slide('front', '목차', '1. 화폐의 기능', '2. 금리와 저축', '3. 인플레이션'),
    slide('money', '1. 화폐의 기능'),
    slide('money', '교환의 매개', '화폐는 물물교환의 불편함을 줄여 거래를 쉽게 해 준다.', '욕구의 이중 일치가 필요 없어진다.'),
    slide('money', '가치의 척도와 저장', '화폐는 상품의 가치를 가격으로 나타내는 척도이다.', '화폐를 모아 두면 미래에 구매력을 사용할 수 있다.'),
    slide('interest', '2. 금리와 저축'),
    slide('interest', '금리의 의미', '금리는 돈을 빌린 대가로 지급하는 이자의 비율이다.', '금리가 오르면 저축이 늘고 소비와 투자는 줄어든다.'),
    slide('interest', '단리와 복리', '단리는 원금에만 이자가 붙는다.', '복리는 원금과 이자를 합한 금액에 다시 이자가 붙는다.'),
    slide('inflation', '3. 인플레이션'),
    slide('inflation', '인플레이션의 뜻', '인플레이션은 물가 수준이 지속적으로 오르는 현상이다.', '화폐의 구매력이 떨어진다.'),
    slide('inflation', '인플레이션의 영향', '고정된 소득을 받는 사람과 채권자는 손해를 본다.', '실물 자산을 가진 사람과 채무자는 상대적으로 이익을 본다.'),
    slide('front', '정리', '화폐는 교환의 매개, 가치의 척도, 가치 저장 수단이다.', '금리와 물가는 우리 생활에 큰 영향을 준다.'),
  ],
};

interface Made {
  exam: GeneratedExam;
  /** The chapter number (`2장` → 2) of the passage each item quotes first. */
  chapterOf: (problem: ExamProblem) => string | undefined;
  chapters: number;
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  return () => app.stop();
});

async function examOf(deck: Deck, request: Omit<ExamRequest, 'chapters'>, seed: string): Promise<Made> {
  const { material } = await app.materials.ingest({ bytes: await deckPdf(deck), filename: `${deck.name}.pdf` });
  const full: ExamRequest = { ...request, chapters: material.chapters.map((_, index) => index) };
  const source = await loadExamSource(app.materials, app.retrieval, material.id, full);
  const exam = await generateExam({ model: app.model, source, request: full, profile: null, context: { materialId: material.id }, seed });
  const passages = examPassages(source);
  const chapterOf = (problem: ExamProblem) => {
    const hint = exam.plan.planned_items.find((item) => item.id === problem.id)?.source_reference_hint ?? '';
    const passage = passages.find((entry) => entry.number === Number(/^\[(\d+)\]/u.exec(hint)?.[1]));
    return /^(\d+)장/u.exec(passage?.meta ?? '')?.[1];
  };
  return { exam, chapterOf, chapters: material.chapters.length };
}

const lines = (problems: readonly ExamProblem[]) => problems.map((problem) => `${problem.question_content} → ${problem.model_answer} [${problem.key_keywords.join(', ')}]`).join('\n');

describe('EX14: one fact, one item; every chapter first (an English OS deck)', () => {
  it.each(['a', 'b', 'c'])('EX14 seed %s: no repeated answer, every chapter, the deck’s definitions as answers', async (seed) => {
    const { exam, chapterOf, chapters } = await examOf(operatingSystemsDeck, { count: 5, descriptive: 2 }, seed);
    const shown = lines(exam.problems);
    expect([exam.valid, exam.rounds, exam.complaints, exam.problems.length], shown).toEqual([true, 1, [], 5]);
    const shortAnswers = exam.problems.filter((problem) => problem.type === 'Short_Keyword').map((problem) => problem.model_answer.toLowerCase().replace(/s$/u, ''));
    expect(new Set(shortAnswers).size, shown).toBe(shortAnswers.length);
    expect(new Set(exam.problems.map((problem) => problem.model_answer)).size, shown).toBe(5);
    expect(new Set(exam.problems.map(chapterOf)), shown).toEqual(new Set(Array.from({ length: chapters }, (_, index) => String(index + 1))));
    expect(shown).toMatch(/scheduler|FCFS|SJF|round robin/iu);
    expect(shown).not.toMatch(/공통으로|Indirect costs are larger/u);
    const defined: Record<string, string> = {
      process: 'A process is a program in execution',
      pcb: 'The PCB is the kernel data structure',
      thread: 'A thread is a unit of execution inside a process.',
      'race condition': 'A race condition occurs when',
    };
    for (const problem of exam.problems.filter((entry) => entry.type === 'Descriptive')) {
      const term = /^(.+?)(?:이|가) 무엇인지/u.exec(problem.question_content)?.[1]?.toLowerCase().replace(/s$/u, '');
      if (term !== undefined && defined[term] !== undefined) expect(problem.model_answer, shown).toContain(defined[term]);
      expect(problem.key_keywords.length, shown).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('EX15: the sentences that make an item', () => {
  it('EX15 a labelled definition defines its term; a dangling comparative and a pair of terms do not; a subject and its verb say something of it', () => {
    expect(parseDefinition('Definition: a thread is a unit of execution inside a process.', 1)).toMatchObject({
      term: 'thread',
      kind: 'definition',
      sentence: 'A thread is a unit of execution inside a process.',
    });
    expect(parseDefinition('Definition: a race condition occurs when the result depends on the timing of threads that share data.', 1)).toMatchObject({ term: 'race condition', kind: 'definition' });
    expect(parseDefinition('Indirect costs are larger: caches and the TLB are cold after the switch.', 1)).toBeNull();
    expect(parseDefinition('간접 비용은 더 크다.', 1)).toBeNull();
    expect(parseDefinition('Threads are cheaper to create and switch than processes.', 1)).toMatchObject({ term: 'threads', kind: 'property' });
    expect(parseDefinition('금리와 물가는 우리 생활에 큰 영향을 준다.', 1)).toBeNull();
    expect(parseDefinition('FCFS runs processes in the order they arrive, without preemption.', 1)).toMatchObject({ term: 'FCFS', kind: 'property' });
    expect(parseDefinition('Poor harvests in 1788 doubled the price of bread.', 1)).toBeNull();
  });

  it('EX15 공통으로 only where the term fills two blanks; a term the material defines is explained by its definition', () => {
    const item = (topic: string, sentence: string) => ({ id: 1, target_topic: topic, question_type: 'Short_Keyword' as const, intent_type: 'Recall' as const, complexity_level: 'Basic' as const, source_reference_hint: `[1] 「${sentence}」 — x` });
    const one = 'Round robin gives good response time for interactive users.';
    const two = '최저 임금제는 노동 시장에서 초과 공급을 만들 수 있어 최저 임금제를 두고 논쟁이 있다.';
    const passages = [{ number: 1, meta: '1장 「x」', text: `${one}\n${two}` }];
    expect(writeItem(item('round robin', one), passages).question_content).toBe('다음 문장의 빈칸에 들어갈 용어는 무엇인가? 「____ gives good response time for interactive users.」');
    expect(writeItem(item('최저 임금제', two), passages).question_content).toBe('다음 문장의 빈칸에 공통으로 들어갈 용어는 무엇인가? 「____은(는) 노동 시장에서 초과 공급을 만들 수 있어 ____을(를) 두고 논쟁이 있다.」');

    const threads = [{ number: 1, meta: '1장 「Threads」', text: 'Threads\nDefinition: a thread is a unit of execution inside a process.\nThreads are cheaper to create and switch than processes.' }];
    const plan = planOffline({ scope: '', passages: threads, request: { count: 1, descriptive: 1 }, profile: null });
    const [written] = plan.planned_items.map((entry) => writeItem(entry, threads));
    expect(written).toMatchObject({ question_content: 'thread가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: 'A thread is a unit of execution inside a process.' });
    expect(written!.key_keywords).toEqual(expect.arrayContaining(['unit', 'execution']));
  });
});

describe('EX16: Korean keywords are terms (a Korean economics handout)', () => {
  it.each(['a', 'b', 'c'])('EX16 seed %s: no particle glued on, no verb stem, no repeat, one item per chapter', async (seed) => {
    const { exam, chapterOf } = await examOf(econHandout, { count: 3, descriptive: 1 }, seed);
    const shown = lines(exam.problems);
    expect([exam.valid, exam.problems.length], shown).toEqual([true, 3]);
    expect(new Set(exam.problems.map(chapterOf)), shown).toEqual(new Set(['1', '2', '3']));
    expect(shown).not.toMatch(/금리와 물가|나타내[,\]]|생활|영향/u);
    for (const problem of exam.problems) {
      expect(new Set(problem.key_keywords).size, shown).toBe(problem.key_keywords.length);
      for (const keyword of problem.key_keywords) expect(keyword, shown).not.toMatch(/(?:와|과|의|을|를|은|는)$|와 |과 /u);
      const pair = /^(.+?)(?:과|와) (.+?)의 차이/u.exec(problem.question_content);
      if (pair) expect(pair[1], shown).not.toBe(pair[2]);
    }
    const descriptive = exam.problems.find((problem) => problem.type === 'Descriptive')!;
    expect(descriptive.key_keywords.length, shown).toBeGreaterThanOrEqual(2);
  });
});

describe('EX17: the offline validator names what a teacher would not publish', () => {
  it('EX17 the same fact twice, 공통으로 with one blank, a glued particle, a verb stem, an answer that is not the definition', async () => {
    const osPassages = [
      { number: 1, meta: '1장 「Processes」', text: 'A process is a program in execution, with its own address space.\nDefinition: a thread is a unit of execution inside a process.\nThreads are cheaper to create and switch than processes.' },
      { number: 2, meta: '3장 「Costs」', text: 'Indirect costs are larger: caches and the TLB are cold after the switch.\nA process is a program in execution tracked by its PCB.' },
    ];
    const problems: ExamProblem[] = [
      { id: 1, type: 'Short_Keyword', question_content: '다음 설명에 해당하는 용어는 무엇인가? 「A ____ is a program in execution, with its own address space.」', model_answer: 'process', key_keywords: ['process'], intent_diagnosis: '' },
      { id: 2, type: 'Short_Keyword', question_content: '다음 설명에 해당하는 용어는 무엇인가? 「A ____ is a program in execution tracked by its PCB.」', model_answer: 'process', key_keywords: ['process'], intent_diagnosis: '' },
      { id: 3, type: 'Short_Keyword', question_content: '다음 문장의 빈칸에 공통으로 들어갈 용어는 무엇인가? 「____ are larger: caches and the TLB are cold after the switch.」', model_answer: 'indirect costs', key_keywords: ['indirect costs'], intent_diagnosis: '' },
      { id: 4, type: 'Descriptive', question_content: 'threads가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: 'Threads are cheaper to create and switch than processes.', key_keywords: ['process', 'switch'], intent_diagnosis: '' },
    ];
    const english = new Map(validateOffline({ passages: osPassages, problems, profile: null, count: 4 }).feedback_message.map((entry) => [entry.id, entry.message]));
    expect(english.has(1)).toBe(false);
    expect(english.get(2)).toContain('[중복] 2번은 1번과 같은 사실을 같은 답으로 묻습니다.');
    expect(english.get(3)).toContain("[질문 명확성] 빈칸이 하나뿐인데 '공통으로' 들어갈 용어를 묻습니다.");
    expect(english.get(4)).toContain('[정의] threads가 무엇인지 묻는데 모범 답안이 자료의 정의 문장(「A thread is a unit of execution inside a process.」)이 아닙니다.');

    const koPassages = [
      { number: 1, meta: '1장 「화폐」', text: '화폐는 상품의 가치를 가격으로 나타내는 척도이다.\n화폐는 교환의 매개, 가치의 척도, 가치 저장 수단이다.' },
      { number: 2, meta: '2장 「금리」', text: '금리는 돈을 빌린 대가로 지급하는 이자의 비율이다.\n금리와 물가는 우리 생활에 큰 영향을 준다.' },
    ];
    const korean: ExamProblem[] = [
      { id: 1, type: 'Descriptive', question_content: '금리와 물가와 금리의 차이를 자료의 정의를 바탕으로 설명하시오.', model_answer: '금리와 물가는 우리 생활에 큰 영향을 준다. 금리는 돈을 빌린 대가로 지급하는 이자의 비율이다.', key_keywords: ['금리와 물가', '금리', '생활', '영향'], intent_diagnosis: '' },
      { id: 2, type: 'Descriptive', question_content: '화폐가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: '화폐는 상품의 가치를 가격으로 나타내는 척도이다.', key_keywords: ['가치', '나타내'], intent_diagnosis: '' },
      { id: 3, type: 'Descriptive', question_content: '금리가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: '금리는 돈을 빌린 대가로 지급하는 이자의 비율이다.', key_keywords: ['대가', '이자', '비율'], intent_diagnosis: '' },
    ];
    const verdict = validateOffline({ passages: koPassages, problems: korean, profile: null, count: 3 });
    const byId = new Map(verdict.feedback_message.map((entry) => [entry.id, entry.message]));
    expect(byId.get(1)).toContain("[키워드] '금리와 물가'에는 조사가 붙어 있거나 두 용어가 이어져 있습니다.");
    expect(byId.get(2)).toContain("[키워드] '나타내'는 자료에서 명사로 쓰이지 않습니다(동사 어간 등).");
    expect(byId.get(2)).not.toContain("'가치'");
    expect(byId.has(3)).toBe(false);
  });
});

const bioHandout: Deck = {
  name: 'ko-bio',
  korean: true,
  titleStyle: 'heading',
  slides: [
    slide('front', '생명과학 I — 세포와 세포 분열', '고등학교 생명과학 I 7차시', '과학과 이서진'),
    slide('front', '목차', '1. 세포의 구조', '2. 세포 분열', '3. 유전 물질'),
    slide('cell', '1. 세포의 구조'),
    slide('cell', '세포막', '세포막이란 세포를 둘러싸고 물질의 출입을 조절하는 막이다.', '세포막은 인지질 이중층과 막단백질로 이루어져 있다.', '세포막은 선택적 투과성을 가진다.'),
    slide('cell', '핵과 미토콘드리아', '핵이란 유전 물질인 DNA를 담고 세포의 생명 활동을 조절하는 세포 소기관이다.', '미토콘드리아란 세포 호흡을 통해 ATP를 만드는 세포 소기관이다.', '미토콘드리아는 자신의 DNA를 가지고 있다.'),
    slide('cell', '동물 세포와 식물 세포 비교', '구조 | 동물 세포 | 식물 세포', '세포벽 | 없음 | 있음', '엽록체 | 없음 | 있음', '중심체 | 있음 | 대부분 없음', '액포 | 작거나 없음 | 크게 발달'),
    slide('division', '2. 세포 분열'),
    slide('division', '체세포 분열', '체세포 분열이란 하나의 모세포가 유전적으로 같은 두 개의 딸세포로 나누어지는 과정이다.', '체세포 분열은 전기, 중기, 후기, 말기의 순서로 진행된다.', '중기에는 염색체가 적도판에 배열된다.'),
    slide('division', '감수 분열', '감수 분열이란 염색체 수가 절반으로 줄어든 생식세포를 만드는 분열이다.', '감수 분열은 두 번 연속으로 일어나 네 개의 딸세포를 만든다.', '감수 1분열에서 상동 염색체가 분리된다.'),
    slide('gene', '3. 유전 물질'),
    slide('gene', 'DNA와 유전자', 'DNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.', '유전자는 특정 형질에 대한 정보를 담은 DNA의 한 부분이다.', '염기 A는 T와, G는 C와 상보적으로 결합한다.'),
    slide('front', '정리', '세포막은 물질의 출입을 조절하고, 미토콘드리아는 ATP를 만든다.', '체세포 분열은 같은 딸세포 두 개를, 감수 분열은 생식세포 네 개를 만든다.', 'DNA는 이중 나선 구조의 유전 물질이다.'),
  ],
};

/** The bio handout's text as retrieved passages: its chapters 1–3 and their definitions. */
const bioPassages = [
  { number: 1, meta: '1장 「1. 세포의 구조」', text: '세포막\n세포막이란 세포를 둘러싸고 물질의 출입을 조절하는 막이다.\n세포막은 인지질 이중층과 막단백질로 이루어져 있다.\n세포막은 선택적 투과성을 가진다.' },
  { number: 2, meta: '2장 「2. 세포 분열」', text: '체세포 분열\n체세포 분열이란 하나의 모세포가 유전적으로 같은 두 개의 딸세포로 나누어지는 과정이다.\n체세포 분열은 전기, 중기, 후기, 말기의 순서로 진행된다.' },
  { number: 3, meta: '3장 「3. 유전 물질」', text: 'DNA와 유전자\nDNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.\n유전자는 특정 형질에 대한 정보를 담은 DNA의 한 부분이다.\nDNA는 이중 나선 구조의 유전 물질이다.' },
];
const descriptive = (topic: string, ...quoted: [number, string][]) => ({
  id: 1,
  target_topic: topic,
  question_type: 'Descriptive' as const,
  intent_type: 'Definition' as const,
  complexity_level: 'Intermediate' as const,
  source_reference_hint: `${quoted.map(([passage, sentence]) => `[${passage}] 「${sentence}」`).join(' ')} — x`,
});

describe('EX18: a comparison only of terms the material contrasts', () => {
  it.each(['a', 'b', 'c'])('EX18 seed %s: no comparison of a membrane with a process from another chapter; 체세포 분열 with 감수 분열 is one', async (seed) => {
    const { exam, chapterOf } = await examOf(bioHandout, { count: 4, descriptive: 2 }, seed);
    const shown = lines(exam.problems);
    expect([exam.valid, exam.problems.length], shown).toEqual([true, 4]);
    expect(shown).not.toMatch(/세포막과 체세포 분열|체세포 분열과 세포막/u);
    for (const problem of exam.problems) {
      const pair = /^(.+?)(?:과|와) (.+?)의 차이/u.exec(problem.question_content);
      if (pair) expect(new Set([pair[1], pair[2]]), shown).toEqual(new Set(['체세포 분열', '감수 분열']));
      if (pair) expect(chapterOf(problem), shown).toBe('2');
    }
  });

  it('EX18 terms sharing a word part in two chapters are compared only when one sentence of the material names both', () => {
    const plan = (passages: typeof bioPassages) => planOffline({ scope: '', passages, request: { count: 2, descriptive: 2 }, profile: null });
    const two = bioPassages.slice(0, 2);
    expect(plan(two).planned_items.map((item) => item.intent_type)).not.toContain('Comparison');
    const summary = [...two, { number: 4, meta: '2장 「정리」', text: '정리\n세포막은 세포를 둘러싸고, 체세포 분열은 세포를 둘로 나눈다.' }];
    expect(plan(summary).planned_items.map((item) => item.target_topic)).toContain('세포막과 체세포 분열의 비교');
  });
});

describe('EX19: Korean keywords are whole terms', () => {
  it('EX19 a compound the material writes as one is one keyword; no word of it alone, no -적 form', () => {
    const dna = 'DNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.';
    const written = writeItem(descriptive('DNA', [3, dna]), bioPassages);
    expect(written.key_keywords).toEqual(expect.arrayContaining(['이중 나선', '유전 물질']));
    for (const keyword of written.key_keywords) expect(keyword).not.toMatch(/^(?:나선|물질|가닥|사슬|유전적?)$/u);
    const mitosis = '체세포 분열이란 하나의 모세포가 유전적으로 같은 두 개의 딸세포로 나누어지는 과정이다.';
    const division = writeItem(descriptive('체세포 분열', [2, mitosis]), bioPassages);
    expect(division.key_keywords.length).toBeGreaterThanOrEqual(2);
    for (const keyword of division.key_keywords) expect(keyword).not.toMatch(/적$/u);
    const verdict = validateOffline({ passages: bioPassages, problems: [{ ...written, id: 1 }, { ...division, id: 2 }], profile: null, count: 2 });
    expect(verdict.feedback_message).toEqual([]);
  });
});

describe('EX20: a model answer says each thing once', () => {
  it('EX20 a second definition is added only when most of its words are not said already', () => {
    const [dnaItem] = planOffline({ scope: '', passages: bioPassages.slice(2), request: { count: 1, descriptive: 1 }, profile: null }).planned_items;
    expect(writeItem(dnaItem!, bioPassages.slice(2)).model_answer).toBe('DNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.');
    const os = [{ number: 1, meta: '1장 「Processes」', text: 'Processes\nA process is a program in execution, with its own address space.\nA process is a program in execution tracked by its PCB.' }];
    const [processItem] = planOffline({ scope: '', passages: os, request: { count: 1, descriptive: 1 }, profile: null }).planned_items;
    expect(writeItem(processItem!, os).model_answer).toBe('A process is a program in execution, with its own address space.');
    const rr = [{ number: 1, meta: '3장 「Round robin」', text: 'Round robin\nRound robin gives each ready process a time quantum, then preempts it.\nRound robin gives good response time for interactive users.' }];
    const [rrItem] = planOffline({ scope: '', passages: rr, request: { count: 1, descriptive: 1 }, profile: null }).planned_items;
    expect(writeItem(rrItem!, rr).model_answer).toBe('Round robin gives each ready process a time quantum, then preempts it. Round robin gives good response time for interactive users.');
  });
});

const askedTerm = (problem: ExamProblem) => explainedTerm(problem.question_content) ?? aboutTerm(problem.question_content);

describe('EX21–EX23: the biology handout as an 8-item set with 5 Descriptive items', () => {
  it.each(['a', 'b', 'c'])('EX21–EX23 seed %s: no term with its particle, "무엇인지" only of a defined term, no term in two items', async (seed) => {
    const { exam } = await examOf(bioHandout, { count: 8, descriptive: 5 }, seed);
    const shown = lines(exam.problems);
    expect([exam.valid, exam.rounds, exam.complaints], shown).toEqual([true, 1, []]);
    // EX21: no question names a word glued with its particle.
    for (const problem of exam.problems) expect(askedTerm(problem) ?? '', shown).not.toMatch(/(?:에|에서|으로)$/u);
    // EX22: a term asked "무엇인지" has a definition sentence in the handout, which answers it.
    for (const problem of exam.problems) {
      const term = explainedTerm(problem.question_content);
      if (term === undefined) continue;
      expect(problem.model_answer, shown).toMatch(new RegExp(`^${term}(?:이란|란|은|는) .*이다\\.`, 'u'));
    }
    expect(shown).not.toMatch(/염기가 무엇인지|중기가 무엇인지/u);
    // EX23: one term, one item, Short_Keyword or Descriptive.
    const terms = exam.problems.flatMap((problem) => (problem.type === 'Short_Keyword' ? [problem.model_answer] : askedTerm(problem) === undefined ? [] : [askedTerm(problem) as string]));
    expect(new Set(terms).size, shown).toBe(terms.length);
  });

  it('EX21 a word with its particle is no term; the validator flags a question that names one', () => {
    expect(parseDefinition('중기에는 염색체가 적도판에 배열된다.', 1)).toBeNull();
    expect(parseDefinition('세포에서는 물질대사가 일어난다.', 1)).toBeNull();
    expect(parseDefinition('체세포 분열은 전기, 중기, 후기, 말기의 순서로 진행된다.', 1)).toMatchObject({ term: '체세포 분열', kind: 'property' });
    const passages = [{ number: 1, meta: '2장 「세포 분열」', text: '체세포 분열은 전기, 중기, 후기, 말기의 순서로 진행된다.\n중기에는 염색체가 적도판에 배열된다.' }];
    const problems: ExamProblem[] = [
      { id: 1, type: 'Descriptive', question_content: '중기에가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: '중기에는 염색체가 적도판에 배열된다.', key_keywords: ['염색체', '적도판'], intent_diagnosis: '' },
    ];
    const [flagged] = validateOffline({ passages, problems, profile: null, count: 1 }).feedback_message;
    expect(flagged?.message).toContain("[질문 명확성] 묻는 용어 '중기에'에 조사가 붙어 있습니다.");
  });

  it('EX22 "무엇인지" only of a defined term: a property is asked about, and the validator flags "무엇인지" without a definition', () => {
    const gene = bioPassages.slice(2).map((passage) => ({ ...passage, text: `${passage.text}\n염기 A는 T와, G는 C와 상보적으로 결합한다.` }));
    const base = '염기 A는 T와, G는 C와 상보적으로 결합한다.';
    const written = writeItem({ ...descriptive('염기', [3, base]), intent_type: 'Recall' }, gene);
    expect(written.question_content).toBe('자료의 내용을 바탕으로 염기에 대하여 설명하시오.');
    const rr = [{ number: 1, meta: '3장 「Round robin」', text: 'Round robin\nRound robin gives each ready process a time quantum, then preempts it.\nRound robin gives good response time for interactive users.' }];
    const [rrItem] = planOffline({ scope: '', passages: rr, request: { count: 1, descriptive: 1 }, profile: null }).planned_items;
    expect(writeItem(rrItem!, rr).question_content).toBe('자료의 내용을 바탕으로 round robin에 대하여 설명하시오.');
    const problems: ExamProblem[] = [
      { id: 1, type: 'Descriptive', question_content: '염기가 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: base, key_keywords: ['염기', '상보적'], intent_diagnosis: '' },
      { id: 2, type: 'Descriptive', question_content: 'round robin이 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: 'Round robin gives good response time for interactive users.', key_keywords: ['response time', 'interactive users'], intent_diagnosis: '' },
    ];
    const byId = new Map(validateOffline({ passages: [...gene, { ...rr[0]!, number: 4 }], problems, profile: null, count: 2 }).feedback_message.map((entry) => [entry.id, entry.message]));
    expect(byId.get(1)).toContain('[정의] 염기가 무엇인지 묻는데 자료에 염기의 정의가 없습니다.');
    expect(byId.get(2)).toContain('[정의] round robin이 무엇인지 묻는데 자료에 round robin의 정의가 없습니다.');
  });

  it('EX23 a Short_Keyword answer and a Descriptive question on one term are one fact asked twice', () => {
    const problems: ExamProblem[] = [
      { id: 2, type: 'Short_Keyword', question_content: '다음 문장의 빈칸에 들어갈 용어는 무엇인가? 「____은(는) 인지질 이중층과 막단백질로 이루어져 있다.」', model_answer: '세포막', key_keywords: ['세포막'], intent_diagnosis: '' },
      { id: 7, type: 'Descriptive', question_content: '세포막이 무엇인지 자료의 내용을 바탕으로 설명하시오.', model_answer: '세포막이란 세포를 둘러싸고 물질의 출입을 조절하는 막이다.', key_keywords: ['물질', '출입'], intent_diagnosis: '' },
      { id: 8, type: 'Short_Keyword', question_content: '다음 설명에 해당하는 용어는 무엇인가? 「특정 형질에 대한 정보를 담은 DNA의 한 부분」', model_answer: '유전자', key_keywords: ['유전자'], intent_diagnosis: '' },
    ];
    const byId = new Map(validateOffline({ passages: bioPassages, problems, profile: null, count: 3 }).feedback_message.map((entry) => [entry.id, entry.message]));
    expect(byId.get(7)).toContain('[중복] 7번은 2번과 같은 사실을 같은 답으로 묻습니다.');
    expect([byId.has(2), byId.has(8)]).toEqual([false, false]);
  });
});

describe('EG28: the report quotes the sentence an item was built on, in its chapter', () => {
  it('EG28 the bio handout: the DNA item’s passage is in 3장 with the DNA definition; the membrane item’s in 1장', async () => {
    const { material } = await app.materials.ingest({ bytes: await deckPdf(bioHandout), filename: 'ko-bio-review.pdf' });
    const retrieve = (request: { materialId: string; query: string; k: number }) => app.retrieval.retrieve(request);
    const found = await reviewPassages(retrieve, material.id, [
      { question_id: 1, question_content: 'DNA가 무엇인지 자료의 내용을 바탕으로 설명하시오.', reference: 'DNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.' },
      { question_id: 2, question_content: '다음 설명에 해당하는 용어는 무엇인가? 「세포를 둘러싸고 물질의 출입을 조절하는 막」', reference: '세포막' },
    ]);
    const [dna, membrane] = found;
    const chapterTitle = (chapter: number | undefined) => material.chapters.find((entry) => entry.index === chapter)?.title ?? '';
    expect([chapterTitle(dna?.chapter), dna?.quote]).toEqual([expect.stringContaining('유전 물질'), 'DNA란 두 가닥의 뉴클레오타이드 사슬이 꼬여 이중 나선을 이루는 유전 물질이다.']);
    expect([chapterTitle(membrane?.chapter), membrane?.quote]).toEqual([expect.stringContaining('세포의 구조'), '세포막이란 세포를 둘러싸고 물질의 출입을 조절하는 막이다.']);
  });
});
