/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GD18 — Nothing to ask, said once. The offline lecture asks only about a concept its own sentences answer and the
 *   guard accepts …
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NO_QUESTION_LINE, questionConcept, writeOfflineLecture } from '../src/lecture/offline/offline-lecture.js';
import { offlineSubconcepts } from '../src/lecture/offline/offline-subconcepts.js';
import { parseLecture } from '../src/lecture/marker-parser.js';

const CHAPTER = `2장 기댓값과 분산
확률변수 X의 기댓값 E[X]는 X가 가질 수 있는 각 값에 그 값이 나올 확률을 곱한 뒤 모두 더한 값이다. 기댓값은
확률분포의 무게중심으로 해석할 수 있으며, 같은 실험을 여러 번 반복했을 때 얻는 평균적인 결과를 나타낸다.
E[X] = Σ x · p(x)

분산은 확률변수가 기댓값에서 얼마나 흩어져 있는지를 나타내는 값이다. 분산은 편차의 제곱의 기댓값으로 정의한다.
Var(X) = E[(X - E[X])^2] = E[X^2] - (E[X])^2
표준편차는 분산의 양의 제곱근이며 원래 자료와 같은 단위를 가진다. 이를 standard devi-
ation이라고 부른다.
- 12 -
• 기댓값은 선형성을 가진다: E[aX + b] = aE[X] + b
• 분산은 상수배에 대해 제곱배가 된다

대수의 법칙에 따르면 표본의 크기가 커질수록 표본평균은 모집단의 기댓값에 가까워진다. 이 성질은 통계적 추정의
기초가 되며, 실제로 여러 번 시행한 결과의 평균을 이용해 기댓값을 추정할 수 있게 해 준다. 중심극한정리는 표본평균의
분포가 정규분포에 가까워진다는 사실을 알려 준다.`;

const questionsOf = (lecture: string): string[] =>
  parseLecture(lecture).flatMap((segment) => (segment.type === 'question' ? [segment.text] : []));

describe('writeOfflineLecture', () => {
  const lecture = writeOfflineLecture({ title: '2장 기댓값과 분산', text: CHAPTER });

  it('writes a heading, joined paragraphs, verbatim formulas and list items', () => {
    expect(lecture.startsWith('# 2장 기댓값과 분산\n\n')).toBe(true);
    expect(lecture).toContain('기댓값은 확률분포의 무게중심으로 해석할 수 있으며');
    expect(lecture).toContain('\n\nE[X] = Σ x · p(x)\n\n');
    expect(lecture).toContain('\n\nVar(X) = E[(X - E[X])^2] = E[X^2] - (E[X])^2\n\n');
    expect(lecture).toContain('standard deviation이라고');
    expect(lecture).toContain('- 기댓값은 선형성을 가진다: E[aX + b] = aE[X] + b\n- 분산은 상수배에 대해 제곱배가 된다');
    expect(lecture).not.toContain('- 12 -');
    expect(lecture).toContain('먼저 기댓값을 살펴보겠습니다.');
    expect(lecture).toContain('이어서 분산을 살펴보겠습니다.');
  });

  it('asks 1–3 questions built on key terms, each after the paragraph it comes from', () => {
    const questions = questionsOf(lecture);
    expect(questions).toEqual([
      '기댓값에 대해 자신의 말로 설명해 보세요.',
      '표본평균이 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.',
    ]);
    const first = lecture.indexOf('[질문]');
    expect(lecture.slice(0, first)).toContain('E[X] = Σ x · p(x)');
    expect(lecture.slice(0, first)).not.toContain('분산은');
    const second = lecture.indexOf('[질문]', first + 1);
    expect(lecture.slice(first, second)).toContain('표본평균은 모집단의 기댓값에 가까워진다');
  });

  it('is deterministic', () => {
    expect(writeOfflineLecture({ title: '2장 기댓값과 분산', text: CHAPTER })).toBe(lecture);
  });

  it('scales the number of questions with the chapter length, up to three', () => {
    const short = writeOfflineLecture({ title: '평균', text: '산술평균은 모든 값을 더해 개수로 나눈 값이다.' });
    expect(questionsOf(short)).toHaveLength(1);
    const long = writeOfflineLecture({ title: '통계 총정리', text: `${CHAPTER}\n\n${CHAPTER}\n\n${CHAPTER}` });
    expect(questionsOf(long)).toHaveLength(3);
    expect(new Set(questionsOf(long)).size).toBe(3);
  });

  it('drops running page headers and footers of the PDF text, keeps the rest', () => {
    const paragraphs = CHAPTER.split('\n\n');
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    const pages = paragraphs.map((paragraph, index) => `${paragraph}\n기초 통계 · ${index + 1}`);
    const output = writeOfflineLecture({ title: '평균', text: pages.join('\n\n') });
    expect(output).not.toMatch(/기초 통계 ·/u);
    expect(output).toEqual(writeOfflineLecture({ title: '평균', text: CHAPTER }));
  });

  it('GD18 never comes out empty, and a chapter with nothing to ask says so in one line instead of asking about its title', () => {
    for (const input of [{ title: '부록', text: '' }, { title: '', text: ' \n 3 \n' }]) {
      const output = writeOfflineLecture(input);
      expect(output.startsWith('# ')).toBe(true);
      expect(output.split('\n').filter((line) => line.trim().length > 0).length).toBeGreaterThanOrEqual(3);
      expect(questionsOf(output)).toEqual([]);
      expect(output).toContain(NO_QUESTION_LINE);
    }
  });

  it('neutralises marker-like text from the PDF so only our questions are asked', () => {
    const output = writeOfflineLecture({ title: '[질문] 제목', text: '본문에 [질문] 가짜 [\\질문] 표식이 있다.' });
    expect(questionsOf(output)).toHaveLength(1);
    expect(output).toContain('(질문) 가짜 (\\질문)');
  });

  it('GD18 always yields a parseable lecture with at most 3 questions, and says so when it asks none', () => {
    const word = fc.constantFrom('기댓값은', '분산을', '확률', '표본평균', 'E[X]', '=', '\n', '\n\n', '. ', '• ', '3', ' ');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 120 }), fc.string({ maxLength: 10 }), (words, title) => {
        const output = writeOfflineLecture({ title, text: words.join(' ') });
        const count = questionsOf(output).length;
        return output.startsWith('# ') && count <= 3 && (count >= 1 || output.includes(NO_QUESTION_LINE));
      }),
      { numRuns: 200 },
    );
  });
});

