import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createMarkerParser, parseLecture } from '../src/lecture/marker-parser.js';
import type { LectureSegment } from '../src/lecture/marker-parser.js';

type Normal = { type: 'text' | 'question'; text: string };

/** Drops offsets and empty text, merges adjacent text: the form every chunking must agree on. */
function normalise(segments: readonly LectureSegment[]): Normal[] {
  const out: Normal[] = [];
  for (const segment of segments) {
    const last = out[out.length - 1];
    if (segment.type === 'text') {
      if (segment.text.length === 0) continue;
      if (last?.type === 'text') last.text += segment.text;
      else out.push({ type: 'text', text: segment.text });
    } else {
      out.push({ type: 'question', text: segment.text });
    }
  }
  return out;
}

const MARKER = /\[[\\/]?질문\]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function parseChunks(chunks: readonly string[]): LectureSegment[] {
  const parser = createMarkerParser();
  const out: LectureSegment[] = [];
  for (const chunk of chunks) out.push(...parser.push(chunk));
  out.push(...parser.end());
  return out;
}

function chunkAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

const LECTURE = `# 2장 기댓값과 분산

먼저 기댓값을 살펴보겠습니다. 확률변수 X의 기댓값 E[X]는 각 값에 확률을 곱해 모두 더한 값입니다.
[질문] 기댓값 E[X]를 자신의 말로 설명해 보세요. [\\질문]
기댓값은 분포의 무게중심으로 볼 수 있어요 [참고: 교재 3쪽]. 배열 a[i]와 [질 문]처럼 생긴 글자도 그대로 둡니다.
[질문]
  분산 Var(X)는 무엇을 재는 값일까요?
[/질문]
마지막으로 대수의 법칙을 봅시다 😀👍🏽. 표본평균은 기댓값에 가까워집니다.
[질문]   [\\질문]
[질문] 대수의 법칙이 말하는 것은 무엇인가요? [\\질문]끝.`;

const EXPECTED: Normal[] = [
  {
    type: 'text',
    text: `# 2장 기댓값과 분산

먼저 기댓값을 살펴보겠습니다. 확률변수 X의 기댓값 E[X]는 각 값에 확률을 곱해 모두 더한 값입니다.
`,
  },
  { type: 'question', text: '기댓값 E[X]를 자신의 말로 설명해 보세요.' },
  {
    type: 'text',
    text: `
기댓값은 분포의 무게중심으로 볼 수 있어요 [참고: 교재 3쪽]. 배열 a[i]와 [질 문]처럼 생긴 글자도 그대로 둡니다.
`,
  },
  { type: 'question', text: '분산 Var(X)는 무엇을 재는 값일까요?' },
  { type: 'text', text: `\n마지막으로 대수의 법칙을 봅시다 😀👍🏽. 표본평균은 기댓값에 가까워집니다.\n\n` },
  { type: 'question', text: '대수의 법칙이 말하는 것은 무엇인가요?' },
  { type: 'text', text: '끝.' },
];

