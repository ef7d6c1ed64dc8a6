/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EX1 — The validator's feedback reaches the writer. With Gemini through the fake server (real SDK), a validator
 *   that rejects item 2 in round 1 and accepts in round 2 …
 * - EX2 — Fallback. A validator that always rejects: three writer and three validator calls, then the last set with
 *   `valid: false` and the last round's complaints …
 * - EX3 — Deterministic checks first, without trusting the model. A set with a duplicate question (differing only in
 *   spacing), then one with a missing item …
 * - EX4 — The plan is the request's. A plan with four Descriptive items numbered 7–10 at Advanced, for a request of 3
 *   items, 1 Descriptive, Basic: three items, ids 1–3 …
 * - EX5 — The checks. Count and ids (an item the plan lacks, a planned item missing), types, empty keywords, a
 *   Short_Keyword model answer without its keyword …
 * - EX6 — Offline on the sample material. For 5 (2 Descriptive), 3 (all Descriptive) and 4 (none, Advanced): the
 *   requested count and mix, ids 1..n, keywords non-empty and all in the model answer …
 * - EX7 — Offline planner reads the profile and the chapters. Chapter 1 only gives items from chapter 1's passages;
 *   the profile's proficiency is the items' level …
 * - EX8 — Offline validator. An invented fact, a keyword missing from the model answer, a question containing its
 *   answer and a Descriptive item with one keyword are each named, by their kind (`[키워드]`), without a tag naming the
 *   validator (`[오프라인 검증]`).
 * - EX11 — Offline rewrite. From round 2 the offline writer keeps the items without complaints as they were and
 *   writes the complained-about item from a sentence of its term the earlier version did not use.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import {
  EXAM_TASKS,
  ExamProblem,
  MAX_EXAM_ROUNDS,
  checkProblemSet,
  containsKeyword,
  examPassages,
  generateExam,
  loadExamSource,
  looseText,
  planOffline,
  validateOffline,
  writeOffline,
  type ExamRequest,
  type ExamSource,
  type GeneratedExam,
  type LearnerProfile,
} from '../src/exams/index.js';
import type { Passage } from '../src/retrieval/index.js';
import { ITEM, PLAN, fenced, set, startExamProvider, type ExamScript } from './support/exam-gemini.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp } from './support/test-app.js';

/**
 * EX1–EX8, EX11 (test/SPEC.md, "Exams: generation"): seed 000's Planner → Writer → Validator loop through the real Gemini
 * and OpenAI-compatible adapters against their fakes (the validator rejecting item 2 once; always rejecting; the server's deterministic
 * checks refusing a set without asking the validator; the plan held to the request), and the offline agents on the
 * bundled sample material.
 */

beforeAll(samplePdfBytes);

const TEXT = [
  '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
  '모집단에서 일부를 뽑은 표본의 평균을 표본평균이라고 합니다.',
  '대수의 법칙: n이 커질수록 표본평균은 기댓값 μ에 가까워집니다.',
].join('\n');
const passage: Passage = { chunkId: '0.0', text: TEXT, chapter: 0, chapterTitle: '대수의 법칙', startPage: 1, endPage: 1, documentType: 'definition', level: 'beginner', score: 0, lexical: null, dense: null };
const SOURCE: ExamSource = { materialId: 'm-exam', scope: '자료 「기초 통계」 전체', passages: [passage] };
const REQUEST: ExamRequest = { count: 3, descriptive: 1 };

type Provider = 'gemini' | 'openai';

async function run(
  context: TestContext,
  provider: Provider,
  script: ExamScript,
  request: ExamRequest = REQUEST,
): Promise<{ exam: GeneratedExam; calls: (agent: 'plan' | 'write' | 'validate') => string[]; rounds: { round: number; validated: boolean }[] }> {
  const fake = await startExamProvider(provider, script);
  context.onTestFinished(() => fake.close());
  const rounds: { round: number; validated: boolean }[] = [];
  const exam = await generateExam({
    model: fake.model(),
    source: SOURCE,
    request,
    profile: null,
    context: { materialId: SOURCE.materialId },
    onRound: ({ state, validated }) => void rounds.push({ round: state.round, validated }),
  });
  return { exam, calls: fake.calls, rounds };
}

