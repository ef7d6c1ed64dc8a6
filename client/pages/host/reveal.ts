// Quiz host, what the projector shows once a question closes: the correct answer with the answer distribution and the
// explanation, the leaderboard, the podium and the final podium. Drawing only: the room (host/room.ts) switches the
// phase and sends the "next" commands. Question text, choices and nicknames are untrusted: textContent only.
import type { LeaderboardPayload, PodiumPayload, RevealPayload } from '../../../src/protocol/wire/index.js';
import { $ } from '../../ui/dom.js';
import { choiceAt, choiceNodes, distributionChart, leaderboardRows, podiumNodes } from '../../ui/quiz-pieces.js';
import { setMathText } from '../../ui/math.js';

const revealNumber = $('reveal-number');
const revealQuestion = $('reveal-question');
const revealChoices = $('reveal-choices');
const revealChart = $('reveal-chart');
const revealSummary = $('reveal-summary');
const revealExplanation = $('reveal-explanation');
const revealNext = $('reveal-next');
const leaderboardTitle = $('leaderboard-title');
const leaderboard = $('leaderboard');
const leaderboardEmpty = $('leaderboard-empty');
const leaderboardNext = $('leaderboard-next');
const podium = $('podium');
const endedPodium = $('ended-podium');

export function drawReveal(reveal: RevealPayload): void {
  const { correctChoice, distribution, question } = reveal;
  revealNumber.textContent = `문제 ${question.index + 1} / ${question.total} · 정답 공개`;
  setMathText(revealQuestion, question.question);
  revealChoices.replaceChildren(
    ...choiceNodes(question.choices, 'li', (index) => ({
      'data-correct': String(index === correctChoice),
      'aria-label': `${choiceAt(index).name}: ${question.choices[index]}${index === correctChoice ? ' (정답)' : ''}`,
    })),
  );
  revealChart.replaceChildren(distributionChart(distribution, correctChoice, question.choices));
  revealSummary.textContent = `${reveal.answered}명 응답 · 정답 ${distribution[correctChoice]}명`;
  setMathText(revealExplanation, reveal.explanation);
  revealNext.focus({ preventScroll: true });
}

/** `last`: the board after the last question, whose "next" leads to the podium. */
export function drawLeaderboard(board: LeaderboardPayload, last: boolean): void {
  leaderboardTitle.textContent = `${board.afterQuestion + 1}번 문제까지 순위`;
  leaderboard.replaceChildren(...leaderboardRows(board.top));
  leaderboardEmpty.hidden = board.top.length > 0;
  leaderboardNext.textContent = last ? '최종 순위 보기' : '다음 문제';
  leaderboardNext.focus({ preventScroll: true });
}

export function drawPodium(final: PodiumPayload): void {
  podium.replaceChildren(...podiumNodes(final.top));
}

export function drawEndedPodium(final: PodiumPayload): void {
  endedPodium.replaceChildren(...podiumNodes(final.top));
}
