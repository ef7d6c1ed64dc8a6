/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J12 — 개조식 is not a keyword list. A Korean answer whose words carry argument particles (은/는/이/가/을/를/에/
 *   에게/에서/(으)로) before what is said of them is a statement written tersely, not a bare list: a two-term contrast
 *   (`스택은 후입선출, 큐는 선입선출`), a list with one such item (`빛에너지로 포도당 합성, 산소 방출`) or a sentence
 *   without a finite verb (`식물이 양분을 만드는 것`) is never flagged `keyword-list`; lists of bare terms still are,
 *   including items that are single words with a particle (`평균은, 자료의, 모든, 값을`) and items whose 은/는 ends a
 *   verb form (`같은 속력`).
 * - J13 — A short answer with a key term is not confidently bad. A bad verdict that no deciding flag made (give-up,
 *   echo, contradiction, wrong choice, keyword list, integrity) on a short answer (at most 15 content words) that
 *   contains a key term of the reference (a concept the question does not give, or an expected keyword) has a
 *   confidence below CONFIDENT_AT (KEY_TERM_CONFIDENCE): the lecture says it is not sure, the exam holds the item for
 *   review. Over every dev item (ko-dev, and the English ASAG dev files when the shared eval folder is there).
 * - J25 — Bare terms decide nothing alone. A bad verdict whose only deciding evidence is `keyword-list` keeps its cap
 *   (at most partial) but has a confidence below CONFIDENT_AT (KEYWORD_LIST_CONFIDENCE): a list of terms can be what
 *   the question asks for (`탄수화물, 단백질, 지방`). A model's Correct lowered by that cap alone is not told as final
 *   either (overruledConfidence), nor is the exam's bare list of a Descriptive answer (proposed Partial_Correct, held
 *   for the teacher); a cap that decides (a negation) still is.
 * - J26 — To get rid of is not a negation. `없애다` (`빨리 없앰`) is a verb of its own, not `없다`: no negation flag.
 * - J27 — A list in parentheses is one clause. `물리: 성질 그대로(모양,상태만) / 화학: 새로운 물질`: the comma in the
 *   parentheses does not end a clause, so the two halves of the contrast are not read as swapped (no sure bad).
 * - J28 — A term said in two forms ties a terse answer to neither clause. When one reference clause says a word in
 *   one form and the other in another (`푸른색 리트머스 종이를 붉게` / `붉은색 리트머스 종이를 푸르게`), an answer that
 *   says each word once (`산성은 붉은색, 염기성은 푸른색`) is not a swap; one that says both forms crosswise (`산성은
 *   붉은 리트머스 종이를 푸르게, 염기성은 푸른 종이를 붉게`) still is.
 * - J29 — Hard to do is cannot do. `못 끊게` says what `끊기 어렵게` says: no negation flag, no sure bad; `쉽게 끊게`
 *   (an adverb in `-게`, read with the verb after it) is the antonym of it and is flagged.
 * - J36 — One item per part asked is an answer, not a list. A list is a keyword dump when it has more items than the
 *   question asks for: a question whose asking words ask two things (`어디이며, 어떤 과정으로`), that asks about each of
 *   two things (`각각`, `어떻게 다른가요`) or names a count (`3대`, `두 가지`, `three reasons`) is answered in 개조식 by
 *   that many items (`미토콘드리아, 세포 호흡`); a noun phrase built on the genitive (`질량과 속도의 곱`) names one
 *   thing, and a note ending in a nominalised predicate (`저항함`, `높음`) states something. More items than parts
 *   (`비열, 대륙, 해양, 여름, 겨울` to a two-part question) are still a keyword list, and the exam's bare-list check
 *   of a Descriptive answer counts the same way. English asking words count where a question or a coordinated part
 *   begins (`when` in "What does it mean when the reading jumps" asks nothing).
 * - J37 — A concept the reference tells apart is read as itself. Where one Korean concept of the reference contains
 *   another (`데크레셴도` holds `크레셴도`), each is found only written out: `크레셴도는 점점 세게` does not hold
 *   `데크레셴도` (a bigram reading of a five-syllable word took it for one), `데크레셴도는 점점 여리게` does not hold
 *   `크레셴도` (read inside the longer word), and the one-part answer is no longer a sure good.
 * - J38 — A student who says they do not know part of it is not told. A good verdict on an attempt that says, in the
 *   first person, it does not know or remember a part (`…, 데크레셴도는 잘 모르겠어요`, `not sure`) has a confidence
 *   below CONFIDENT_AT (HEDGED_CONFIDENCE); `아무도 모름` said of the subject (a secret ballot) is no hedge.
 * - J31 — To enlarge is to increase. `늘리다` and `줄이다` in any ending (`늘려`, `늘린`, `줄여서`, `줄인`) are read as
 *   늘/줄, whose antonym pair makes `지도에 늘려 나타낸` against `지도에 줄여서 나타낸` an antonym, not a good copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answerShapeFlags } from '../src/exams/answer-shape.js';
