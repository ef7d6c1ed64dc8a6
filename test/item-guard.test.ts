/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GD1 — Placeholders. An answer, key, keyword or sub-concept explanation that is empty, a stock non-answer (`핵심
 *   개념`), a template that fits any concept, or the deck's or chapter's title is refused.
 * - GD2 — Restated answers. A model answer that restates its question, or is the passage the question quotes.
 * - GD3 — The medium. A question, key, sub-concept or raised-hand choice about `lecture`, `slide`, `outline`,
 *   `introduction`, `강의`, `목차`… (or about a placeholder); a choice met only in code …
 * - GD4 — Repeats. The same question twice in a set, or two blanks of one sentence.
 * - GD5 — Front matter. An item quoting a cover, agenda, contents or administrative page (course code, lecturer,
 *   term, lecture number, contents leaders, grading shares).
 * - GD6 — Blank word class. A cloze blank on a verb form, an adverb, an adjective or a function word (English by the
 *   tagger in its sentence; Korean by endings and by a blank in an adverb's place).
 * - GD7 — Half a term. A blank that is one word of a term the material keeps saying as two (`learning` of `learning
 *   rate`).
 * - GD8 — Fragments. A cloze sentence that opens by pointing back (`It`, `This`, `이때`) or keeps too few words.
 * - GD9 — Not in the source. The cloze sentence with its key put back is not in the item's passages.
 * - GD10 — Code and formulas. A blank in a sentence with code or a formula.
 * - GD11 — Choices. Not four, repeated, or a key that is not one of them.
 * - GD12 — Choice shape. A noun blank offering a verb or an adjective among its choices.
 * - GD13 — Particles. A particle that does not fit how a Korean reader says the English word before it (`heuristic이`,
 *   `Outline을`, `Summary를`, `model로`); the lecture's own `withParticle` writes them so.
 * - GD14 — Sound items pass. A cloze item on a key noun phrase with sibling terms as distractors passes whole.
 */
import { describe, expect, it } from 'vitest';
import {
  checkAnswer,
  checkChoices,
  checkExamItem,
  checkLectureQuestion,
  checkQuizItem,
  checkSubconcepts,
  duplicateRefusals,
  type ChoiceItem,
  type GuardRule,
  type Refusal,
} from '../src/guard/index.js';
import { englishFinalSound, withParticle } from '../src/text/index.js';

/**
 * GD1–GD14 (test/SPEC.md "Item guard"): a table of bad items per rule, each refused for that rule, and good
 * look-alikes that must pass. The passages are an AI course deck's and a Korean statistics handout's sentences.
 */

const AI = [
  'A search problem consists of a state space, a start state, a set of actions, a transition model, a goal test and a path cost.',
  'A* search is an informed search algorithm that expands the node with the lowest value of f(n).',
  'A* keeps the frontier in a priority queue ordered by f.',
  'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.',
  'An admissible heuristic never overestimates the true cost of reaching the goal.',
  'A consistent heuristic satisfies h(n) ≤ c(n, a, n′) + h(n′) for every action a.',
  'Hill climbing can get stuck in a local maximum, so random restarts are often used.',
  'A genetic algorithm is a local search method inspired by natural selection.',
  'It keeps a population of candidate solutions, called individuals.',
  'Mutation randomly changes a small part of an individual, which keeps diversity in the population.',
  'The learning rate α controls the size of each step.',
  'If the learning rate is too large, the updates overshoot the maximum.',
].join(' ');
const KO = [
  '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.',
  '복권을 많이 살수록 한 장에 평균 600원씩 잃게 됩니다.',
  '동전의 앞면이 나올 확률이 꼭 절반이 아니어도 됩니다. 절반이 아니어도 됩니다.',
].join(' ');
const context = { passages: [AI, KO], titles: ['CS 3600: Introduction to Artificial Intelligence', 'Heuristics'] };

const rules = (refusals: readonly Refusal[]): GuardRule[] => [...new Set(refusals.map((refusal) => refusal.rule))];

function cloze(sentence: string, key: string, distractors: readonly string[] = ['population', 'frontier', 'mutation']): ChoiceItem {
  return { question: `다음 빈칸에 들어갈 말로 알맞은 것은? 「${sentence}」`, choices: [key, ...distractors], answer: 0, explanation: '' };
}

describe('GD1 placeholders are refused', () => {
  it.each([
    ['핵심 개념', 'a stock non-answer'],
    ['', 'an empty answer'],
    ['CS 3600: Introduction to Artificial Intelligence', 'the deck title'],
    ['Heuristics', 'the chapter title'],
  ])('model answer %j (%s)', (answer) => {
    expect(rules(checkAnswer('heuristic이 무엇인지 설명해 보세요.', answer, context))).toContain('placeholder');
  });

  it('a sub-concept explained by a template that fits any concept', () => {
    const [refusals] = checkSubconcepts([{ concept: 'heuristic의 예시', question: 'heuristic이 쓰이는 예를 들어 볼까요?', explanation: 'heuristic이 실제로 쓰이는 간단한 예를 떠올리면 정의가 훨씬 또렷해집니다.' }], context);
    expect(rules(refusals ?? [])).toContain('placeholder');
  });

  it('look-alikes pass: an answer that mentions a key concept, a title word inside a real answer', () => {
    expect(checkAnswer('heuristic이 무엇인지 설명해 보세요.', 'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.', context)).toEqual([]);
    expect(checkAnswer('핵심 개념어는 어떻게 찾나요?', '핵심 개념어는 자료가 정의하는 문장에서 찾습니다.', context)).toEqual([]);
  });
});

describe('GD2 an answer that restates its question or quotes its passage is refused', () => {
  it('the question as its own model answer', () => {
    const question = 'A* in Code가 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.';
    expect(rules(checkAnswer(question, question, context))).toEqual(['restated-question']);
    expect(rules(checkAnswer('Local Search에 대해 자신의 말로 설명해 보세요.', 'Local Search', context))).toEqual(['restated-question']);
  });

  it('the passage the question quotes as the model answer of a descriptive item', () => {
    const sentence = 'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.';
    const item = { type: 'Descriptive' as const, question: `다음 문장이 무슨 뜻인지 설명하시오. 「${sentence}」`, modelAnswer: sentence, keywords: ['function', 'cost'] };
    expect(rules(checkExamItem(item, context))).toContain('quoted-passage');
  });

  it('look-alikes pass: a definition that repeats the concept, a descriptive item answered from the material', () => {
    expect(checkAnswer('heuristic이 무엇인지 설명해 보세요.', 'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.', context)).toEqual([]);
    const item = { type: 'Descriptive' as const, question: 'heuristic이 무엇인지 자료의 내용을 바탕으로 설명하시오.', modelAnswer: 'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.', keywords: ['function', 'cost'] };
    expect(checkExamItem(item, context)).toEqual([]);
  });
});

describe('GD3 questions about the medium are refused', () => {
  it.each(['lecture에 대해 자신의 말로 설명해 보세요.', 'Outline이 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.', '강의에 대해 자신의 말로 설명해 보세요.', '방금 살펴본 내용에서 introduction이 어떤 역할을 하는지 설명해 보세요.', '핵심 개념이 무엇인지 자료의 내용을 바탕으로 설명하시오.'])(
    '%s',
    (question) => {
      expect(rules(checkLectureQuestion(question)).some((rule) => rule === 'medium-question' || rule === 'placeholder')).toBe(true);
    },
  );

  it('look-alikes pass: concepts whose names hold a medium word or sit after the same frames', () => {
    for (const question of ['A* Search에 대해 자신의 말로 설명해 보세요.', 'Local Search가 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.', '강의 평가 척도에 대해 자신의 말로 설명해 보세요.', '방금 살펴본 내용에서 heuristic이 어떤 역할을 하는지 설명해 보세요.']) {
      expect(checkLectureQuestion(question), question).toEqual([]);
    }
  });

  it('a raised hand is never offered the medium, a word met only in code, or the same concept twice', () => {
    const chapter = { passages: ['A heuristic is a function that estimates cost. Good heuristics are admissible.\ndef a_star(start, goal, h):\nfor child in expand(node):'] };
    const refused = checkChoices(['heuristic', 'Heuristics', 'lecture', 'child'], chapter).map(rules);
    expect(refused).toEqual([[], ['duplicate'], ['medium-question', 'cloze-not-in-source'], ['cloze-not-in-source']]);
  });
});

describe('GD4 repeats within a set are refused', () => {
  it('the same question twice, and two blanks of one sentence', () => {
    const first = cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'heuristic');
    const again = duplicateRefusals([
      { question: first.question, key: 'heuristic' },
      { question: first.question, key: 'heuristic' },
      { question: '다음 빈칸에 들어갈 말로 알맞은 것은? 「A heuristic is a ____ that estimates the cost of the cheapest path from a state to a goal.」', key: 'function' },
    ]);
    expect(again.map(rules)).toEqual([[], ['duplicate'], ['duplicate']]);
  });

  it('look-alike passes: the same key asked from two different sentences', () => {
    const items = [
      { question: cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'heuristic').question, key: 'heuristic' },
      { question: cloze('With an admissible heuristic, A* tree search is optimal. The ____ never overestimates.', 'heuristic').question, key: 'heuristic' },
    ];
    expect(duplicateRefusals(items).map(rules)).toEqual([[], []]);
  });
});