describe('offlineSubconcepts', () => {
  const passage = writeOfflineLecture({ title: '2장 기댓값과 분산', text: CHAPTER });

  it('splits a concept into 2–3 ordered subconcepts the passage defines, each explained by its definition', () => {
    const parts = offlineSubconcepts({ question: '대수의 법칙이 무엇인지 설명해 보세요.', passage });
    expect(parts.map((part) => part.concept)).toEqual(['기댓값', '분산', '표준편차']);
    expect(parts[1]).toEqual({
      concept: '분산',
      question: '분산은 앞의 개념과 어떻게 연결되는지 설명해 볼까요?',
      explanation: '분산은 확률변수가 기댓값에서 얼마나 흩어져 있는지를 나타내는 값이다. 분산은 편차의 제곱의 기댓값으로 정의한다.',
    });
    for (const part of parts) {
      expect(part.question).toContain(part.concept);
      expect(part.explanation).toContain(part.concept);
    }
  });

  it('GD1 gives a two-step dialogue when the passage has too little, never a template that fits any concept', () => {
    const parts = offlineSubconcepts({ question: '대수의 법칙', passage: '' });
    expect(parts.map((part) => part.concept)).toEqual(['대수의 법칙의 정의', '대수의 법칙의 뜻']);
    for (const part of parts) expect(part.explanation).not.toMatch(/간단한 예를 떠올리면 정의가 훨씬 또렷해집니다/u);
    const lecture = '먼저 대수의 법칙을 살펴보겠습니다.\n\n대수의 법칙은 시행을 많이 반복하면 표본평균이 기댓값에 가까워진다는 법칙입니다. 대수의 법칙 덕분에 보험료를 정할 수 있습니다.';
    const rich = offlineSubconcepts({ question: '대수의 법칙에 대해 자신의 말로 설명해 보세요.', passage: lecture });
    expect(rich.map((part) => part.concept)).toEqual(['대수의 법칙의 정의', '대수의 법칙의 핵심 성질']);
    expect(rich[1]?.explanation).toBe('대수의 법칙 덕분에 보험료를 정할 수 있습니다.');
  });

  it('finds the concept a question asks about', () => {
    expect(questionConcept('[질문] 대수의 법칙이 무엇인지 설명해 보세요. [\\질문]')).toBe('대수의 법칙');
    expect(questionConcept('기댓값에 대해 자신의 말로 설명해 보세요.')).toBe('기댓값');
    expect(questionConcept('방금 살펴본 내용에서 분산이 어떤 역할을 하는지 설명해 보세요.')).toBe('분산');
    expect(questionConcept('E[X]가 무엇인가요?')).toBe('E[X]');
  });
});