import { ExamGrader } from '../src/exams/index.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import {
  type Assessment,
  CONFIDENT_AT,
  DECIDING_FLAGS,
  HEDGED_CONFIDENCE,
  KEY_TERM_CONFIDENCE,
  assessAnswer,
  assessmentConfidence,
  isKeywordList,
  analyseText,
  overruledConfidence,
} from '../src/judges/index.js';

const STACK = {
  question: '스택과 큐는 어떻게 다른가요?',
  reference: '스택은 나중에 넣은 것을 먼저 꺼내는 후입선출(LIFO) 구조이고, 큐는 먼저 넣은 것을 먼저 꺼내는 선입선출(FIFO) 구조이다.',
};
const PHOTOSYNTHESIS = {
  question: '광합성이란 무엇인가요?',
  reference: '광합성은 식물이 빛에너지를 이용해 이산화탄소와 물로 포도당을 만들고 산소를 내보내는 과정이다.',
};
const OHM = {
  question: '옴의 법칙을 설명해 보세요.',
  reference: '전압이 일정할 때 전류는 저항에 반비례하고, 저항이 일정할 때 전류는 전압에 비례한다.',
};

describe('J12: 개조식 is not a keyword list', () => {
  it.each([
    [STACK, '스택은 후입선출, 큐는 선입선출'],
    [OHM, '전류는 전압에 비례, 저항에 반비례'],
    [PHOTOSYNTHESIS, '빛에너지로 포도당 합성, 산소 방출'],
    [PHOTOSYNTHESIS, '식물이 양분을 만드는 것'],
  ])('J12: a terse statement (%#) is not flagged as a keyword list', (base, answer) => {
    expect(isKeywordList(analyseText(answer), analyseText(base.reference), analyseText(base.question))).toBe(false);
    expect(assessAnswer({ ...base, answer }).evidence.flags).not.toContain('keyword-list');
  });

  it.each([
    [STACK, '스택, 후입선출, 큐, 선입선출'],
    [PHOTOSYNTHESIS, '빛, 이산화탄소, 물, 포도당, 산소'],
    [PHOTOSYNTHESIS, '광합성은, 식물이, 빛에너지를, 이용해'],
    [OHM, '전압 전류 저항'],
    // 같은 is a verb form: its 은 makes no argument.
    [{ question: '관성이란 무엇인가요?', reference: '관성은 물체가 정지해 있거나 같은 속력으로 같은 방향으로 운동하던 상태를 계속 유지하려는 성질이다.' }, '정지, 운동, 같은 속력, 방향'],
  ])('J12: bare terms (%#) are still a keyword list, never correct', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.evidence.flags).toContain('keyword-list');
    expect(result.label2).toBe('bad');
  });
});