describe('GD5 items from a cover, agenda or contents page are refused', () => {
  it('a question quoting the cover slide, an answer that is the agenda', () => {
    const cover = '다음 문장의 빈칸에 공통으로 들어갈 용어는 무엇인가? 「CS 3600: Introduction to Artificial Intelligence Lecture 3: Search and Optimization Prof. Alan Reyes School of Computing, Spring 2025 +1 +100」';
    expect(rules(checkExamItem({ type: 'Short_Keyword', question: cover, modelAnswer: '핵심 개념', keywords: ['핵심 개념'] }, context))).toEqual(
      expect.arrayContaining(['front-matter', 'placeholder', 'cloze-fragment']),
    );
    expect(rules(checkAnswer('search에 대해 설명해 보세요.', 'Outline • Search problems • A* search and heuristics • Local search', context))).toContain('front-matter');
    expect(rules(checkAnswer('물리학 개요를 설명해 보세요.', '2024년 1학기 강의 노트 3주차 물리학과 김민수 교수', context))).toContain('front-matter');
  });

  it('look-alikes pass: content that names a year, a school of thought or a professor’s method', () => {
    expect(checkAnswer('A* search가 무엇인지 설명해 보세요.', 'A* search is an informed search algorithm that expands the node with the lowest value of f(n).', context)).toEqual([]);
    expect(checkAnswer('교수법이 무엇인지 설명해 보세요.', '교수법은 가르치는 방법을 체계적으로 정리한 것입니다.', context)).toEqual([]);
  });
});

