// Quiz host, what the projector shows once a question closes: the correct answer with the answer distribution and the
// explanation, the leaderboard, the podium and the final podium. Drawing only: the room (host/room.ts) switches the
// phase and sends the "next" commands. Question text, choices and nicknames are untrusted: textContent only.
import type { LeaderboardPayload, PodiumPayload, RevealPayload } from '../../../src/protocol/wire/index.js';
import { $ } from '../../ui/dom.js';
import { drawTeams } from '../../ui/team-pieces.js';
import { choiceAt, choiceNodes, distributionChart, leaderboardRows, podiumNodes } from '../../ui/quiz-pieces.js';
import { setMathText } from '../../ui/math.js';
import { drawTypedAnswers, type SendReview } from './typed-answers.js';

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

/** The shown choices that are right (none for ordering, numeric and poll: their solution is told in words). */
function correctChoicesOf(reveal: RevealPayload): number[] {
  const solution = reveal.solution;
  if (solution.type === 'choice' || solution.type === 'truefalse') return [solution.correctChoice];
  if (solution.type === 'multi') return solution.correctChoices;
  return [];
}

/** The projector's one-line summary, by type. */
function summaryOf(reveal: RevealPayload, correct: readonly number[]): string {
  const { solution, question, distribution } = reveal;
  switch (solution.type) {
    case 'choice':
    case 'truefalse':
      return `${reveal.answered}명 응답 · 정답 ${distribution[solution.correctChoice] ?? 0}명`;
    case 'multi':
      return `${reveal.answered}명 응답 · 정답 ${correct.map((index) => `${choiceAt(index).shape} ${question.choices[index] ?? ''}`).join(', ')}${solution.allOrNothing ? ' (모두 맞혀야 정답)' : ' (부분 점수)'}`;
    case 'ordering':
      return `${reveal.answered}명 응답 · 정답 순서: ${solution.correctOrder.map((index) => question.choices[index] ?? '').join(' → ')}`;
    case 'numeric':
      return `${reveal.answered}명 응답 · 정답 ${solution.answer}${solution.unit ? ` ${solution.unit}` : ''} (±${solution.tolerance} 만점, ±${solution.range}까지 부분 점수)`;
    case 'poll':
      return `설문 · ${reveal.answered}명 응답`;
    case 'short': {
      const waiting = (reveal.review ?? []).filter((answer) => answer.verdict === null).length;
      return `${reveal.answered}명 응답 · 모범 답안 ${[solution.answer, ...solution.accept].join(' / ')}${waiting > 0 ? ` · 확인할 답 ${waiting}개` : ''}`;
    }
    case 'cloud':
      return `단어 구름 · ${reveal.answered}명 응답`;
  }
}

export function drawReveal(reveal: RevealPayload, sendReview: SendReview): void {
  const { distribution, question } = reveal;
  const correct = correctChoicesOf(reveal);
  const unscored = reveal.solution.type === 'poll' || reveal.solution.type === 'cloud';
  revealNumber.textContent = `문제 ${question.index + 1} / ${question.total} · ${unscored ? '설문 결과' : '정답 공개'}`;
  setMathText(revealQuestion, question.question);
  revealChoices.replaceChildren(
    ...choiceNodes(question.choices, 'li', (index) => ({
      // Only types with right choices mark them; a poll's (or ordering's) choices are neither right nor wrong.
      'data-correct': correct.length === 0 ? '' : String(correct.includes(index)),
      'aria-label': `${choiceAt(index).name}: ${question.choices[index]}${correct.includes(index) ? ' (정답)' : ''}`,
    })),
  );
  const label = reveal.solution.type === 'ordering' ? '단계별로 제자리에 둔 사람 수' : '보기별 응답 수';
  revealChart.replaceChildren(distributionChart(distribution, correct, question.choices, label));
  setMathText(revealSummary, summaryOf(reveal, correct));
  setMathText(revealExplanation, reveal.explanation);
  drawTypedAnswers(reveal, sendReview);
  revealNext.focus({ preventScroll: true });
}

/** `last`: the board after the last question, whose "next" leads to the podium. */
export function drawLeaderboard(board: LeaderboardPayload, last: boolean): void {
  leaderboardTitle.textContent = `${board.afterQuestion + 1}번 문제까지 순위`;
  leaderboard.replaceChildren(...leaderboardRows(board.top));
  drawTeams(leaderboard, board.teams, 'board');
  leaderboardEmpty.hidden = board.top.length > 0;
  leaderboardNext.textContent = last ? '최종 순위 보기' : '다음 문제';
  leaderboardNext.focus({ preventScroll: true });
}

export function drawPodium(final: PodiumPayload): void {
  podium.replaceChildren(...podiumNodes(final.top));
  drawTeams(podium, final.teams, 'podium');
}

export function drawEndedPodium(final: PodiumPayload): void {
  endedPodium.replaceChildren(...podiumNodes(final.top));
  drawTeams(endedPodium, final.teams, 'podium');
}
