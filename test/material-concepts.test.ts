/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SC1 — Concepts. A concept is a noun phrase the material defines (`평균(산술평균)은 …`, `…을 표본평균이라고 합니다`, `대수의 법칙: …`),
 *   names in brackets (`집단 전체(모집단)`), puts in bold or in a heading that it mentions again …
 * - SC2 — Sub-concepts. The offline tutor's sub-concepts of a question are such concepts of the chapter's lecture
 *   (those named in one sentence with the question's concept first) …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConceptPhrase, materialConcepts } from '../src/lecture/material-concepts.js';
import { offlineSubconcepts } from '../src/lecture/offline/offline-subconcepts.js';
import { parseLecture } from '../src/lecture/marker-parser.js';
import { writeOfflineLecture } from '../src/lecture/offline/offline-lecture.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Sub-concepts and chapter concepts are concepts the material defines or emphasises (test/SPEC.md SC1–SC2). */

/** Whether `phrase` is written in `text` (any spacing between its words). */
const inText = (phrase: string, text: string): boolean =>
  new RegExp(phrase.split(/\s+/u).map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('\\s*'), 'iu').test(text);

describe('SC1: a concept is a noun phrase, never a number, year, variable, function word or verb form', () => {
  it.each(['평균', '표본평균', '대수의 법칙', '도박사의 오류', '중심극한정리', 'standard deviation'])('accepts %s', (phrase) => {
    expect(isConceptPhrase(phrase)).toBe(true);
  });

  it.each([
    '2024년', '1000원짜리', '3.5', '70', 'x₁', 'X₁', 'Xₙ', 'μ', 'σ²', 'x̄', 'E[X]', 'X의 기댓값', 'n',
    '그리고', '이것', '자료', '내용', '경우', '다음', '예', 'the', 'this',
    '가까워집니다', '더하는', '나타낸다', '커질수록', '같다', '평균을', '값에서', '관심 있', '사람이 받',
    '기댓값과 평균 기댓값', '두 확률변수의 합', '주의할 점', '',
  ])('rejects %s', (phrase) => {
    expect(isConceptPhrase(phrase)).toBe(false);
  });

  it('finds what a hostile page defines and nothing of its cover, years, variables or worked examples', () => {
    const text = [
      '일반물리학',
      '2024년 1학기',
      '담당교수 홍길동',
      '이 자료는 세 개의 장으로 이루어져 있습니다.',
      '1. 운동의 기술',
      '물체의 위치 x₁, x₂를 시간 t₁, t₂에 잰다.',
      '속도는 위치가 시간에 따라 변하는 빠르기이다.',
      '예: 2024년에 10 m를 2 s에 가면 속도는 5 m/s이다.',
      '위치의 변화량을 변위라고 한다.',
      '가속도(acceleration)는 속도가 변하는 빠르기이다. **관성**을 기억하자.',
    ].join('\n');
    const concepts = materialConcepts(text).map((entry) => entry.concept);
    expect(concepts).toEqual(expect.arrayContaining(['속도', '변위', '가속도', '관성']));
    for (const concept of concepts) {
      expect(isConceptPhrase(concept)).toBe(true);
      expect(inText(concept, text)).toBe(true);
      expect(concept).not.toMatch(/일반물리학|2024|학기|홍길동|자료|x₁|t₁/u);
    }
  });
});

describe('SC2: the offline sub-concepts of the sample material (offline lecture, every question)', () => {
  let app: TestApp;
  const chapters: { lecture: string; questions: string[] }[] = [];

  beforeAll(async () => {
    await samplePdfBytes();
    app = await startTestApp();
    const material = await loadSample(app);
    for (const chapter of material.chapters) {
      const raw = writeOfflineLecture({ title: chapter.title, text: await app.materials.chapterText(material.id, chapter.index) });
      const segments = parseLecture(raw);
      chapters.push({
        lecture: segments.flatMap((segment) => (segment.type === 'text' ? [segment.text] : [])).join(''),
        questions: segments.flatMap((segment) => (segment.type === 'question' ? [segment.text] : [])),
      });
    }
  });
  afterAll(() => app.stop());

  it('are concepts the lecture defines, explained by a sentence that names them, never a worked example', () => {
    let checked = 0;
    for (const { lecture, questions } of chapters) {
      for (const question of questions) {
        for (const part of offlineSubconcepts({ question, passage: lecture })) {
          checked += 1;
          expect(part.concept).not.toMatch(/\d|[₀-₉]|자료|기초 통계|^x|μ/u);
          if (/의 (?:정의|예시|핵심 성질|뜻)$/u.test(part.concept)) continue;
          expect(isConceptPhrase(part.concept)).toBe(true);
          expect(inText(part.concept, lecture)).toBe(true);
          expect(part.explanation).toContain(part.concept);
          expect(part.explanation).not.toMatch(/^(?:예|예를 들어)|이 자료는|\d+장 /u);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('splits 평균 of the first chapter into 이상값, 모평균 and 표본평균', () => {
    const first = chapters[0];
    const question = first?.questions.find((text) => /^평균/u.test(text)) ?? '평균에 대해 자신의 말로 설명해 보세요.';
    const parts = offlineSubconcepts({ question, passage: first?.lecture ?? '' });
    expect(parts.map((part) => part.concept)).toEqual(['이상값', '모평균', '표본평균']);
    expect(parts[2]?.explanation).toBe('모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.');
  });
});