describe('J36: one item per part asked is an answer, not a keyword list', () => {
  const listed = (question: string, reference: string, answer: string): boolean =>
    isKeywordList(analyseText(answer), analyseText(reference), analyseText(question));
  const KIDNEY = {
    question: '혈액 속 노폐물을 걸러 내는 기관은 어디이며, 걸러진 노폐물은 무엇으로 몸 밖에 나가나요?',
    reference: '콩팥(신장)이 혈액 속 노폐물을 걸러 내고, 걸러진 노폐물은 오줌으로 몸 밖에 나간다.',
  };
  const SEASONS = {
    question: '남반구에 있는 오스트레일리아는 1월과 7월에 각각 어떤 계절인가요?',
    reference: '남반구는 북반구와 계절이 반대여서 오스트레일리아는 1월에 여름, 7월에 겨울이다.',
  };
  const POWER = {
    question: '전력이란 무엇이며 어떻게 구하나요?',
    reference: '전력은 전기 기구가 단위 시간 동안 소비하는 전기 에너지로, 전압과 전류를 곱하여 구한다.',
  };
  const PRIMARY = {
    question: '빛의 3원색은 무엇인가요?',
    reference: '빛의 3원색은 빨간색, 초록색, 파란색이며 이 세 빛을 섞으면 여러 가지 색을 만들 수 있다.',
  };
  const CURRENT = {
    question: '직류와 교류는 어떻게 다른가요?',
    reference: '직류는 전류의 방향과 세기가 일정한 전류이고, 교류는 전류의 방향과 세기가 주기적으로 바뀌는 전류이다.',
  };
  const DOWNSTREAM = {
    question: '강의 하류는 어떤 특징이 있나요?',
    reference: '강의 하류는 강폭이 넓고 경사가 완만하며, 운반해 온 물질이 쌓이는 퇴적 작용이 활발하다.',
  };

  it.each([
    [KIDNEY, '콩팥, 오줌'],
    [SEASONS, '여름, 겨울'],
    [PRIMARY, '빨강, 초록, 파랑'],
    [PRIMARY, 'red, green, blue'],
    [POWER, '전압과 전류의 곱'],
    [CURRENT, '방향 일정, 방향 주기적 변화'],
    [DOWNSTREAM, '강폭 넓음, 퇴적 많음'],
  ])('J36: a terse answer with one item per part (%#) is not flagged as a keyword list', (base, answer) => {
    expect(listed(base.question, base.reference, answer)).toBe(false);
    expect(assessAnswer({ ...base, answer }).evidence.flags).not.toContain('keyword-list');
  });

  it('J36: the answer freed from the list rule is still read for its content', () => {
    const wrong = assessAnswer({ ...PRIMARY, answer: '노랑, 검정, 하양' });
    expect(wrong.evidence.flags).not.toContain('keyword-list');
    expect(wrong.label2).toBe('bad');
  });

  it('J36: the exam\'s bare-list check of a Descriptive answer counts the parts the same way', () => {
    const shape = (base: { question: string; reference: string }, answer: string) =>
      answerShapeFlags({ type: 'Descriptive', answer, question: base.question, modelAnswer: base.reference, source: undefined, listed: false, pasted: false });
    expect(shape(KIDNEY, '콩팥, 오줌')).not.toContain('bare-list');
    expect(shape(PRIMARY, '빨강, 초록, 파랑')).not.toContain('bare-list');
    expect(shape(KIDNEY, '콩팥, 혈액, 노폐물, 오줌')).toContain('bare-list');
    // A named count bounds the list; `when` joining a clause asks nothing.
    const phases = { question: 'Name the 2 phases of congestion control and explain how the window changes in each.', reference: 'Slow start doubles the window every round trip; congestion avoidance adds one segment per round trip.' };
    expect(shape(phases, 'slow, start, congestion, avoidance')).toContain('bare-list');
    const bulb = { question: 'What does it mean when the voltage reading jumps from 0 to 1.5?', reference: 'The bulb is damaged.' };
    expect(shape(bulb, 'bulb, damaged')).toContain('bare-list');
  });

  it.each([
    [KIDNEY, '콩팥, 혈액, 노폐물, 오줌, 몸 밖'],
    [POWER, '전기, 에너지, 전압, 전류'],
    [SEASONS, '남반구, 북반구, 반대, 여름, 겨울'],
  ])('J36: more items than the question asks for (%#) are still a keyword list', (base, answer) => {
    expect(listed(base.question, base.reference, answer)).toBe(true);
    expect(assessAnswer({ ...base, answer }).label2).toBe('bad');
  });
});

