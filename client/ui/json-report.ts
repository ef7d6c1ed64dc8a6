/**
 * A model's JSON output (a quiz item, an exam plan, a grading) as people read it: each text value on its own line
 * under a Korean name for its field, never the raw braces and field names (`planning_strategy`). The AI 품질 page's
 * excerpts are cut at 300 characters, so a JSON text that no longer parses is read field by field as far as it goes.
 * Every value is set as text.
 */
import { element } from './dom.js';

const FIELD_NAMES: Record<string, string> = {
  question: '문항',
  question_content: '문항',
  questions: '문항',
  choices: '보기',
  answer: '정답',
  correct_answer: '정답',
  model_answer: '모범 답안',
  explanation: '해설',
  key_keywords: '핵심 키워드',
  keywords: '핵심 키워드',
  intent_diagnosis: '출제 의도',
  planning_strategy: '출제 전략',
  planned_items: '출제 계획',
  target_topic: '주제',
  question_type: '문항 유형',
  intent_type: '의도 유형',
  complexity_level: '난이도',
  source_reference_hint: '출처',
  type: '유형',
  title: '제목',
  items: '문항',
  problems: '문항',
  result_status: '판정',
  feedback_message: '피드백',
  related_topic: '관련 주제',
  verdict: '판정',
  feedback: '피드백',
  reason: '이유',
  grade: '점수',
  summary: '요약',
  text: '내용',
};

/** Identifier-like values (`Short_Keyword`, `Partial_Correct`) in Korean; other values as they are. */
const VALUE_NAMES: Record<string, string> = {
  Short_Keyword: '단답형',
  Descriptive: '서술형',
  Correct: '정답',
  Partial_Correct: '부분 정답',
  Incorrect: '오답',
  Basic: '기초',
  Intermediate: '중급',
  Advanced: '심화',
  Definition: '정의',
  Causal_Explanation: '인과 설명',
};

type Line = { field: string; value: string };

function linesOf(value: unknown, field: string, out: Line[]): void {
  if (out.length >= 40) return;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = String(value).trim();
    if (text !== '') out.push({ field, value: VALUE_NAMES[text] ?? text });
  } else if (Array.isArray(value)) {
    if (value.every((entry) => typeof entry === 'string' || typeof entry === 'number')) {
      if (value.length > 0) out.push({ field, value: value.map((entry) => VALUE_NAMES[String(entry)] ?? String(entry)).join(', ') });
    } else {
      for (const entry of value) linesOf(entry, field, out);
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) linesOf(entry, FIELD_NAMES[key] ?? '', out);
  }
}

/** `"key": "value"` pairs of a JSON text cut short, in order (escapes undone). */
function partialLines(text: string): Line[] {
  const out: Line[] = [];
  for (const match of text.matchAll(/"([^"\\]+)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"?|(-?\d+(?:\.\d+)?|true|false))/gu)) {
    const raw = match[2] ?? match[3] ?? '';
    let value = raw;
    try {
      value = JSON.parse(`"${raw.replace(/\\$/u, '')}"`) as string;
    } catch {
      // A value cut inside an escape: keep it as it came.
    }
    if (value.trim() !== '') out.push({ field: FIELD_NAMES[match[1] ?? ''] ?? '', value: VALUE_NAMES[value.trim()] ?? value.trim() });
    if (out.length >= 40) break;
  }
  return out;
}

/** The readable report of `text` when it is a JSON object or array (whole or cut short); null for other text. */
export function readableJson(text: string, cut = false): HTMLElement | null {
  const trimmed = text.trim().replace(/^```(?:json)?\s*/u, '');
  if (!/^[[{]/u.test(trimmed)) return null;
  let lines: Line[] = [];
  try {
    linesOf(JSON.parse(trimmed), '', lines);
  } catch {
    lines = partialLines(trimmed);
  }
  if (lines.length === 0) return null;
  return element(
    'dl',
    { className: 'json-report', 'data-testid': 'json-report' },
    ...lines.flatMap((line) => [element('dt', { text: line.field || '·' }), element('dd', { text: line.value })]),
    cut ? element('dd', { className: 'muted', text: '(앞부분만 보입니다)' }) : null,
  );
}
