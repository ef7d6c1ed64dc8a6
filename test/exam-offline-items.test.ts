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
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  examPassages,
  generateExam,
  loadExamSource,
  parseDefinition,
  planOffline,
  validateOffline,
  writeItem,
  type ExamProblem,
  type ExamRequest,
  type GeneratedExam,
} from '../src/exams/index.js';
import { deckPdf, operatingSystemsDeck, type Deck, type DeckSlide } from '../scripts/slide-decks.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** EX14–EX17 (test/SPEC.md, "Exams: generation"): the offline Planner, Writer and Validator on two decks a newcomer made. */

const slide = (section: string, title: string, ...lines: string[]): DeckSlide => ({ section, title, lines });

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