describe('J38: a student who says they do not know part of it is not told', () => {
  it('J38: a good verdict on a hedged attempt is unsure; a subject nobody knows is no hedge', () => {
    const dynamics = {
      question: '셈여림표 크레셴도(cresc.)와 데크레셴도(decresc.)의 뜻을 각각 쓰시오.',
      reference: "크레셴도는 '점점 세게', 데크레셴도는 '점점 여리게'라는 뜻이다.",
    };
    const hedged = assessAnswer({ ...dynamics, answer: '크레셴도는 점점 세게, 데크레셴도는 점점 여리게인데 잘 모르겠어요' });
    expect(hedged.hedged).toBe(true);
    expect(assessmentConfidence(hedged)).toBeLessThanOrEqual(HEDGED_CONFIDENCE);
    const english = assessAnswer({ question: 'What does a closed switch do?', reference: 'A closed switch completes the circuit so the bulb lights.', answer: "I'm not sure, but it completes the circuit so the bulb lights." });
    expect(english.hedged).toBe(true);
    expect(english.label2 === 'bad' || assessmentConfidence(english) < CONFIDENT_AT).toBe(true);
    const ballot = assessAnswer({ question: '비밀선거란 무엇인가요?', reference: '비밀선거는 누구에게 투표했는지 다른 사람이 알 수 없게 하는 원칙이다.', answer: '누구 찍었는지 아무도 모름' });
    expect(ballot.hedged).toBe(false);
  });
});

describe('J37: a concept the reference tells apart is read as itself', () => {
  const DYNAMICS = {
    question: '셈여림표 크레셴도(cresc.)와 데크레셴도(decresc.)의 뜻을 각각 쓰시오.',
    reference: "크레셴도는 '점점 세게', 데크레셴도는 '점점 여리게'라는 뜻이다.",
  };

  it('J37: each of two nested terms is found only where it is written, and one part of two is no sure good', () => {
    const crescendo = assessAnswer({ ...DYNAMICS, answer: '크레셴도는 점점 세게' });
    expect(crescendo.evidence.matched).toContain('크레셴도');
    expect(crescendo.evidence.matched).not.toContain('데크레셴도');
    expect(crescendo.evidence.missing).toContain('데크레셴도');
    expect(assessmentConfidence(crescendo)).toBeLessThan(CONFIDENT_AT);
    const decrescendo = assessAnswer({ ...DYNAMICS, answer: '데크레셴도는 점점 여리게' });
    expect(decrescendo.evidence.matched).toContain('데크레셴도');
    expect(decrescendo.evidence.matched).not.toContain('크레셴도');
    const both = assessAnswer({ ...DYNAMICS, answer: '크레셴도는 점점 세게, 데크레셴도는 점점 여리게' });
    expect(both.evidence.matched).toEqual(expect.arrayContaining(['크레셴도', '데크레셴도']));
    expect(both.label2).toBe('good');
  });
});

function assessment(overrides: Partial<Assessment> & { flags?: Assessment['evidence']['flags'] }): Assessment {
  const { flags = [], ...rest } = overrides;
  return {
    label3: 'incorrect',
    label2: 'bad',
    score: 0.05,
    goodProbability: 0.1,
    shortWithKeyTerm: false,
    shortWithOtherNumber: false,
    replacesNumber: false,
    namesOtherLabels: false,
    addsNegation: false,
    picksOtherOption: false,
    reordered: false,
    negatesOtherWords: false,
    negationUnread: false,
    rubricReference: false,
    englishRoleFlag: false,
    englishNegationFlag: false,
    hedged: false,
    evidence: { matched: [], missing: [], flags },
    ...rest,
  };
}

