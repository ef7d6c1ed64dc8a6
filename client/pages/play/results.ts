// Quiz player, what the phone shows once a question closes: the player's own result with the correct answer and the
// explanation, their rank on the leaderboard, and the podium. Drawing only: play.ts switches the screens and keeps
// the score line. Choices and nicknames are untrusted: textContent only.
import type { LeaderboardPayload, PodiumPayload, RevealPayload } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';
import { drawTeams } from '../../ui/team-pieces.js';
import { choiceAt, leaderboardRows, podiumNodes, rankLabel } from '../../ui/quiz-pieces.js';
import { setMathText } from '../../ui/math.js';
import { responseText } from './answer-forms.js';

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
  const poll = reveal.solution.type === 'poll' || reveal.solution.type === 'cloud';
  const answered = you !== undefined && (you.response !== undefined || you.choice !== null);
  const partial = answered && !you.correct && (you.credit ?? 0) > 0;
  const result = !answered ? 'none' : poll ? 'poll' : you.unsure ? 'review' : you.correct ? 'correct' : partial ? 'partial' : 'wrong';
  game.dataset.result = result;
  verdict.dataset.result = result;
  verdict.textContent = {
    correct: '정답!',
    wrong: '오답',
    none: '답하지 않았어요',
    poll: '응답해 주셔서 고마워요',
    review: '선생님이 답을 확인하고 있어요',
    partial: `부분 정답 (${Math.round((you?.credit ?? 0) * 100)}%)`,
  }[result];
  if (you) {
    points.textContent = you.points > 0 ? `+${score(you.points)}점` : '+0점';
    if (you.correct && you.streakBonus > 0) points.append(element('small', { className: 'bonus', text: `연속 정답 보너스 +${you.streakBonus} 포함` }));
    revealStanding.textContent = `총 ${score(you.score)}점 · ${you.score === 0 && you.rank === 1 ? '아직 순위 없음' : `현재 ${you.rank}위`}`;
  } else {
    points.textContent = '';
    revealStanding.textContent = '';
  }
  // What the player picked, beside the right answer: a phone shows only "오답" otherwise and they forget what they chose.
  const mine = you?.response ?? (you && you.choice !== null ? { choice: you.choice } : null);
  revealMine.dataset.choice = mine && 'choice' in mine ? String(mine.choice) : '';
  revealMine.className = mine && 'choice' in mine ? `reveal-mine choice-${choiceAt(mine.choice).key}` : 'reveal-mine';
  if (!mine) revealMine.textContent = '내 답: 고르지 않았어요';
  else setMathText(revealMine, `내 답: ${responseText(reveal.question, mine)}`);
  const solution = reveal.solution;
  revealCorrect.className = 'reveal-correct';
  switch (solution.type) {
    case 'choice':
    case 'truefalse': {
      const meta = choiceAt(solution.correctChoice);
      setMathText(revealCorrect, `정답: ${meta.shape} ${reveal.question.choices[solution.correctChoice]}`);
      revealCorrect.className = `reveal-correct choice-${meta.key}`;
      break;
    }
    case 'multi':
      setMathText(revealCorrect, `정답: ${responseText(reveal.question, { choices: solution.correctChoices })}${solution.allOrNothing ? ' (모두 맞혀야 정답)' : ''}`);
      break;
    case 'ordering':
      setMathText(revealCorrect, `정답 순서: ${responseText(reveal.question, { order: solution.correctOrder })}`);
      break;
    case 'numeric':
      revealCorrect.textContent = `정답: ${solution.answer}${solution.unit ? ` ${solution.unit}` : ''} (±${solution.tolerance} 안이면 만점)`;
      break;
    case 'poll':
      revealCorrect.textContent = `설문: ${reveal.answered}명 응답`;
      break;
    case 'short':
      setMathText(revealCorrect, `모범 답안: ${[solution.answer, ...solution.accept].join(' / ')}`);
      break;
    case 'cloud':
      revealCorrect.textContent = `단어 구름: ${reveal.answered}명 응답`;
      break;
  }
  setMathText(revealExplanation, reveal.explanation);
}

/** The leaderboard's top five with the player's own rank; `playerId` marks their row. */
export function drawBoard(payload: LeaderboardPayload, playerId: string | null): void {
  const you = payload.you;
  boardRank.textContent = you ? rankLabel(you.rank, you.score) : '';
  boardScore.textContent = you ? `${payload.players}명 중 · ${score(you.score)}점` : '';
  board.replaceChildren(...leaderboardRows(payload.top.slice(0, 5), playerId));
  drawTeams(board, payload.teams, 'board', you?.team ?? null);
}

/** The podium (`podium`: after the last board; `ended`: the room is over) with the player's own final rank. */
export function drawFinal(payload: PodiumPayload, screen: keyof typeof finals): void {
  const you = payload.you;
  finals[screen].rank.textContent = you ? `${rankLabel(you.rank, you.score)} · ${score(you.score)}점` : '';
  finals[screen].list.replaceChildren(...podiumNodes(payload.top));
  drawTeams(finals[screen].list, payload.teams, 'podium');
}
