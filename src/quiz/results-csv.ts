import type { RecordedResponse, Solution } from '../protocol/quiz.js';
import type { RoomResults } from './room-results.js';
import { teamName } from './teams.js';

/**
 * A room's results as a spreadsheet for the instructor (GET /api/rooms/:id/results.csv; docs/PROTOCOL.md "Results
 * CSV"): Korean headers, one row per player with three columns per question (the answer given as a person reads it,
 * O/X or "부분 정답 n%" or "검토 중" or "-" for a poll or word cloud, points), then a blank line and a second table of the questions (type, text,
 * the choices or steps as shown, the solution, how many answered and got it fully right). UTF-8 with a BOM so spreadsheet programs read Korean; CRLF lines; any cell that a spreadsheet would run as a
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

type ResultQuestion = RoomResults['questions'][number];

/** An answer as a person reads it, by question type: the choice(s), the steps in the player's order, the number. */
function responseLabel(question: ResultQuestion, response: RecordedResponse): string {
  if ('choice' in response) return choiceLabel(question.choices, response.choice);
  if ('choices' in response) return response.choices.map((choice) => choiceLabel(question.choices, choice)).join(' / ');
  if ('order' in response) return response.order.map((step) => question.choices[step] ?? '').join(' → ');
  if ('text' in response) return response.text;
  const unit = question.solution?.type === 'numeric' ? question.solution.unit : undefined;
  return unit === undefined ? String(response.value) : `${response.value} ${unit}`;
}

function solutionLabel(question: ResultQuestion, solution: Solution | undefined): string {
  switch (solution?.type) {
    case undefined:
      return choiceLabel(question.choices, question.answer);
    case 'choice':
    case 'truefalse':
      return choiceLabel(question.choices, solution.correctChoice);
    case 'multi':
      return solution.correctChoices.map((choice) => choiceLabel(question.choices, choice)).join(' / ') + (solution.allOrNothing ? ' (모두 맞혀야 정답)' : '');
    case 'ordering':
      return solution.correctOrder.map((step) => question.choices[step] ?? '').join(' → ');
    case 'numeric':
      return `${solution.answer}${solution.unit === undefined ? '' : ` ${solution.unit}`} ± ${solution.tolerance}`;
    case 'poll':
      return '(설문: 정답 없음)';
    case 'short':
      return [solution.answer, ...solution.accept].join(' / ');
    case 'cloud':
      return '(단어 구름: 정답 없음)';
  }
}

/** O, X, "부분 정답 67%" (partial credit), "검토 중" (a short answer the host has not marked) or "-" for a poll. */
function creditLabel(correct: boolean, credit: number | null | undefined, poll: boolean, unsure = false): string {
  if (poll) return '-';
  if (unsure) return '검토 중';
  if (correct) return 'O';
  if (credit !== null && credit !== undefined && credit > 0) return `부분 정답 ${Math.round(credit * 100)}%`;
  return 'X';
}

/**
 * The rank a person reads: the game's rank (see scoring.ts: players at 0 share the place after the last scorer),
 * except when nobody scored — then nobody placed (an empty cell), never a "1위" for a game everyone scored 0 in.
 */
export function shownRank(rank: number, score: number): string {
  return score === 0 && rank === 1 ? '' : String(rank);
}

const TYPE_LABELS: Record<ResultQuestion['type'], string> = {
  choice: '4지선다',
  truefalse: 'O/X',
  multi: '복수 정답',
  ordering: '순서 맞추기',
  numeric: '수치',
  poll: '설문',
  short: '단답형',
  cloud: '단어 구름',
};

export function resultsCsv(results: RoomResults): string {
  const questions = results.questions;
  // Team mode adds the player's team after the nickname, and a table of teams at the end (a room without teams keeps
  // its columns as they were).
  const teams = results.teams;
  const header = ['순위', '닉네임', ...(teams ? ['팀'] : []), '총점', '맞힌 문항 수', '응답 시간 합계(초)'];
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
      ...(teams ? [player.team === undefined ? '' : teamName(player.team)] : []),
      player.score,
      player.correctCount,
      Math.round(player.totalResponseMs / 100) / 10,
    ];
    for (const question of questions) {
      const answer = player.answers.find((candidate) => candidate.questionIndex === question.index);
      const response: RecordedResponse | undefined = answer?.response ?? (answer && answer.choice !== null ? { choice: answer.choice } : undefined);
      const poll = question.type === 'poll' || question.type === 'cloud';
      if (!answer || !response) cells.push('무응답', poll ? '-' : 'X', answer?.points ?? 0);
      else cells.push(responseLabel(question, response), creditLabel(answer.correct, answer.credit, poll, answer.unsure === true), answer.points);
    }
    cells.push(player.playerId);
    lines.push(row(cells));
  }

  // The second table: what each numbered column above asked.
  // Up to six choices (or ordering steps as shown) per question; four columns at least, as before other types.
  const width = Math.max(4, ...questions.map((question) => question.choices.length));
  const choiceColumns = Array.from({ length: width }, (_, index) => index);
  // The type goes last, so a quiz of 4-choice items keeps the columns it always had.
  lines.push('', row(['문항', '질문', ...choiceColumns.map((index) => `보기 ${index + 1}`), '정답', '응답한 사람', '맞힌 사람', '해설', '유형']));
  for (const question of questions) {
    lines.push(
      row([
        question.index + 1,
        question.question,
        ...choiceColumns.map((index) => question.choices[index] ?? ''),
        solutionLabel(question, question.solution),
        question.answered,
        question.correct,
        question.explanation,
        TYPE_LABELS[question.type],
      ]),
    );
  }
  if (teams) {
    lines.push('', row(['팀 순위', '팀', '팀 점수(평균)', '인원']));
    for (const team of teams) lines.push(row([team.members === 0 ? '' : team.rank, team.name, team.score, team.members]));
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