describe('J13: a short answer with a key term is not confidently bad', () => {
  it('J13: a bad verdict far below the threshold is unsure when the short answer has a key term, sure without one', () => {
    const withTerm = assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['thin-coverage'] }));
    expect(withTerm).toBe(KEY_TERM_CONFIDENCE);
    expect(withTerm).toBeLessThan(CONFIDENT_AT);
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: false, flags: ['thin-coverage'] }))).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J13: a deciding flag still decides, and a good verdict is not touched', () => {
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['negation'] }))).toBeGreaterThanOrEqual(CONFIDENT_AT);
    // A keyword list decides nothing on its own (J25): a list of terms can be what the question asks for.
    expect(assessmentConfidence(assessment({ shortWithKeyTerm: true, flags: ['keyword-list'] }))).toBeLessThan(CONFIDENT_AT);
    const good = assessment({ label3: 'correct', label2: 'good', score: 0.95, goodProbability: 0.95, shortWithKeyTerm: true });
    expect(assessmentConfidence(good)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J13: shortWithKeyTerm reads the reference\'s new concepts, or the expected keywords when there are some', () => {
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '산소' }).shortWithKeyTerm).toBe(true);
    // 광합성 is the question's own word: naming it is no key term.
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '광합성이요' }).shortWithKeyTerm).toBe(false);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '산소', keywords: ['포도당'] }).shortWithKeyTerm).toBe(false);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: '포도당', keywords: ['포도당'] }).shortWithKeyTerm).toBe(true);
    const long = '식물은 잎에 있는 엽록체에서 햇빛을 받아 뿌리에서 올라온 물과 공기 중의 이산화탄소로 양분을 만들어 줄기와 열매에 저장하고 남는 기체를 공기 중으로 내보내요';
    expect(analyseText(long).units.length).toBeGreaterThan(15);
    expect(assessAnswer({ ...PHOTOSYNTHESIS, answer: long }).shortWithKeyTerm).toBe(false);
  });

  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const asag = [path.join(root, '..', 'shared', 'eval', 'asag'), path.join(root, '..', '..', 'shared', 'eval', 'asag')].find((directory) => existsSync(directory));
  const files = [
    path.join(root, 'eval', 'ko-dev.jsonl'),
    ...(asag === undefined ? [] : ['saf-en', 'semeval-beetle', 'semeval-scientsbank'].map((name) => path.join(asag, `${name}.dev.jsonl`))),
  ];

  it.each(files)('J13: over every dev item of %s, no short answer with a key term is told bad with confidence unless a flag decided it', (file) => {
    const offenders: string[] = [];
    let held = 0;
    for (const line of readFileSync(file, 'utf8').split('\n').filter((entry) => entry.trim() !== '')) {
      const row = JSON.parse(line) as { id: string; question: string; reference: string; alt_references?: string[]; answer: string; source?: string };
      const result = assessAnswer({
        question: row.question,
        reference: row.reference,
        alternatives: row.alt_references ?? [],
        answer: row.answer,
        ...(row.source === undefined ? {} : { source: row.source }),
      });
      if (result.label2 !== 'bad' || !result.shortWithKeyTerm || result.evidence.flags.some((flag) => DECIDING_FLAGS.has(flag))) continue;
      held += 1;
      if (assessmentConfidence(result) >= CONFIDENT_AT) offenders.push(row.id);
    }
    expect(offenders).toEqual([]);
    expect(held).toBeGreaterThan(0);
  });
});