describe('GD6 a cloze blank on a function word, a verb form, an adverb or an adjective is refused', () => {
  it.each([
    ['Hill climbing can get ____ in a local maximum, so random restarts are often used.', 'stuck'],
    ['A* search is an informed search algorithm that ____ the node with the lowest value of f(n).', 'expands'],
    ['A* search is an informed search algorithm that expands the node with the ____ value of f(n).', 'lowest'],
    ['Hill climbing can get stuck in a local maximum, so random restarts are ____ used.', 'often'],
    ['Mutation ____ changes a small part of an individual, which keeps diversity in the population.', 'randomly'],
  ])('%s → %s', (sentence, key) => {
    expect(rules(checkQuizItem(cloze(sentence, key), context))).toContain('cloze-blank-word');
  });

  it('a Korean blank in an adverb’s place (no particle, a number next)', () => {
    const item = cloze('복권을 많이 살수록 한 장에 ____ 600원씩 잃게 됩니다.', '평균', ['분산', '표준편차', '기댓값']);
    expect(rules(checkQuizItem(item, context))).toContain('cloze-blank-word');
  });

  it('look-alikes pass: a noun blank, a sentence-initial noun the tagger calls an adjective, a Korean noun with its particle', () => {
    expect(checkQuizItem(cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'heuristic'), context)).toEqual([]);
    expect(checkQuizItem(cloze('An admissible heuristic never overestimates the true cost of reaching the ____.', 'goal'), context)).toEqual([]);
    expect(checkQuizItem(cloze('____(산술평균)은(는) 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.', '평균', ['분산', '표준편차', '기댓값']), context)).toEqual([]);
  });
});

describe('GD7 half of a term as a blank is refused', () => {
  it('`learning` of `learning rate`', () => {
    expect(rules(checkQuizItem(cloze('The ____ rate α controls the size of each step.', 'learning'), context))).toContain('cloze-partial-term');
  });

  it('look-alike passes: the whole term', () => {
    expect(checkQuizItem(cloze('The ____ α controls the size of each step.', 'learning rate', ['population', 'frontier', 'mutation']), context)).toEqual([]);
  });
});

describe('GD8 a cloze sentence that needs its lost context is refused', () => {
  it.each([
    ['It keeps a population of candidate solutions, called ____.', 'individuals'],
    ['____이(가) 아니어도 됩니다.', '절반'],
  ])('%s', (sentence, key) => {
    expect(rules(checkQuizItem(cloze(sentence, key, ['population', 'frontier', 'mutation']), context)).some((rule) => rule === 'cloze-fragment' || rule === 'cloze-blank-word')).toBe(true);
  });

  it('look-alike passes: `which` inside a sentence that names its subject', () => {
    expect(checkQuizItem(cloze('Mutation randomly changes a small part of an individual, which keeps ____ in the population.', 'diversity'), context)).toEqual([]);
  });
});

