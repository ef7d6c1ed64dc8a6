import type { FakeReply, RecordedRequest } from './fake-gemini.js';

/**
 * A scripted Gemini for lecture tests: the lecture writer streams hand-written chapters with `[질문] … [\질문]`
 * markers cut across SSE chunks, and the tutor answers with JSON that fits the schema it was asked for. Replies are
 * chosen from what each request contains, the way the real API sees them.
 */

export type LecturePart = { text: string } | { question: string; closer?: '[\\질문]' | '[/질문]' | '' };

export interface ScriptedChapter {
  title: string;
  parts: LecturePart[];
}

/** The raw lecture the writer streams (markers included). */
export function rawLecture(chapter: ScriptedChapter): string {
  return chapter.parts
    .map((part) => ('text' in part ? part.text : `[질문]${part.question}${part.closer ?? '[\\질문]'}`))
    .join('');
}

/** What the student must see: the text parts only. */
export function displayedLecture(chapter: ScriptedChapter): string {
  return chapter.parts.flatMap((part) => ('text' in part ? [part.text] : [])).join('');
}

/** The questions the student must be asked, markers removed and trimmed. */
export function askedQuestions(chapter: ScriptedChapter): string[] {
  return chapter.parts.flatMap((part) => ('question' in part ? [part.question.trim()] : []));
}

/** The sample material's chapters as a lecture writer might write them: 2, 1 and 2 questions. */
export const SCRIPTED_CHAPTERS: ScriptedChapter[] = [
  {
    title: '평균의 의미',
    parts: [
      { text: '## 평균의 의미\n\n평균은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다. 시험 점수가 70, 80, 90점이면 평균은 $\\bar{x} = 80$입니다.\n\n' },
      { question: ' 평균을 구하는 방법을 자신의 말로 설명해 보세요. ' },
      { text: '\n\n평균은 이상값에 크게 흔들립니다. 그래서 중앙값을 함께 봅니다. 😀 모든 값에서 평균을 뺀 편차의 합은 항상 0입니다.\n\n' },
      { question: '표본평균과 모평균은 어떻게 다른가요?', closer: '[/질문]' },
      { text: '\n\n정리하면, 평균은 자료의 무게중심입니다.\n' },
    ],
  },
  {
    title: '기댓값',
    parts: [
      { text: '## 기댓값\n\n기댓값은 확률변수가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다. 주사위 한 개의 기댓값은 3.5입니다.\n\n' },
      { question: '기댓값은 어떻게 계산하나요?' },
      { text: '\n\n기댓값은 여러 번 반복했을 때의 평균적인 결과를 뜻합니다.\n' },
    ],
  },
  {
    title: '대수의 법칙',
    parts: [
      { text: '## 대수의 법칙\n\n표본의 크기가 커질수록 표본평균은 기댓값에 가까워집니다. 이것을 대수의 법칙이라고 합니다.\n\n' },
      { question: '대수의 법칙이 말하는 것은 무엇인가요?' },
      { text: '\n\n동전을 10번 던지면 앞면 비율이 0.7일 수도 있지만, 10000번 던지면 0.5에 아주 가까워집니다.\n\n' },
      // The model forgot the closer: the question is still asked at the end of the chapter.
      { question: '동전 예에서 비율이 0.5에 가까워지는 이유를 말해 보세요.', closer: '' },
    ],
  },
];

/**
 * Cuts text into pieces of cycling sizes, and additionally through the middle of every marker, so markers always
 * arrive in two chunks. Code points stay whole: Gemini never sends half a character in a chunk's text (splitBytes
 * cuts the HTTP body through UTF-8 sequences instead).
 */
