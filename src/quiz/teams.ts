import type { TeamRow } from '../protocol/quiz.js';
import type { Standings } from './scoring.js';

/**
 * Team mode, as pure functions. A player's team is fixed when they join and stored with their player record, so a
 * reconnect or another node sees the same team; picking one (the room allows it, lobby only) rewrites that record.
 *
 * - Balancing: the n-th player to join (n from 1, the room's atomic join counter) goes to team (n − 1) mod teams,
 *   i.e. to the team that has had the fewest players so far, the lowest number first. It needs no read of the
 *   other players, so joins on several nodes at once never race into an unbalanced room.
 * - Team score: the mean of its members' scores, rounded, so a team of 3 and a team of 5 compete on equal terms
 *   (a sum would reward the bigger team). Members are the players not kicked; computed with the standings when a
 *   question closes, never on the answer path. Ties share a place; a team with no member ranks after the others.
 */

export function assignTeam(joinNumber: number, teams: number): number {
  return (Math.max(joinNumber, 1) - 1) % teams;
}

export function teamName(team: number): string {
  return `${team + 1}팀`;
}

/** Team standings from the players' rows (each with its team) for a room of `teams` teams. */
export function teamRows(rows: ReadonlyArray<{ score: number; team?: number | undefined }>, teams: number): TeamRow[] {
  const totals = Array.from({ length: teams }, () => ({ sum: 0, members: 0 }));
  for (const row of rows) {
    if (row.team === undefined) continue;
    const total = totals[row.team];
    if (!total) continue;
    total.sum += row.score;
    total.members += 1;
  }
  const unranked = totals.map((total, team) => ({
    team,
    name: teamName(team),
    score: total.members === 0 ? 0 : Math.round(total.sum / total.members),
    members: total.members,
  }));
  unranked.sort((left, right) => Number(right.members > 0) - Number(left.members > 0) || right.score - left.score || left.team - right.team);
  return unranked.map((row) => ({
    ...row,
    // Competition ranking: a tie shares the place of the first of the tied teams.
    rank: 1 + unranked.filter((other) => (other.members > 0 && row.members === 0) || (other.members > 0 === row.members > 0 && other.score > row.score)).length,
  }));
}

/** Standings with each row's team and the team table (unchanged without teams). */
export function withTeams(standings: Standings, teamOf: ReadonlyMap<string, number>, teams: number | undefined): Standings {
  if (teams === undefined) return standings;
  const rows = standings.rows.map((row) => {
    const team = teamOf.get(row.playerId);
    return team === undefined ? row : { ...row, team };
  });
  return { ...standings, rows, teams: teamRows(rows, teams) };
}
