/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QT1 — Team balancing and team score. The n-th player to join goes to team (n − 1) mod teams: the team with the
 *   fewest players so far, lowest number first (sizes never differ by more than one). A team's score is the mean of
 *   its members' scores, rounded, so a small team with a higher mean beats a bigger team with a higher sum; tied teams
 *   share a place and a team without members ranks last. Standings without team mode are unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { Standings } from '../src/quiz/scoring.js';
import { assignTeam, teamRows, withTeams } from '../src/quiz/teams.js';

describe('team mode (pure)', () => {
  it('QT1 balances by join order, smallest team first, and scores a team by the mean of its members', () => {
    const teams = Array.from({ length: 7 }, (_, index) => assignTeam(index + 1, 3));
    expect(teams).toEqual([0, 1, 2, 0, 1, 2, 0]);
    for (let joined = 1; joined <= 23; joined += 1) {
      const sizes = [0, 0, 0, 0];
      for (let n = 1; n <= joined; n += 1) sizes[assignTeam(n, 4)]! += 1;
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }

    // Team 0: 3 members summing 2,400 (mean 800); team 1: 5 members summing 3,500 (mean 700); team 2 nobody.
    const rows = [
      ...[1000, 900, 500].map((score) => ({ score, team: 0 })),
      ...[1000, 1000, 500, 500, 500].map((score) => ({ score, team: 1 })),
    ];
    expect(teamRows(rows, 3)).toEqual([
      { team: 0, name: '1팀', score: 800, rank: 1, members: 3 },
      { team: 1, name: '2팀', score: 700, rank: 2, members: 5 },
      { team: 2, name: '3팀', score: 0, rank: 3, members: 0 },
    ]);
    // A mean is rounded; equal means share the place.
    expect(teamRows([{ score: 1000, team: 0 }, { score: 333, team: 0 }, { score: 667, team: 1 }, { score: 666, team: 1 }], 2)).toEqual([
      { team: 0, name: '1팀', score: 667, rank: 1, members: 2 },
      { team: 1, name: '2팀', score: 667, rank: 1, members: 2 },
    ]);

    const standings: Standings = {
      afterQuestion: 0,
      questions: [{ distribution: [1, 1, 0, 0], answered: 2, correct: 1 }],
      rows: [
        { playerId: 'a', nickname: '가', score: 900, rank: 1, correctCount: 1, totalResponseMs: 100, streak: 1 },
        { playerId: 'b', nickname: '나', score: 0, rank: 2, correctCount: 0, totalResponseMs: 200, streak: 0 },
      ],
    };
    expect(withTeams(standings, new Map([['a', 1], ['b', 0]]), undefined)).toBe(standings);
    const teamed = withTeams(standings, new Map([['a', 1], ['b', 0]]), 2);
    expect(teamed.rows.map((row) => row.team)).toEqual([1, 0]);
    expect(teamed.teams).toEqual([
      { team: 1, name: '2팀', score: 900, rank: 1, members: 1 },
      { team: 0, name: '1팀', score: 0, rank: 2, members: 1 },
    ]);
  });
});