export function chunk(text: string, sizes: readonly number[] = [9, 4, 13, 2, 17, 5, 3]): string[] {
  const cuts = new Set<number>();
  for (let offset = 0, turn = 0; offset < text.length; turn += 1) {
    offset += sizes[turn % sizes.length] ?? 8;
    cuts.add(offset);
  }
  for (const match of text.matchAll(/\[질문\]|\[[\\/]질문\]/g)) cuts.add(match.index + 2);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((left, right) => left - right)) {
    // Never between the halves of a surrogate pair.
    const at = isLowSurrogate(text.charCodeAt(cut)) ? cut + 1 : cut;
    if (at <= from || at >= text.length) continue;
    pieces.push(text.slice(from, at));
    from = at;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** True when some boundary between consecutive pieces falls strictly inside a marker. */
export function cutsAMarker(pieces: readonly string[]): boolean {
  const text = pieces.join('');
  const markers = [...text.matchAll(/\[질문\]|\[\\질문\]|\[\/질문\]/g)].map((match) => [match.index, match.index + match[0].length] as const);
  let boundary = 0;
  for (const piece of pieces.slice(0, -1)) {
    boundary += piece.length;
    if (markers.some(([start, end]) => boundary > start && boundary < end)) return true;
  }
  return false;
}

interface RequestBody {
  contents?: { role?: string; parts?: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
  generationConfig?: { responseJsonSchema?: { properties?: Record<string, unknown> } };
}

export function bodyOf(request: RecordedRequest): RequestBody {
  return (request.body ?? {}) as RequestBody;
}

/** The user prompt text of a request (all text parts of all turns). */
export function promptOf(request: RecordedRequest): string {
  return (bodyOf(request).contents ?? []).flatMap((content) => (content.parts ?? []).map((part) => part.text ?? '')).join('\n');
}

export const isLectureWrite = (request: RecordedRequest) =>
  request.action === 'streamGenerateContent' && promptOf(request).includes('강의를 작성하세요');
export const isLectureContinue = (request: RecordedRequest) =>
  request.action === 'streamGenerateContent' && promptOf(request).includes('<이미_작성된_강의>');

/** Which scripted chapter a writer request is about (its title is fenced in `<챕터_제목>`). */
export function chapterOf(request: RecordedRequest, chapters: readonly ScriptedChapter[] = SCRIPTED_CHAPTERS): number {
  const title = /<챕터_제목>\n([\s\S]*?)\n<\/챕터_제목>/.exec(promptOf(request))?.[1];
  return chapters.findIndex((chapter) => chapter.title === title);
}

/** The student's answer quoted in a tutor prompt. */
function studentAnswer(prompt: string): string {
  return /<학생_답변>\s*([\s\S]*?)\s*<\/학생_답변>/.exec(prompt)?.[1] ?? '';
}

export const SUBCONCEPTS = [
  { concept: '자료의 합', question: '70, 80, 90의 합은 얼마인가요?', explanation: '자료의 합은 모든 값을 더한 것입니다. 70+80+90=240입니다.' },
  { concept: '자료의 개수', question: '70, 80, 90은 모두 몇 개인가요?', explanation: '자료의 개수는 값이 몇 개인지 센 것입니다. 여기서는 3개입니다.' },
];

export interface LectureGeminiOptions {
  chapters?: ScriptedChapter[];
  /** Writer replies per chapter (default: the chapter's raw lecture in chunks, bytes split). */
  writer?: (chapter: number, raw: string, request: RecordedRequest) => FakeReply;
}

/**
 * The `respond` function for FakeGemini: the writer, a continuation writer (returns the rest of the chapter after
 * the prefix quoted in its prompt) and the tutor. A reply containing "모르겠" is judged bad, anything else good.
 */
export function lectureGemini(options: LectureGeminiOptions = {}): (request: RecordedRequest) => FakeReply {
  const chapters = options.chapters ?? SCRIPTED_CHAPTERS;
  return (request) => {
    const prompt = promptOf(request);
    if (isLectureContinue(request)) {
      const raw = rawLecture(chapters[chapterOf(request, chapters)] ?? { title: '', parts: [] });
      const prefix = /<이미_작성된_강의>\n([\s\S]*)\n<\/이미_작성된_강의>/.exec(prompt)?.[1] ?? '';
      if (!raw.startsWith(prefix)) return { status: 400, message: `continuation prefix does not match the chapter: ${prefix.slice(0, 40)}` };
      return { stream: chunk(raw.slice(prefix.length)), splitBytes: true };
    }
    if (isLectureWrite(request)) {
      const index = chapterOf(request, chapters);
      const raw = rawLecture(chapters[index] ?? { title: '', parts: [] });
      return options.writer?.(index, raw, request) ?? { stream: chunk(raw), splitBytes: true };
    }
    const schema = bodyOf(request).generationConfig?.responseJsonSchema?.properties ?? {};
    if (request.action === 'generateContent' && 'keyPoints' in schema) {
      return { json: { modelAnswer: '모든 값을 더한 뒤 개수로 나눕니다.', keyPoints: ['합', '개수로 나누기'] } };
    }
    if (request.action === 'generateContent' && 'verdict' in schema) {
      const bad = studentAnswer(prompt).includes('모르겠');
      return {
        json: bad
          ? { verdict: 'bad', feedback: '핵심이 빠져 있어요. 하나씩 짚어 봅시다.' }
          : { verdict: 'good', feedback: '좋아요, 핵심을 잘 짚었어요.' },
      };
    }
    if (request.action === 'generateContent' && 'subconcepts' in schema) {
      return { json: { subconcepts: SUBCONCEPTS } };
    }
    if (request.action === 'streamGenerateContent' && prompt.includes('확인 질문에 제대로 답하지 못했습니다')) {
      return { stream: ['다시 살펴볼게요. ', '자료의 합은 ', '모든 값을 더한 것입니다.'] };
    }
    if (request.action === 'streamGenerateContent' && prompt.includes('보충 설명')) {
      return { stream: ['**정리해 볼까요?** ', '평균은 합을 ', '개수로 나눈 값입니다.'] };
    }
    return { status: 400, message: `lecture fake: unexpected ${request.action}` };
  };
}
