// Quiz player, what the phone shows once a question closes: the player's own result with the correct answer and the
// explanation, their rank on the leaderboard, and the podium. Drawing only: play.ts switches the screens and keeps
// the score line. Choices and nicknames are untrusted: textContent only.
import type { LeaderboardPayload, PodiumPayload, RevealPayload } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';
import { choiceAt, leaderboardRows, podiumNodes, rankLabel } from '../../ui/quiz-pieces.js';
import { setMathText } from '../../ui/math.js';

const game = $('game');
const verdict = $('verdict');
const points = $('points');
const revealStanding = $('reveal-standing');
const revealMine = $('reveal-mine');
const revealCorrect = $('reveal-correct');
const revealExplanation = $('reveal-explanation');
const boardRank = $('board-rank');
const boardScore = $('board-score');
const board = $('board');
const finals = {
  podium: { rank: $('podium-rank'), list: $('podium') },
  ended: { rank: $('ended-rank'), list: $('ended-podium') },
};

const score = (value: number) => value.toLocaleString('ko-KR');

export function drawReveal(reveal: RevealPayload): void {
  const you = reveal.you;
  const result = !you || you.choice === null ? 'none' : you.correct ? 'correct' : 'wrong';
  game.dataset.result = result;
  verdict.dataset.result = result;
  verdict.textContent = { correct: '정답!', wrong: '오답', none: '답하지 않았어요' }[result];
  if (you) {
    points.textContent = you.correct ? `+${score(you.points)}점` : '+0점';
    if (you.correct && you.streakBonus > 0) points.append(element('small', { className: 'bonus', text: `연속 정답 보너스 +${you.streakBonus} 포함` }));
    revealStanding.textContent = `총 ${score(you.score)}점 · ${you.score === 0 && you.rank === 1 ? '아직 순위 없음' : `현재 ${you.rank}위`}`;
  } else {
    points.textContent = '';
    revealStanding.textContent = '';
  }
  // What the player picked, beside the right answer: a phone shows only "오답" otherwise and they forget what they chose.
  const mine = you?.choice ?? null;
  revealMine.dataset.choice = mine === null ? '' : String(mine);
  if (mine === null) {
    revealMine.textContent = '내 답: 고르지 않았어요';
    revealMine.className = 'reveal-mine';
  } else {
    const picked = choiceAt(mine);
    setMathText(revealMine, `내 답: ${picked.shape} ${reveal.question.choices[mine] ?? ''}`);
    revealMine.className = `reveal-mine choice-${picked.key}`;
  }
  const meta = choiceAt(reveal.correctChoice);
  setMathText(revealCorrect, `정답: ${meta.shape} ${reveal.question.choices[reveal.correctChoice]}`);
  revealCorrect.className = `reveal-correct choice-${meta.key}`;
  setMathText(revealExplanation, reveal.explanation);
}

/** The leaderboard's top five with the player's own rank; `playerId` marks their row. */
export function drawBoard(payload: LeaderboardPayload, playerId: string | null): void {
  const you = payload.you;
  boardRank.textContent = you ? rankLabel(you.rank, you.score) : '';
  boardScore.textContent = you ? `${payload.players}명 중 · ${score(you.score)}점` : '';
  board.replaceChildren(...leaderboardRows(payload.top.slice(0, 5), playerId));
}

/** The podium (`podium`: after the last board; `ended`: the room is over) with the player's own final rank. */
export function drawFinal(payload: PodiumPayload, screen: keyof typeof finals): void {
  const you = payload.you;
  finals[screen].rank.textContent = you ? `${rankLabel(you.rank, you.score)} · ${score(you.score)}점` : '';
  finals[screen].list.replaceChildren(...podiumNodes(payload.top));
}
