import { ITEM_TYPE_NAMES, type AnalyticsCsvPart, type ClassAnalyticsReply } from '../protocol/wire/analytics.js';

/**
 * The analytics as spreadsheets, one per part (`items`, `mastery`, `funnel`): Korean headers, UTF-8 with a BOM,
 * CRLF lines, fractions as numbers rounded to 3 places (empty where there is no figure), and any text cell a
 * spreadsheet would run as a formula neutralised with a leading '.
 */

function field(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(Math.round(value * 1000) / 1000);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const table = (rows: readonly (readonly (string | number | null)[])[]) => `\uFEFF${rows.map((cells) => cells.map(field).join(',')).join('\r\n')}\r\n`;

/** The type column: a room item's type name, 객관식 for the plain 4-choice one, empty for an exam's item. */
const itemType = (type: string | undefined) => (type === undefined ? null : (ITEM_TYPE_NAMES[type] ?? '객관식'));

export function analyticsCsv(analytics: ClassAnalyticsReply, part: AnalyticsCsvPart): string {
  switch (part) {
    case 'items': {
      const rows: (string | number | null)[][] = [['구분', '제목', '문항', '유형', '문제', '응답자', '정답률', '변별도', '무응답', '보기별 선택', '검토 필요']];
      for (const assessment of analytics.assessments) {
        for (const item of assessment.items) {
          const choices = item.choices?.map((choice) => `${choice.index + 1}${choice.correct ? '(정답)' : ''}:${choice.count}`).join(' ') ?? '';
          rows.push([assessment.kind === 'room' ? '퀴즈' : '시험', assessment.title, item.number, itemType(item.type), item.question, item.respondents, item.difficulty, item.discrimination, item.unanswered, choices, item.flags.join(' ')]);
        }
      }
      return table(rows);
    }
    case 'mastery': {
      const { chapters, students } = analytics.mastery;
      const rows: (string | number | null)[][] = [['학생', ...chapters.map((chapter) => chapter.title)]];
      for (const student of students) rows.push([student.nickname, ...student.cells.map((cell) => cell.mastery)]);
      return table(rows);
    }
    case 'funnel': {
      const rows: (string | number | null)[][] = [['장', '제목', '시작한 학생', '마친 학생', '손들기', '손든 학생', '보충 설명 학생']];
      for (const step of analytics.funnel.steps) rows.push([step.chapter + 1, step.title, step.reached, step.completed, step.hands, step.handStudents, step.remediated]);
      return table(rows);
    }
  }
}
