import type { ClassExport } from './class-export.js';

/**
 * A class export as one CSV a spreadsheet opens as it is: UTF-8 with a byte-order mark (Excel reads Hangul only
 * with it), CRLF lines, every cell quoted, Korean headers, one row per fact (a roster entry, an answer with its
 * verdict, a line of the raise-hand dialogue, a quiz player's result) so it can be filtered by the first column.
 */

const HEADERS = ['구분', '학생', '챕터', '시각', '질문', '내용', '판정', '피드백', '퀴즈', '순위', '점수', '정답 수'] as const;
type Row = Partial<Record<(typeof HEADERS)[number], string | number | null | undefined>>;

const VERDICT: Record<string, string> = { good: '맞음', bad: '틀림' };
const SPEAKER: Record<string, string> = { assistant: '도우미', student: '학생', closed: '종료' };

/**
 * A cell a spreadsheet takes as text: a leading = + - @ (or tab / carriage return) would make it a formula a
 * student could plant in a nickname or an answer, so such a cell is prefixed with an apostrophe.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

const time = (ms: number | null | undefined) => (ms === null || ms === undefined || !Number.isFinite(ms) || ms <= 0 ? '' : new Date(ms).toISOString());
const chapter = (index: number) => (index >= 0 ? index + 1 : '');

export function classExportCsv(data: ClassExport): string {
  const rows: Row[] = [];
  for (const student of data.students) {
    rows.push({ 구분: '학생', 학생: student.nickname, 챕터: chapter(student.chapter), 시각: time(student.joinedAt), 내용: `진행률 ${student.percent}%` });
    for (const answer of student.answers) {
      const common = { 구분: '답변', 학생: student.nickname, 챕터: chapter(answer.chapter), 질문: answer.question };
      if (answer.answers.length === 0) rows.push({ ...common, 판정: answer.verdict ? VERDICT[answer.verdict] : '', 피드백: answer.feedback });
      answer.answers.forEach((given, index) => {
        const last = index === answer.answers.length - 1;
        rows.push({ ...common, 시각: time(given.at), 내용: given.text, 판정: last && answer.verdict ? VERDICT[answer.verdict] : '', 피드백: last ? answer.feedback : '' });
      });
    }
    for (const line of student.hand) {
      rows.push({ 구분: `손들기(${SPEAKER[line.speaker] ?? line.speaker})`, 학생: student.nickname, 챕터: chapter(line.chapter), 시각: time(line.at), 내용: line.text });
    }
  }
  for (const room of data.rooms) {
    for (const player of room.players) {
      rows.push({ 구분: '퀴즈', 학생: player.nickname, 시각: time(room.endedAt ?? room.createdAt), 퀴즈: room.title, 순위: player.rank, 점수: player.score, '정답 수': player.correctCount });
    }
  }
  const lines = [HEADERS.map(csvCell).join(','), ...rows.map((row) => HEADERS.map((header) => csvCell(row[header])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
