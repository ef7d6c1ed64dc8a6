import type { AnswerResult } from '../protocol/quiz.js';
import type { PlayerStanding, Standings } from './scoring.js';

/**
 * The JSON of a standings table and of a room's results, as written at every reveal. Both hold every player's
 * result of every closed question, so serialising them whole made a reveal's cost grow with the question index
 * (2,000 players: 0.45 MB after question 1, 4.8 MB after question 20, each written twice). A result never changes once
 * made (a regrade makes new ones; extendStandings copies the arrays, not the results), so each is serialised once
 * and its JSON reused by every later table: a reveal serialises the new question's results and the rows' totals only.
 *
 * The text parses to what `JSON.stringify` of the same value parses to (keys may come in another order): readers
 * parse and validate it (room-records.ts), never compare text.
 */

const resultJsonCache = new WeakMap<AnswerResult, string>();

/** `JSON.stringify(result)`, made once per result object. */
export function resultJson(result: AnswerResult): string {
  let json = resultJsonCache.get(result);
  if (json === undefined) resultJsonCache.set(result, (json = JSON.stringify(result)));
  return json;
}

/** The JSON of `{ ...head, [key]: <raw> }`: `raw` is JSON text already; `head` a non-empty object without `key`. */
export function withRawField(head: object, key: string, raw: string): string {
  return `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(key)}:${raw}}`;
}

/** `JSON.stringify(standings)`, up to key order. */
export function standingsJson(standings: Standings): string {
  const { rows, ...head } = standings;
  return withRawField(head, 'rows', `[${rows.map(rowJson).join(',')}]`);
}

function rowJson(row: PlayerStanding): string {
  const { results, ...head } = row;
  return withRawField(head, 'results', `[${results.map(resultJson).join(',')}]`);
}

/** The JSON of a results row's `answers` (`{ questionIndex, ...result }` for each of the row's results). */
export function answersJson(results: readonly AnswerResult[]): string {
  return `[${results.map((result, questionIndex) => `{"questionIndex":${questionIndex},${resultJson(result).slice(1)}`).join(',')}]`;
}