describe('GD9 a cloze sentence (with its key) that is not in the passages is refused', () => {
  it('a changed word, or a key the sentence never had', () => {
    expect(rules(checkQuizItem(cloze('A heuristic is a ____ that estimates the cost of the most expensive path from a state to a goal.', 'function'), context))).toContain('cloze-not-in-source');
    expect(rules(checkQuizItem(cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'mutation', ['population', 'frontier', 'heuristic']), context))).toContain('cloze-not-in-source');
  });

  it('look-alike passes: other spacing and letter case', () => {
    expect(checkQuizItem(cloze('a   ____ is a function that estimates the cost of the cheapest path from a state to a goal', 'Heuristic'), context)).toEqual([]);
  });
});

describe('GD10 a blank inside code or a formula is refused', () => {
  it('a formula in the sentence', () => {
    expect(rules(checkQuizItem(cloze('A consistent heuristic satisfies h(n) ≤ c(n, a, n′) + h(n′) for every ____ a.', 'action'), context))).toContain('cloze-in-code');
  });

  it('look-alike passes: prose that names a data structure', () => {
    expect(checkQuizItem(cloze('A* keeps the ____ in a priority queue ordered by f.', 'frontier', ['population', 'heuristic', 'mutation']), context)).toEqual([]);
  });
});

describe('GD11 repeated choices or a key that is not a choice are refused', () => {
  it.each([
    [{ question: 'heuristic의 역할은?', choices: ['추정', '추정', '탐색', '정렬'], answer: 0 }],
    [{ question: 'heuristic의 역할은?', choices: ['추정', '탐색', '정렬', '저장'], answer: 4 }],
    [{ question: 'heuristic의 역할은?', choices: ['추정', '탐색', '정렬'], answer: 0 }],
  ])('%j', (item) => {
    expect(rules(checkQuizItem(item, context))).toContain('choices');
  });

  it('look-alike passes: four choices that differ by a letter', () => {
    expect(checkQuizItem({ question: '다음 중 A*가 노드를 고르는 기준은?', choices: ['f(n)', 'g(n)', 'h(n)', 'c(n)'], answer: 0 }, context)).toEqual([]);
  });
});

describe('GD12 choices that do not fit a noun blank are refused', () => {
  it('a verb and an adjective among noun choices', () => {
    expect(rules(checkQuizItem(cloze('A ____ is a function that estimates the cost of the cheapest path from a state to a goal.', 'heuristic', ['follows', 'steepest', 'frontier']), context))).toContain('cloze-choice-shape');
  });
});

describe('GD13 a Korean particle that does not fit the English word before it is refused', () => {
  it.each(['heuristic가 무엇인지 설명해 보세요.', '먼저 Outline를 살펴보겠습니다.', 'genetic를 설명해 보세요.', 'Summary을 살펴보겠습니다.'])('%s', (text) => {
    expect(rules(checkLectureQuestion(text))).toContain('particle');
  });

  it('look-alikes pass: particles chosen by how the word is read', () => {
    for (const text of ['heuristic이 무엇인지 설명해 보세요.', 'Outline을 살펴보겠습니다.', 'Summary를 살펴보겠습니다.', 'search를 설명해 보세요.', 'model로 바꿉니다.', 'IQR은 무엇인가요?', 'A*는 최적입니다.', 'Gradient Ascent를 살펴보겠습니다.']) {
      expect(checkLectureQuestion(text), text).toEqual([]);
    }
  });

  it('the lecture writes them so: withParticle reads English words aloud', () => {
    const said = ['heuristic', 'Outline', 'Summary', 'search', 'genetic', 'simple', 'algorithm', 'Gradient Ascent', 'mutation', 'step', 'type', 'IQR', 'BFS', 'A*'].map((word) => withParticle(word, '을/를'));
    expect(said).toEqual(['heuristic을', 'Outline을', 'Summary를', 'search를', 'genetic을', 'simple을', 'algorithm을', 'Gradient Ascent를', 'mutation을', 'step을', 'type을', 'IQR을', 'BFS를', 'A*를']);
    expect(['model', 'goal', 'Python', 'data'].map((word) => withParticle(word, '으로/로'))).toEqual(['model로', 'goal로', 'Python으로', 'data로']);
    expect(englishFinalSound('variable')).toBe('rieul');
  });
});

describe('GD14 a sound item passes whole', () => {
  it('a cloze item on a key noun phrase with sibling terms as distractors', () => {
    const item = cloze('A genetic algorithm is a ____ inspired by natural selection.', 'local search method', ['priority queue', 'transition model', 'learning rate']);
    expect(checkQuizItem(item, context)).toEqual([]);
  });
});
