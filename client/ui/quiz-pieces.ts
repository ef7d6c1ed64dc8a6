import type { LeaderboardRow, Phase } from '../../src/protocol/wire/index.js';
import { element, type AttributeValue } from './dom.js';
import { mathElement } from './math.js';

/**
 * Pieces of the live quiz pages (host.html, play.html) and the instructor monitor: the four choice colours and
 * shapes, the answer distribution, leaderboard rows and the podium. Question text, choices and nicknames are
 * untrusted: textContent only.
 */

/**
 * The choices: colour and shape together, so the choice never rests on colour alone. Four for a 4-choice item; multiple
 * correct and poll items may have up to six.
 */
export const CHOICES = [
  { key: 'red', shape: '▲', name: '빨강 세모' },
  { key: 'blue', shape: '◆', name: '파랑 마름모' },
  { key: 'yellow', shape: '●', name: '노랑 동그라미' },
  { key: 'green', shape: '■', name: '초록 네모' },
  { key: 'purple', shape: '★', name: '보라 별' },
  { key: 'teal', shape: '⬢', name: '청록 육각형' },
] as const;

export type Choice = (typeof CHOICES)[number];

/** The choice at `index` (0–5; the server never sends another). */
export function choiceAt(index: number): Choice {
  return CHOICES[index] ?? CHOICES[0];
}

export const PHASE_LABELS: Record<Phase, string> = {
  lobby: '대기실',
  preview: '문제 미리 보기',
  open: '답하는 중',
  reveal: '정답 공개',
  leaderboard: '순위',
  podium: '시상대',
  ended: '끝남',
};

const points = (score: number) => `${score.toLocaleString('ko-KR')}점`;

/**
 * A rank as people read it. Players at 0 points share the place after the last scorer (src/quiz/scoring.ts); when
 * nobody scored that place is 1, and a game everyone scored 0 in has no "1위": no place at all.
 */
export function rankLabel(rank: number, score: number): string {
  return score === 0 && rank === 1 ? '순위 없음' : `${rank}위`;
}

/** The four choice tiles (host) or buttons (player) for a question, with shape, colour and untrusted text. */
export function choiceNodes<K extends 'li' | 'button'>(
  choices: readonly string[],
  tag: K,
  extra: (index: number) => Record<string, AttributeValue> = () => ({}),
): HTMLElementTagNameMap[K][] {
  return choices.map((text, index) => {
    const meta = choiceAt(index);
    return element(
      tag,
      { className: `choice choice-${meta.key}`, 'data-choice': String(index), 'data-testid': 'choice', ...extra(index) },
      element('span', { className: 'choice-shape', 'aria-hidden': 'true', text: meta.shape }),
      mathElement('span', { className: 'choice-text' }, text),
    );
  });
}

/**
 * The answer distribution as horizontal bars (plain CSS), the correct choices marked (none for a poll). For an ordering
 * item each bar counts the players who put that step in its place.
 */
export function distributionChart(distribution: readonly number[], correctChoices: readonly number[], choices: readonly string[], label = '보기별 응답 수'): HTMLOListElement {
  const most = Math.max(1, ...distribution);
  return element(
    'ol',
    { className: 'distribution', 'data-testid': 'distribution', 'aria-label': label },
    ...distribution.map((count, index) => {
      const meta = choiceAt(index);
      const correct = correctChoices.includes(index);
      const fill = element('span', { className: 'dist-fill' });
      fill.style.width = `${(count / most) * 100}%`;
      return element(
        'li',
        {
          className: `dist-row choice-${meta.key}`,
          'data-testid': 'dist-row',
          'data-choice': String(index),
          'data-count': String(count),
          'data-correct': String(correct),
          'aria-label': `${meta.shape} ${choices[index] ?? ''}: ${count}명${correct ? ' (정답)' : ''}`,
        },
        element(
          'span',
          { className: 'dist-label', 'aria-hidden': 'true' },
          element('span', { className: 'choice-shape', text: meta.shape }),
          correct ? element('span', { className: 'dist-mark', text: '정답' }) : null,
        ),
        element('span', { className: 'dist-bar', 'aria-hidden': 'true' }, fill),
        element('span', { className: 'dist-count', 'aria-hidden': 'true', text: `${count}명` }),
      );
    }),
  );
}

/** Leaderboard rows; `youId` marks the viewer's own row. */
export function leaderboardRows(rows: readonly LeaderboardRow[], youId: string | null = null): HTMLLIElement[] {
  return rows.map((row) =>
    element(
      'li',
      { className: 'rank-row', 'data-testid': 'rank-row', 'data-rank': String(row.rank), 'data-you': String(row.playerId === youId) },
      element('span', { className: 'rank-no', text: row.score === 0 && row.rank === 1 ? '–' : `${row.rank}` }),
      element('span', { className: 'rank-name', text: row.nickname }),
      element('span', { className: 'rank-score', text: points(row.score) }),
    ),
  );
}

/** Podium columns in the usual 2-1-3 order; empty when nobody scored (nobody won anything). */
export function podiumNodes(top: readonly LeaderboardRow[]): HTMLLIElement[] {
  const [first, second, third] = top.some((row) => row.score > 0) ? top : [];
  const places: [LeaderboardRow | undefined, number][] = [
    [second, 2],
    [first, 1],
    [third, 3],
  ];
  return places.flatMap(([row, place]) =>
    row
      ? [
          element(
            'li',
            { className: `podium-place place-${place}`, 'data-testid': 'podium-place', 'data-place': String(place) },
            element('span', { className: 'podium-name', 'data-testid': 'podium-name', text: row.nickname }),
            element('span', { className: 'podium-score', text: points(row.score) }),
            element('span', { className: 'podium-block', text: `${place}위` }),
          ),
        ]
      : [],
  );
}