const REJECT_2 = { is_valid: false, feedback_message: [{ id: 2, message: 'Keyword Insufficient. 2번 서술형의 키워드가 하나뿐입니다. 기댓값, n이 커질수록 등을 추가하세요.' }] };
const ACCEPT = { is_valid: true, feedback_message: [] };

// The loop runs the same on both providers' fakes, each through its real SDK (any model a school can run).
describe.each(['gemini', 'openai'] as const)('exam generation on %s (fake server, real SDK)', (provider) => {
  it('EX1 the validator rejects item 2 in round 1 and accepts in round 2: the writer gets the complaint and its own previous set, and only item 2 changes', async (context) => {
    const { exam, calls, rounds } = await run(context, provider, {
      write: (n) => (n === 1 ? set(ITEM[1], ITEM[2], ITEM[3]) : set(ITEM[1], ITEM['2b'], ITEM[3])),
      validate: (n) => (n === 1 ? REJECT_2 : ACCEPT),
    });
    expect([exam.valid, exam.rounds, exam.complaints]).toEqual([true, 2, []]);
    expect(exam.problems).toEqual([ITEM[1], ITEM['2b'], ITEM[3]]);
    expect(exam.plan).toEqual(PLAN);
    expect(rounds).toEqual([
      { round: 1, validated: true },
      { round: 2, validated: true },
    ]);
    const writes = calls('write');
    expect(writes).toHaveLength(2);
    // Round 1: no feedback, no prior set; round 2: the complaint on item 2 and the whole previous set.
    expect([fenced(writes[0]!, '검증_피드백'), fenced(writes[0]!, '이전_문제')]).toEqual(['(없음)', '(없음)']);
    expect(fenced(writes[1]!, '검증_피드백')).toBe(`- 2번: ${REJECT_2.feedback_message[0]!.message}`);
    expect(JSON.parse(fenced(writes[1]!, '이전_문제'))).toEqual(set(ITEM[1], ITEM[2], ITEM[3]));
    // Both rounds' writer prompts carry the plan and the passages; the validator sees each set it judges.
    for (const prompt of writes) {
      expect(JSON.parse(fenced(prompt, '출제_계획'))).toEqual(PLAN);
      expect(fenced(prompt, '참고_자료')).toContain('기댓값은 X가 가질 수 있는 값');
    }
    const validations = calls('validate');
    expect(validations.map((prompt) => JSON.parse(fenced(prompt, '검증_대상')).short_answer_problems[1].question_content)).toEqual([
      ITEM[2].question_content,
      ITEM['2b'].question_content,
    ]);
    expect(calls('plan')).toHaveLength(1);
  });

  it('EX2 a validator that always rejects: three rounds, then the fallback — the last set with its open complaints', async (context) => {
    const reject = (n: number) => ({ is_valid: false, feedback_message: [{ id: 1, message: `Factual Error ${n}. 1번 모범 답안을 자료와 대조하세요.` }] });
    const { exam, calls } = await run(context, provider, { write: () => set(ITEM[1], ITEM['2b'], ITEM[3]), validate: reject });
    expect(calls('write')).toHaveLength(MAX_EXAM_ROUNDS);
    expect(calls('validate')).toHaveLength(MAX_EXAM_ROUNDS);
    expect(exam).toMatchObject({ valid: false, rounds: 3, problems: [ITEM[1], ITEM['2b'], ITEM[3]] });
    expect(exam.complaints).toEqual([{ id: 1, message: 'Factual Error 3. 1번 모범 답안을 자료와 대조하세요.' }]);
    // Round 3's writer got round 2's complaint.
    expect(fenced(calls('write')[2]!, '검증_피드백')).toContain('Factual Error 2.');
  });

  it('EX3 the deterministic checks refuse a set with a duplicate question, then one with a missing item, without asking the validator (which would pass them)', async (context) => {
    const duplicate = { ...ITEM[3], question_content: `  ${ITEM[1].question_content.replace(' ', '  ')}` };
    const { exam, calls, rounds } = await run(context, provider, {
      write: (n) => (n === 1 ? set(ITEM[1], ITEM['2b'], duplicate) : n === 2 ? set(ITEM[1], ITEM['2b']) : set(ITEM[1], ITEM['2b'], ITEM[3])),
      validate: () => ACCEPT,
    });
    expect(rounds).toEqual([
      { round: 1, validated: false },
      { round: 2, validated: false },
      { round: 3, validated: true },
    ]);
    expect(calls('validate')).toHaveLength(1);
    expect([exam.valid, exam.rounds]).toEqual([true, 3]);
    const writes = calls('write');
    expect(fenced(writes[1]!, '검증_피드백')).toBe('- 3번: [중복] 3번 질문이 1번 질문과 같습니다. 다른 질문으로 바꾸세요.');
    expect(fenced(writes[2]!, '검증_피드백')).toContain('- 3번: [개수] 계획의 3번 문항(표본평균)이 빠졌습니다.');
  });

  it('EX4 the planner is held to the request: ids 1..n, the count, the Short_Keyword/Descriptive mix and the difficulty; too few items is asked once more, then refused', async (context) => {
    const sloppy = {
      planning_strategy: '서술형 위주',
      planned_items: [7, 8, 9, 10].map((id) => ({ id, target_topic: `주제 ${id}`, question_type: 'Descriptive', intent_type: 'Causal_Explanation', complexity_level: 'Advanced', source_reference_hint: `[1] 힌트 ${id}` })),
    };
    const { exam } = await run(context, provider, { plan: () => sloppy, write: () => set(ITEM[1], ITEM['2b'], ITEM[3]), validate: () => ACCEPT }, { count: 3, descriptive: 1, difficulty: 'Basic' });
    expect(exam.plan.planned_items.map((item) => [item.id, item.target_topic, item.question_type, item.intent_type, item.complexity_level])).toEqual([
      [1, '주제 7', 'Descriptive', 'Causal_Explanation', 'Basic'],
      [2, '주제 8', 'Short_Keyword', 'Recall', 'Basic'],
      [3, '주제 9', 'Short_Keyword', 'Recall', 'Basic'],
    ]);
    // Item 2 written as Descriptive against a Short_Keyword plan: a type complaint, no validator in round 1.
    expect(exam.valid).toBe(false);
    expect(exam.complaints.map((complaint) => complaint.message.slice(0, 4))).toContain('[유형]');

    const short = { ...PLAN, planned_items: PLAN.planned_items.slice(0, 2) };
    const refused = await startExamProvider(provider, { plan: () => short, write: () => set(ITEM[1]), validate: () => ACCEPT });
    context.onTestFinished(() => refused.close());
    await expect(
      generateExam({ model: refused.model(), source: SOURCE, request: REQUEST, profile: null, context: { materialId: SOURCE.materialId } }),
    ).rejects.toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
    const plans = refused.calls('plan');
    expect(plans).toHaveLength(2);
    expect(plans[1]).toContain('직전 계획은 2문항뿐이었습니다. 정확히 3문항을 계획하세요.');
    expect(refused.calls('write')).toHaveLength(0);
  });

  it('EX5 the checks: count, ids, types, keywords, duplicates and a Short_Keyword answer with its keyword; a keyword carries synonyms as "a/b"', () => {
    const plan = ExamProblem.array().parse([ITEM[1], ITEM['2b'], ITEM[3]]);
    expect(checkProblemSet(plan, PLAN as never)).toEqual([]);
    const broken = [
      { ...ITEM[1], model_answer: '기대치' },
      { ...ITEM['2b'], key_keywords: [] },
      { ...ITEM[3], id: 4 },
      { ...ITEM[3], id: 2, type: 'Descriptive' as const },
    ];
    expect(checkProblemSet(broken as never, PLAN as never).map((complaint) => [complaint.id, complaint.message.slice(0, complaint.message.indexOf(']') + 1)])).toEqual([
      [1, '[키워드]'],
      [2, '[키워드]'],
      [4, '[개수]'],
      [2, '[개수]'],
      [3, '[개수]'],
    ]);
    expect(checkProblemSet([{ ...ITEM[1], model_answer: 'Expected value' }, ITEM['2b'], ITEM[3]] as never, PLAN as never)).toEqual([]);
    expect(containsKeyword('Expected value는 평균이다', '기댓값/Expected value')).toBe(true);
    expect(containsKeyword('기대 값', '기댓값/Expected value')).toBe(false);
  });
});

