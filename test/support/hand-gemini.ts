import type { FakeReply, RecordedRequest } from './fake-gemini.js';
import { bodyOf, lectureGemini, promptOf, type LectureGeminiOptions } from './lecture-gemini.js';

/**
 * A scripted Gemini for the raise-hand dialogue on top of the lecture fake (test/support/lecture-gemini.ts): the
 * Student Assistant's requests are recognised the way the real API would see them — classify and Control are
 * `generateContent` with a `responseJsonSchema` (`kind` / `understood`), the answer, explanations, final
 * explanation and summary are `streamGenerateContent` recognised by the wording of prompts/assistant-*.md — and
 * answered with fixed, predictable text. Everything else goes to the lecture fake.
 */

/** The vague classification's parts, in order. */
export const HAND_SUBCONCEPTS = [
  { concept: '확률변수', focus: '결과마다 수를 대응시키는 것이 기댓값의 재료가 된다' },
  { concept: '가중평균', focus: '확률을 가중치로 한 평균이 곧 기댓값이다' },
];
export const HAND_CONCEPT = '기댓값';
/** The answer to a specific question, as streamed (one SSE event per element). */
export const HAND_ANSWER = ['확률은 각 값이 ', '나올 **가중치**로 ', '곱해집니다. $E[X] = \\sum x P(X=x)$처럼요.'];

export const explainText = (position: string, concept: string) => `**${position}. ${concept}**\n\n「${concept}」은(는) ${HAND_CONCEPT}의 재료입니다.`;
export const reexplainText = (target: string, attempt: number) => `**${target}** 다른 예로 다시 설명할게요 (${attempt}번째 설명).`;
export const finalText = (parts: string[]) => `**${HAND_CONCEPT}**\n\n${parts.join(', ')}을(를) 이으면 ${HAND_CONCEPT}입니다.`;
export const summaryText = (parts: string[]) => `# ${HAND_CONCEPT} 정리\n\n${parts.map((part, index) => `## ${index + 1}. ${part}\n- 핵심`).join('\n\n')}`;

/** The text between `<tag>\n` and `\n</tag>` in a prompt. */
export function tagged(prompt: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)?.[1];
}

/** The `## n. concept` headings of a `<설명한_내용>` block. */
function partHeadings(prompt: string): string[] {
  return [...(tagged(prompt, '설명한_내용') ?? '').matchAll(/^## \d+\. (.+)$/gmu)].map((match) => match[1] ?? '');
}

/** Cuts a text into SSE events of a few characters (so replies stream in several deltas). */
function pieces(text: string, size = 7): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let at = 0; at < chars.length; at += size) out.push(chars.slice(at, at + size).join(''));
  return out;
}

export const isHandClassify = (request: RecordedRequest) =>
  request.action === 'generateContent' && 'kind' in (bodyOf(request).generationConfig?.responseJsonSchema?.properties ?? {});
export const isHandControl = (request: RecordedRequest) =>
  request.action === 'generateContent' && 'understood' in (bodyOf(request).generationConfig?.responseJsonSchema?.properties ?? {});
const streams = (request: RecordedRequest, wording: string) => request.action === 'streamGenerateContent' && promptOf(request).includes(wording);
export const isHandAnswer = (request: RecordedRequest) => streams(request, '구체적인 질문에 답하는 설명');
export const isHandExplain = (request: RecordedRequest) => streams(request, '번째 하위 개념(`<하위_개념>`) 차례');
export const isHandReexplain = (request: RecordedRequest) => streams(request, '설명을 듣고 이해하지 못했다고');
export const isHandFinal = (request: RecordedRequest) => streams(request, '최종적으로 설명하는');
export const isHandSummary = (request: RecordedRequest) => streams(request, '하나의 Markdown 정리 문서');
export const isHandRequest = (request: RecordedRequest) =>
  [isHandClassify, isHandControl, isHandAnswer, isHandExplain, isHandReexplain, isHandFinal, isHandSummary].some((test) => test(request));

/**
 * The `respond` function for FakeGemini. A question containing "의미로" is specific; anything else is vague with
 * HAND_SUBCONCEPTS. Control calls a reply understood when it starts with "네" or "이해했" and has no "아니", "모르" or
 * "헷갈" in it.
 */
export function handGemini(options: { lecture?: LectureGeminiOptions } = {}): (request: RecordedRequest) => FakeReply {
  const lecture = lectureGemini(options.lecture);
  return (request) => {
    const prompt = promptOf(request);
    if (isHandClassify(request)) {
      const question = tagged(prompt, '학생_질문') ?? '';
      return {
        json: question.includes('의미로')
          ? { kind: 'specific', concept: HAND_CONCEPT, subconcepts: [] }
          : { kind: 'vague', concept: HAND_CONCEPT, subconcepts: HAND_SUBCONCEPTS },
      };
    }
    if (isHandControl(request)) {
      const reply = tagged(prompt, '학생_답변') ?? '';
      const understood = /^(네|이해했)/u.test(reply) && !/아니|모르|헷갈/u.test(reply);
      return { json: { understood, confusion: understood ? '' : reply } };
    }
    if (isHandAnswer(request)) return { stream: HAND_ANSWER };
    // Before the explain wording: a re-explanation prompt never contains it, but be explicit about the order.
    if (isHandReexplain(request)) {
      const target = tagged(prompt, '다시_설명할_개념') ?? '?';
      const attempt = (tagged(prompt, '이전_설명') ?? '').match(/\[설명 \d+\]/gu)?.length ?? 0;
      return { stream: pieces(reexplainText(target, attempt + 1)) };
    }
    if (isHandExplain(request)) {
      const position = /지금은 (\d+\/\d+)번째 하위 개념/u.exec(prompt)?.[1];
      return { stream: pieces(explainText(position ?? '?', tagged(prompt, '하위_개념') ?? '?')) };
    }
    if (isHandFinal(request)) return { stream: pieces(finalText(partHeadings(prompt))) };
    if (isHandSummary(request)) return { stream: pieces(summaryText(partHeadings(prompt))) };
    return lecture(request);
  };
}
