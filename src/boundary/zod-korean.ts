import type { z } from 'zod';

/**
 * Korean text for a zod failure, for people: the field by its Korean name ("3번 문항의 보기") and what is wrong with
 * it, never zod's English message, its dotted path (`items.2.choices`) or a regex. A message a schema wrote itself
 * (Korean, e.g. '방 코드는 숫자 6자리입니다.') is kept as it is. Programs read the stable code INVALID_PAYLOAD instead.
 */

/** Korean names of the fields of every inbound schema (src/protocol/*). Unknown keys fall back to '입력값'. */
const FIELD_NAMES: Record<string, string> = {
  title: '제목',
  items: '문항',
  question: '질문',
  choices: '보기',
  answer: '정답',
  explanation: '해설',
  difficulty: '난이도',
  nickname: '닉네임',
  name: '이름',
  code: '코드',
  classCode: '수업 코드',
  materialId: '자료',
  classId: '수업',
  quizId: '퀴즈',
  roomId: '방',
  playerId: '참가자',
  sessionId: '학생',
  text: '내용',
  choice: '고른 보기',
  questionIndex: '문항 번호',
  options: '방 설정',
  questionSeconds: '문제당 시간(초)',
  previewSeconds: '미리 보기 시간(초)',
  lateJoin: '늦은 참가 허용',
  streakBonus: '연속 정답 보너스',
  maxPlayers: '최대 참가 인원',
  chapter: '장',
  cursor: '다음 페이지 위치',
  limit: '한 번에 받을 개수',
  answerText: '답',
  understood: '이해 여부',
  confusion: '헷갈리는 부분',
  speed: '속도',
  tokensPerSecond: '속도',
  lastSeq: '이어 받을 위치',
  questionId: '질문',
  since: '이어 받을 위치',
  seq: '순번',
  message: '메시지',
  email: '이메일',
  password: '비밀번호',
  // seed 001's self-study API (snake_case, as the seed names them)
  topic: '주제',
  quiz_id: '퀴즈 문항',
  // the Critic Grader (seed 004)
  data_to_grade: '평가할 데이터',
  instruction: '지시문',
  input: '입력',
  output: '출력',
  expected_output: '예상 출력',
  grading_criteria: '평가 기준',
  criteria_name: '평가 기준 이름',
  weights: '가중치',
  agent_name: '에이전트 이름',
  // the AI 품질 console's queries
  agent: '에이전트',
  minGrade: '최저 점수',
  maxGrade: '최고 점수',
  days: '기간',
  // live exams
  count: '문항 수',
  descriptive: '서술형 문항 수',
  chapters: '장 목록',
  timeLimitMinutes: '제한 시간(분)',
  question_content: '문항 내용',
  model_answer: '모범 답안',
  key_keywords: '핵심 키워드',
  intent_diagnosis: '출제 의도',
  answers: '답안',
  questionIds: '제출할 문항',
  status: '채점 결과',
  reason: '사유',
  comment: '요청 내용',
  target_depth: '목표 수준',
  description: '학습 목표 설명',
};

const HANGUL = /[\uac00-\ud7a3]/u;
/** What a person must never see: a regex, an English zod phrase, a dotted path, parser text or the word 토큰. */
const UNFIT = /\/\^|\$\/|must match|Invalid|Too (small|big)|expected|JSON\.parse|Unexpected token|토큰|\w+\.\d+\.\w+/u;

/** "1번 문항의 3번 보기" from ['items', 0, 'choices', 2]; '' for the payload itself. */
export function koreanFieldName(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (const segment of path) {
    if (typeof segment === 'number') {
      const last = parts.pop();
      parts.push(last === undefined ? `${segment + 1}번째 항목` : `${segment + 1}번 ${last}`);
    } else {
      parts.push(FIELD_NAMES[String(segment)] ?? '입력값');
    }
  }
  return parts.join('의 ');
}

/** 을/를 (이/가, 은/는) after `word`, chosen by whether its last syllable has a final consonant. */
function particle(word: string, withFinal: string, withoutFinal: string): string {
  const last = word.replace(/[^\uac00-\ud7a3\d]+$/u, '').at(-1) ?? '';
  if (/\d/.test(last)) return '013678'.includes(last) ? withFinal : withoutFinal;
  const code = last.charCodeAt(0) - 0xac00;
  if (code < 0 || code > 11171) return withoutFinal;
  return code % 28 === 0 ? withoutFinal : withFinal;
}

const TYPE_NAMES: Record<string, string> = {
  string: '글자',
  number: '숫자',
  int: '정수',
  boolean: '참/거짓 값',
  array: '목록',
  object: '객체',
};

function sizeText(issue: { origin?: unknown; minimum?: unknown; maximum?: unknown; exact?: boolean }, small: boolean): string {
  const bound = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      if (small && bound <= 1) return '비어 있으면 안 됩니다.';
      return issue.exact ? `${bound}자여야 합니다.` : small ? `${bound}자 이상이어야 합니다.` : `${bound}자 이하여야 합니다.`;
    case 'array':
    case 'set':
      if (issue.exact) return `${bound}개여야 합니다.`;
      return small ? `${bound}개 이상이어야 합니다.` : `${bound}개 이하여야 합니다.`;
    default:
      return small ? `${bound} 이상이어야 합니다.` : `${bound} 이하여야 합니다.`;
  }
}

/** One issue as a Korean sentence, starting with the field name when there is one. */
export function koreanIssue(issue: z.core.$ZodIssue): string {
  const field = koreanFieldName(issue.path);
  if (HANGUL.test(issue.message) && !UNFIT.test(issue.message)) {
    // The schema's own Korean message; prefix the field when the message does not already name it.
    return field && !issue.message.includes(field.split('의 ').at(-1) ?? field) ? `${field}: ${issue.message}` : issue.message;
  }
  const subject = field || '요청 내용';
  const topic = `${subject}${particle(subject, '은', '는')}`;
  switch (issue.code) {
    case 'invalid_type': {
      // zod leaves the input out of issues; its English message still says whether the field was missing.
      if (issue.input === undefined && /received undefined/.test(issue.message)) return `${subject}${particle(subject, '이', '가')} 필요합니다.`;
      if (!field) return '보낸 내용의 형식이 올바르지 않습니다.';
      const expected = TYPE_NAMES[issue.expected] ?? '올바른 값';
      return `${topic} ${expected}${particle(expected, '이어야', '여야')} 합니다.`;
    }
    case 'too_small':
      return `${topic} ${sizeText(issue, true)}`;
    case 'too_big':
      return `${topic} ${sizeText(issue, false)}`;
    case 'invalid_format':
      return `${subject} 형식이 올바르지 않습니다.`;
    case 'invalid_value':
      return `${subject}${particle(subject, '이', '가')} 허용되는 값이 아닙니다.`;
    case 'unrecognized_keys':
      return `${field ? `${field}에 ` : ''}알 수 없는 항목이 있습니다.`;
    case 'not_multiple_of':
      return `${topic} 올바른 간격의 숫자여야 합니다.`;
    default:
      return `${subject}${particle(subject, '이', '가')} 올바르지 않습니다.`;
  }
}

/** The message of an INVALID_PAYLOAD answer: the first problem, and how many more there are. */
export function koreanZodMessage(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  if (!first) return '보낸 내용이 올바르지 않습니다.';
  const more = rest.length > 0 ? ` (그 밖에 ${rest.length}건)` : '';
  return `${koreanIssue(first)}${more}`;
}