describe('offline exam generation on the sample material', () => {
  it('EX6 gives the requested count and mix, non-empty keywords, no duplicate questions, passes its own validator in one round', async (context) => {
    const app = await startTestApp();
    context.onTestFinished(() => app.stop());
    const material = await loadSample(app);
    for (const request of [
      { count: 5, descriptive: 2 },
      { count: 3, descriptive: 3 },
      { count: 4, descriptive: 0, difficulty: 'Advanced' },
    ] satisfies ExamRequest[]) {
      const source = await loadExamSource(app.materials, app.retrieval, material.id, request);
      const exam = await generateExam({ model: app.model, source, request, profile: null, context: { materialId: material.id } });
      expect(exam.problems, JSON.stringify(request)).toHaveLength(request.count);
      expect([exam.valid, exam.rounds, exam.complaints]).toEqual([true, 1, []]);
      expect(exam.problems.map((problem) => problem.id)).toEqual(Array.from({ length: request.count }, (_, index) => index + 1));
      expect(exam.problems.filter((problem) => problem.type === 'Descriptive')).toHaveLength(request.descriptive);
      expect(new Set(exam.problems.map((problem) => looseText(problem.question_content))).size).toBe(request.count);
      const text = looseText(source.passages.map((entry) => entry.text).join('\n'));
      for (const problem of exam.problems) {
        expect(problem.key_keywords.length, problem.question_content).toBeGreaterThan(0);
        for (const keyword of problem.key_keywords) expect(containsKeyword(problem.model_answer, keyword), `${keyword} in ${problem.model_answer}`).toBe(true);
        if (problem.type === 'Short_Keyword') {
          expect(problem.question_content).toMatch(/^다음 (?:설명에 해당하는|문장의 빈칸에|내용을 가리키는)/u);
          expect(problem.key_keywords.some((keyword) => containsKeyword(problem.question_content, keyword))).toBe(false);
        } else {
          expect(problem.question_content).toMatch(/설명하시오\.$/u);
          expect(problem.key_keywords.length).toBeGreaterThanOrEqual(2);
          expect(problem.key_keywords.length).toBeLessThanOrEqual(4);
          // The model answer is the material's own sentences.
          for (const sentence of problem.model_answer.split(/(?<=[.])\s+/u)) expect(text).toContain(looseText(sentence));
        }
        // Never the title page, the contents or a worked example.
        expect(problem.model_answer).not.toMatch(/이 자료는|1장|예:|예를 들어|=/u);
      }
      if (request.difficulty) expect(exam.plan.planned_items.every((item) => item.complexity_level === request.difficulty)).toBe(true);
    }
  });

  it('EX7 the offline planner reads the profile (weak topics first) and the request’s chapters; the alias of a term is an accepted synonym', async (context) => {
    const app = await startTestApp();
    context.onTestFinished(() => app.stop());
    const material = await loadSample(app);
    const profile: LearnerProfile = {
      learning_goal: { target_depth: 'Basic Recall', description: '' },
      user_status: { proficiency_level: 'Intermediate', weak_topics: [{ topic: '표본평균', evidence: ['시험 1번: Incorrect'] }], strong_topics: [] },
      preferred_question_types: [],
      exams_taken: [],
      updated_at: 1,
    };
    const request: ExamRequest = { count: 2, descriptive: 1, chapters: [0] };
    const source = await loadExamSource(app.materials, app.retrieval, material.id, request);
    expect(new Set(source.passages.map((entry) => entry.chapter))).toEqual(new Set([0]));
    const exam = await generateExam({ model: app.model, source, request, profile, context: { materialId: material.id } });
    expect(exam.plan.planned_items.map((item) => item.complexity_level)).toEqual(['Intermediate', 'Intermediate']);
    expect(exam.plan.planning_strategy).toContain('표본평균');
    // Basic Recall: no comparison; the weak topic comes first.
    expect(exam.plan.planned_items.some((item) => item.intent_type === 'Comparison')).toBe(false);
    expect(exam.problems.map((problem) => problem.key_keywords[0])).toContain('표본평균');
    const whole = await loadExamSource(app.materials, app.retrieval, material.id, {});
    const set = await generateExam({ model: app.model, source: whole, request: { count: 3, descriptive: 0 }, profile: null, context: { materialId: material.id } });
    const mean = set.problems.find((problem) => problem.key_keywords[0] === '평균/산술평균');
    expect(mean).toMatchObject({ model_answer: '평균 (산술평균)', key_keywords: ['평균/산술평균'] });
    expect(mean!.question_content).toBe('다음 설명에 해당하는 용어는 무엇인가? 「자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값」');
  });

  it('EX8 the offline validator checks against the source: an invented fact, a keyword not in the answer, a question that gives its answer away, a descriptive item with one keyword', () => {
    const passages = examPassages(SOURCE);
    const verdict = validateOffline({
      passages,
      profile: null,
      count: 3,
      problems: [
        { ...ITEM[1], question_content: '기댓값이란 무엇을 곱해 더한 값인가? 기댓값을 쓰시오.' },
        { ...ITEM[2], model_answer: '표본평균은 언제나 기댓값과 같다.', key_keywords: ['표본평균'] },
        { ...ITEM[3], key_keywords: ['표본평균', '모평균'] },
      ],
      // Not part of the offline validator's input schema: ignored.
    } as never);
    expect(verdict.is_valid).toBe(false);
    const byId = new Map(verdict.feedback_message.map((entry) => [entry.id, entry.message]));
    expect(byId.get(1)).toContain('[질문 명확성] 질문에 정답');
    expect(byId.get(2)).toContain('[사실 확인]');
    expect(byId.get(2)).toContain('[키워드] 서술형인데 핵심 키워드가 2개 미만');
    // What the teacher reads under 검토 지적: the kind of fault and the fix, with the particle the keyword takes; no
    // tag naming the validator.
    expect(byId.get(3)).toBe("[사실 확인] 정답 키워드 '모평균'이 강의 자료에 없습니다. [키워드] 키워드 '모평균'이 모범 답안에 없습니다. 모범 답안에 있는 표현을 키워드로 쓰세요.");
    for (const message of byId.values()) expect(message).not.toContain('오프라인');
    expect(EXAM_TASKS).toEqual({ plan: 'exam.plan', write: 'exam.write', validate: 'exam.validate' });
  });

  it('EX11 the offline writer rewrites only the items complained about, from a sentence of the same term the earlier version did not use', () => {
    const passages = [{ number: 1, meta: '', text: `${TEXT}\n기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.` }];
    const plan = planOffline({ scope: '', passages, request: { count: 2, descriptive: 0 }, profile: null });
    const first = writeOffline({ scope: '', passages, plan, profile: null, feedback: [], prior: null }).short_answer_problems;
    const target = first.find((problem) => problem.model_answer === '기댓값')!;
    const other = first.find((problem) => problem !== target)!;
    expect(target.question_content).toContain('X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값');
    const second = writeOffline({ scope: '', passages, plan, profile: null, feedback: [{ id: target.id, message: '질문이 모호합니다.' }], prior: first }).short_answer_problems;
    expect(second.find((problem) => problem.id === other.id)).toEqual(other);
    expect(second.find((problem) => problem.id === target.id)).toMatchObject({
      question_content: '다음 설명에 해당하는 용어는 무엇인가? 「확률을 가중치로 한 평균, 즉 가중평균」',
      model_answer: '기댓값',
    });
  });
});