describe('J25 bare terms decide nothing alone', () => {
  // The question does not say how many (J36 would read a counted list as its answer's form).
  const NUTRIENTS = { question: '우리 몸의 에너지원이 되는 영양소는 무엇인가요?', reference: '몸에서 에너지원으로 쓰이는 영양소는 탄수화물, 단백질, 지방이다.' };

  it('J25 the terms a question asks for, listed, are at most partial but never a sure bad', () => {
    for (const answer of ['탄수화물, 단백질, 지방', '탄수화물/단백질/지방']) {
      const result = assessAnswer({ ...NUTRIENTS, answer });
      expect(result.evidence.flags, answer).toContain('keyword-list');
      expect(result.label2).toBe('bad');
      expect(assessmentConfidence(result), answer).toBeLessThan(CONFIDENT_AT);
    }
  });

  it('J25 on the exam (offline grader, Descriptive item), listed terms are proposed Partial_Correct and held for the teacher', async () => {
    const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
    const problem = { id: 1, type: 'Descriptive' as const, question_content: NUTRIENTS.question, model_answer: NUTRIENTS.reference, key_keywords: [], intent_diagnosis: '-' };
    for (const answer of ['탄수화물, 단백질, 지방', '지방 / 단백질 / 탄수화물']) {
      const item = await grader.grade(problem, answer, { materialId: 'material-1' });
      expect([answer, item.result_status, item.evidence?.proposed]).toEqual([answer, 'Needs_Review', 'Partial_Correct']);
    }
    // The exam's own bare-list check (terms the judges' list check lets through) is held the same way.
    const globalisation = {
      ...problem,
      question_content: '세계화가 빨라진 까닭은 무엇인가요?',
      model_answer: '세계화는 세계가 하나의 생활권으로 통합되어 가는 현상으로, 교통과 통신이 발달하면서 빨라졌다.',
    };
    const answer = '한 생활권으로 통합, 교통 통신 발달';
    const held = await grader.grade(globalisation, answer, { materialId: 'material-1' });
    expect([held.result_status, held.evidence?.proposed]).toEqual(['Needs_Review', 'Partial_Correct']);
  });

  it('J25 a model\'s Correct lowered by the keyword-list cap alone is not final; by a negation it is', () => {
    expect(overruledConfidence(['keyword-list'], 0.9)).toBeLessThan(CONFIDENT_AT);
    expect(overruledConfidence(['keyword-list', 'negation'], 0.5)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });
});

describe('J26 to get rid of is not a negation', () => {
  it('J26 없애다 in a terse correct answer raises no negation and no sure bad verdict', () => {
    const vaccine = {
      question: '백신을 맞으면 어떤 효과가 있나요?',
      reference: '백신을 맞으면 몸속에 항체가 만들어져, 나중에 같은 병원체가 들어왔을 때 빠르게 물리칠 수 있다.',
    };
    const result = assessAnswer({ ...vaccine, answer: '몸에 항체 생김. 같은 병원체 들어오면 빨리 없앰' });
    expect(result.evidence.flags).not.toContain('negation');
    expect(result.label2 === 'good' || assessmentConfidence(result) < CONFIDENT_AT).toBe(true);
    // 없다 itself still negates.
    expect(assessAnswer({ ...vaccine, answer: '몸속에 항체가 없어서 병원체를 물리칠 수 없다' }).evidence.flags).toContain('negation');
  });
});

const PHYSICAL = {
  question: '물리 변화와 화학 변화는 어떻게 다른가요?',
  reference: '물리 변화는 물질의 성질은 변하지 않고 모양이나 상태만 변하는 것이고, 화학 변화는 성질이 다른 새로운 물질이 생기는 변화이다.',
};

describe('J27 a list in parentheses is one clause', () => {
  it('J27 a terse contrast with a parenthesised list is not read as a swap', () => {
    const result = assessAnswer({ ...PHYSICAL, answer: '물리: 성질 그대로(모양,상태만) / 화학: 새로운 물질' });
    expect(result.evidence.flags).not.toContain('swapped');
    expect(result.label2 === 'good' || assessmentConfidence(result) < CONFIDENT_AT).toBe(true);
    // Outside parentheses a comma still ends the clause: the halves traded are a swap.
    expect(assessAnswer({ ...PHYSICAL, answer: '물리 변화는 새로운 물질이 생기는 것, 화학 변화는 모양이나 상태만 변하는 것' }).evidence.flags).toContain('swapped');
  });
});

const LITMUS = {
  question: '산성 용액과 염기성 용액에 리트머스 종이를 적시면 각각 어떤 색 변화가 나타나나요?',
  reference: '산성 용액은 푸른색 리트머스 종이를 붉게 변하게 하고, 염기성 용액은 붉은색 리트머스 종이를 푸르게 변하게 한다.',
};

describe('J28 a term said in two forms ties a terse answer to neither clause', () => {
  it('J28 each colour said once is not a swap; both forms said crosswise is', () => {
    const terse = assessAnswer({ ...LITMUS, answer: '산성은 붉은색, 염기성은 푸른색' });
    expect(terse.evidence.flags).not.toContain('swapped');
    expect(terse.label2 === 'good' || assessmentConfidence(terse) < CONFIDENT_AT).toBe(true);
    const reversed = assessAnswer({ ...LITMUS, answer: '산성은 붉은 리트머스 종이를 푸르게, 염기성은 푸른 종이를 붉게 함' });
    expect(reversed.evidence.flags).toContain('swapped');
    expect(reversed.label2).toBe('bad');
  });
});

const SMOKE = {
  question: '담배 연기에 들어 있는 니코틴과 타르는 각각 우리 몸에 어떤 해를 주나요?',
  reference: '니코틴은 중독을 일으켜 담배를 끊기 어렵게 하고, 타르는 발암 물질을 포함하고 있어 암을 일으킨다.',
};

describe('J29 hard to do is cannot do', () => {
  it('J29 못 끊게 for 끊기 어렵게 is no negation; 쉽게 끊게 is its antonym', () => {
    const cannot = assessAnswer({ ...SMOKE, answer: '니코틴은 못 끊게 만들고 타르는 암 생기게 함' });
    expect(cannot.evidence.flags).not.toContain('negation');
    expect(cannot.negatesOtherWords).toBe(false);
    expect(cannot.label2 === 'good' || assessmentConfidence(cannot) < CONFIDENT_AT).toBe(true);
    const easily = assessAnswer({ ...SMOKE, answer: '니코틴은 담배를 쉽게 끊게 하고 타르는 암을 일으킨다' });
    expect(easily.evidence.flags).toContain('antonym');
    expect(easily.label2).toBe('bad');
  });
});

const SCALE = {
  question: '지도의 축척이란 무엇이며, 1:25,000 지도와 1:50,000 지도 중 어느 것이 더 자세한가요?',
  reference: '축척은 실제 거리를 지도에 줄여서 나타낸 비율이며, 1:25,000 지도가 1:50,000 지도보다 더 자세하게 나타난다.',
};

describe('J31 to enlarge is to increase', () => {
  it('J31 늘리다/줄이다 in any ending fold onto 늘/줄, and enlarging for reducing is an antonym', () => {
    const units = (text: string) => analyseText(text).tokens.filter((token) => token.content).map((token) => token.unit);
    expect(units('늘려 늘린 늘렸다 줄여서 줄인 줄였다')).toEqual(['늘', '늘', '늘', '줄', '줄', '줄']);
    const enlarged = assessAnswer({ ...SCALE, answer: '실제 거리를 지도에 늘려 나타낸 비율, 1:50,000 지도가 더 자세함' });
    expect(enlarged.evidence.flags).toContain('antonym');
    expect(enlarged.label2).toBe('bad');
    const reduced = assessAnswer({ ...SCALE, answer: '실제 거리를 지도에 줄여 나타낸 비율이고 1:25,000 지도가 더 자세하다' });
    expect(reduced.evidence.flags).not.toContain('antonym');
  });
});