describe('marker parser: exact cases', () => {
  it('strips both closer spellings and trims question text', () => {
    expect(normalise(parseLecture('앞 [질문] 하나? [\\질문] 중간 [질문]둘?[/질문] 뒤'))).toEqual([
      { type: 'text', text: '앞 ' },
      { type: 'question', text: '하나?' },
      { type: 'text', text: ' 중간 ' },
      { type: 'question', text: '둘?' },
      { type: 'text', text: ' 뒤' },
    ]);
  });

  it('parses the realistic lecture as expected', () => {
    expect(normalise(parseLecture(LECTURE))).toEqual(EXPECTED);
  });

  it('holds back a split opener and never emits any part of it', () => {
    const parser = createMarkerParser();
    expect(parser.push('설명입니다. [질')).toEqual([{ type: 'text', text: '설명입니다. ', start: 0, end: 7 }]);
    expect(parser.push('문')).toEqual([]);
    expect(parser.inQuestion).toBe(false);
    expect(parser.push('] 왜')).toEqual([]);
    expect(parser.inQuestion).toBe(true);
    expect(parser.push('일까요? [\\')).toEqual([]);
    expect(parser.push('질문]다음')).toEqual([
      { type: 'question', text: '왜일까요?', start: 7, end: 23 },
      { type: 'text', text: '다음', start: 23, end: 25 },
    ]);
    expect(parser.end()).toEqual([]);
  });

  it('releases a lone bracket as soon as it cannot start a marker', () => {
    const parser = createMarkerParser();
    expect(parser.push('배열 a[')).toEqual([{ type: 'text', text: '배열 a', start: 0, end: 4 }]);
    expect(parser.push('i] 입니다')).toEqual([{ type: 'text', text: '[i] 입니다', start: 4, end: 11 }]);
    expect(parser.push(' [[')).toEqual([{ type: 'text', text: ' [', start: 11, end: 13 }]);
    expect(parser.push('질문]x[\\질문]')).toEqual([{ type: 'question', text: 'x', start: 13, end: 23 }]);
  });

  it('holds back only the minimal marker prefix', () => {
    const parser = createMarkerParser();
    expect(parser.push('a[/')).toEqual([{ type: 'text', text: 'a', start: 0, end: 1 }]);
    expect(parser.push('b')).toEqual([{ type: 'text', text: '[/b', start: 1, end: 4 }]);
    expect(parser.push('[질x')).toEqual([{ type: 'text', text: '[질x', start: 4, end: 7 }]);
  });

  it('releases a partial marker at the end as plain text', () => {
    expect(normalise(parseLecture('끝 [질'))).toEqual([{ type: 'text', text: '끝 [질' }]);
    expect(normalise(parseLecture('끝 [\\질문'))).toEqual([{ type: 'text', text: '끝 [\\질문' }]);
  });

  it('drops a stray closer outside a question (it is a marker, never lecture text)', () => {
    expect(normalise(parseLecture('가 [\\질문]나 [/질문]다'))).toEqual([{ type: 'text', text: '가 나 다' }]);
  });

  it('treats an opener inside a question as the start of the next question', () => {
    expect(normalise(parseLecture('[질문] 바깥 [질문] 안쪽 [\\질문] 나머지 [\\질문] 끝'))).toEqual([
      { type: 'question', text: '바깥' },
      { type: 'question', text: '안쪽' },
      { type: 'text', text: ' 나머지  끝' },
    ]);
  });

  it('still asks an unterminated question at end(), and drops an empty one', () => {
    expect(normalise(parseLecture('본문 [질문] 마지막 질문인가요?  '))).toEqual([
      { type: 'text', text: '본문 ' },
      { type: 'question', text: '마지막 질문인가요?' },
    ]);
    expect(normalise(parseLecture('본문 [질문]   \n '))).toEqual([{ type: 'text', text: '본문 ' }]);
    expect(normalise(parseLecture('[질문][\\질문][질문] \t [/질문]'))).toEqual([]);
  });

  it('never splits a surrogate pair across segments', () => {
    const parser = createMarkerParser();
    const emoji = '😀';
    const first = parser.push(`웃음 ${emoji[0] ?? ''}`);
    expect(first).toEqual([{ type: 'text', text: '웃음 ', start: 0, end: 3 }]);
    expect(parser.push(`${emoji[1] ?? ''}!`)).toEqual([{ type: 'text', text: `${emoji}!`, start: 3, end: 6 }]);
  });

  it('reports source offsets: text segments are exact slices and questions span their markers', () => {
    const segments = parseLecture(LECTURE);
    for (const segment of segments) {
      const source = LECTURE.slice(segment.start, segment.end);
      if (segment.type === 'text') expect(source).toBe(segment.text);
      else expect(source.startsWith('[질문]')).toBe(true);
    }
    const resumed = createMarkerParser({ offset: 100 });
    expect(resumed.push('ab')).toEqual([{ type: 'text', text: 'ab', start: 100, end: 102 }]);
  });

  it('is reusable after end()', () => {
    const parser = createMarkerParser();
    parser.push('[질문] 열린 질문');
    expect(normalise(parser.end())).toEqual([{ type: 'question', text: '열린 질문' }]);
    expect(parser.inQuestion).toBe(false);
    expect(normalise([...parser.push('새 글'), ...parser.end()])).toEqual([{ type: 'text', text: '새 글' }]);
  });
});

describe('marker parser: chunking independence', () => {
  it('gives the same normalised output for 10,000 random chunkings of a Korean lecture', () => {
    const reference = JSON.stringify(normalise(parseLecture(LECTURE)));
    expect(JSON.parse(reference)).toEqual(EXPECTED);
    // Cuts are biased towards the markers so most runs split one of them somewhere.
    const nearMarker = [...LECTURE.matchAll(new RegExp(MARKER.source, 'gu'))].flatMap((match) =>
      Array.from({ length: match[0].length + 1 }, (_, offset) => match.index + offset),
    );
    const cut = fc.oneof(fc.nat({ max: LECTURE.length }), fc.constantFrom(...nearMarker));
    fc.assert(
      fc.property(fc.array(cut, { maxLength: 40 }), (cuts) => {
        const segments = parseChunks(chunkAt(LECTURE, cuts));
        // No emitted text ever contains a marker or a lone surrogate half.
        const clean = segments.every(
          (segment) => segment.type === 'question' || !(MARKER.test(segment.text) || LONE_SURROGATE.test(segment.text)),
        );
        return clean && JSON.stringify(normalise(segments)) === reference;
      }),
      { numRuns: 10_000 },
    );
  });

  it('agrees with one-shot parsing on arbitrary bracket-heavy text and chunkings', () => {
    const alphabet = fc.constantFrom('[', ']', '\\', '/', '질', '문', ' ', 'a', '😀', '\n');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), fc.array(fc.nat({ max: 120 }), { maxLength: 12 }), (chars, cuts) => {
        const text = chars.join('');
        expect(normalise(parseChunks(chunkAt(text, cuts)))).toEqual(normalise(parseLecture(text)));
      }),
      { numRuns: 3_000 },
    );
  });

  it('delivers every character one at a time identically', () => {
    expect(normalise(parseChunks(LECTURE.split('')))).toEqual(EXPECTED);
  });
});
