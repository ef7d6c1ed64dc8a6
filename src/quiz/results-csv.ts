import type { RoomResults } from './room-results.js';

/**
 * A room's results as a spreadsheet for the instructor (GET /api/rooms/:id/results.csv; docs/PROTOCOL.md "Results
 * CSV"): Korean headers, one row per player with three columns per question (the choice made, O/X, points), then a
 * blank line and a second table of the questions (text, the four choices, the answer, how many answered and got it
 * right). UTF-8 with a BOM so spreadsheet programs read Korean; CRLF lines; any cell that a spreadsheet would run as a
 * formula is neutralised. Programs read the JSON (`/results`), which this does not change.
 */

/** RFC 4180 field: quoted when needed; a leading =,+,-,@,tab or CR gets a ' so spreadsheets do not run it. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const row = (cells: readonly (string | number | null)[]) => cells.map(csvField).join(',');

/** "2. 평균" — the choice as players saw it numbered (1–4) with its text. */
const choiceLabel = (choices: readonly string[], choice: number) => `${choice + 1}. ${choices[choice] ?? ''}`;

/**
 * The rank a person reads: the game's rank (see scoring.ts: players at 0 share the place after the last scorer),
 * except when nobody scored — then nobody placed (an empty cell), never a "1위" for a game everyone scored 0 in.
 */
export function shownRank(rank: number, score: number): string {
  return score === 0 && rank === 1 ? '' : String(rank);
}

export function resultsCsv(results: RoomResults): string {
  const questions = results.questions;
  const header = ['순위', '닉네임', '총점', '맞힌 문항 수', '응답 시간 합계(초)'];
  for (const question of questions) {
    const n = question.index + 1;
    header.push(`${n}번 선택`, `${n}번 정답 여부`, `${n}번 점수`);
  }
  header.push('참가자 ID');
  const lines = [row(header)];
  for (const player of results.players) {
    const cells: (string | number | null)[] = [
      shownRank(player.rank, player.score),
      player.nickname,
      player.score,
      player.correctCount,
      Math.round(player.totalResponseMs / 100) / 10,
    ];
    for (const question of questions) {
      const answer = player.answers.find((candidate) => candidate.questionIndex === question.index);
      if (!answer || answer.choice === null) cells.push('무응답', 'X', answer?.points ?? 0);
      else cells.push(choiceLabel(question.choices, answer.choice), answer.correct ? 'O' : 'X', answer.points);
    }
    cells.push(player.playerId);
    lines.push(row(cells));
  }

  // The second table: what each numbered column above asked.
  lines.push('', row(['문항', '질문', '보기 1', '보기 2', '보기 3', '보기 4', '정답', '응답한 사람', '맞힌 사람', '해설']));
  for (const question of questions) {
    lines.push(
      row([
        question.index + 1,
        question.question,
        ...[0, 1, 2, 3].map((index) => question.choices[index] ?? ''),
        choiceLabel(question.choices, question.answer),
        question.answered,
        question.correct,
        question.explanation,
      ]),
    );
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
