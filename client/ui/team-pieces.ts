import type { LeaderboardRow, TeamRow } from '../../src/protocol/wire/index.js';
import { element } from './dom.js';
import { leaderboardRows, podiumNodes } from './quiz-pieces.js';

/**
 * Team mode on the quiz pages: the team ranking (each team's score is the mean of its members', computed by the
 * server) drawn above the players' board or podium, with the same rows and podium columns. Without teams nothing is
 * drawn and a board left from an earlier team room is removed.
 */

const asRow = (team: TeamRow): LeaderboardRow => ({ playerId: `team-${team.team}`, nickname: `${team.name} (${team.members}명)`, score: team.score, rank: team.rank });

export function drawTeams(list: HTMLElement, teams: readonly TeamRow[] | undefined, kind: 'board' | 'podium', myTeam: number | null = null): void {
  const id = `${list.id}-teams`;
  document.getElementById(id)?.remove();
  if (!teams || teams.length === 0) return;
  const ranked = teams.filter((team) => team.members > 0);
  const rows = kind === 'podium' ? podiumNodes(ranked.map(asRow)) : leaderboardRows(ranked.map(asRow), myTeam === null ? null : `team-${myTeam}`);
  const section = element(
    'section',
    { id, className: 'team-ranking', 'data-testid': 'team-ranking', 'aria-label': '팀 순위' },
    element('h2', { text: '팀 순위 (팀원 점수 평균)' }),
    element('ol', { className: kind === 'podium' ? 'podium' : 'ranking', 'data-testid': 'team-rows' }, ...rows),
  );
  list.before(section);
}

/** '1팀' for team 0. */
export function teamLabel(team: number): string {
  return `${team + 1}팀`;
}
