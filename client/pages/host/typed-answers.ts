// Quiz host, the reveal of typed answers: the word cloud (words sized by how many typed them) and, for a short-text
// question, the answers the judge was unsure of with 정답/오답 buttons for the host (`room:review`; the server rescores
// and sends every screen the reveal again). Student text is untrusted: textContent only, never HTML.
import type { CloudWord, ReviewAnswer, RevealPayload } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';

const cloudCard = $('cloud-card');
const cloud = $('reveal-cloud');
const reviewCard = $('review-card');
const reviewList = $('review-list');
const reviewEmpty = $('review-empty');

/** Font sizes (rem) from the least to the most typed word. */
const SMALLEST = 1;
const LARGEST = 3.6;

/** How the host's mark is sent (host/room.ts gives the socket). */
export type SendReview = (button: HTMLButtonElement, payload: { questionIndex: number; key: string; correct: boolean }) => Promise<void>;

function cloudNodes(words: readonly CloudWord[]): HTMLElement[] {
  const most = Math.max(1, ...words.map((word) => word.count));
  return words.map((word) => {
    const size = SMALLEST + ((LARGEST - SMALLEST) * (word.count - 1)) / Math.max(most - 1, 1);
    const node = element('li', { className: 'cloud-word', 'data-count': String(word.count), text: word.text, 'aria-label': `${word.text}: ${word.count}명` });
    node.style.fontSize = `${size.toFixed(2)}rem`;
    return node;
  });
}

function reviewRow(questionIndex: number, answer: ReviewAnswer, send: SendReview): HTMLElement {
  const right = element('button', { type: 'button', className: 'secondary review-right', 'data-testid': 'review-right', text: '정답', 'aria-pressed': String(answer.verdict === 'right') });
  const wrong = element('button', { type: 'button', className: 'secondary review-wrong', 'data-testid': 'review-wrong', text: '오답', 'aria-pressed': String(answer.verdict === 'wrong') });
  right.setAttribute('aria-label', `정답 (${answer.text})`);
  wrong.setAttribute('aria-label', `오답 (${answer.text})`);
  right.addEventListener('click', () => void send(right, { questionIndex, key: answer.key, correct: true }));
  wrong.addEventListener('click', () => void send(wrong, { questionIndex, key: answer.key, correct: false }));
  const verdict = answer.verdict === null ? '검토 전' : answer.verdict === 'right' ? '정답 처리' : '오답 처리';
  return element(
    'li',
    { className: 'review-answer', 'data-testid': 'review-answer', 'data-verdict': answer.verdict ?? '' },
    element('span', { className: 'review-text', text: answer.text }),
    element('span', { className: 'muted review-count', text: `${answer.count}명 · ${verdict}` }),
    right,
    wrong,
  );
}

/** Draws (or hides) the cloud and the review list of a reveal. */
export function drawTypedAnswers(reveal: RevealPayload, send: SendReview): void {
  const words = reveal.words ?? [];
  cloudCard.hidden = reveal.solution.type !== 'cloud';
  cloud.replaceChildren(...cloudNodes(words));
  const review = reveal.review;
  reviewCard.hidden = reveal.solution.type !== 'short' || review === undefined;
  reviewList.replaceChildren(...(review ?? []).map((answer) => reviewRow(reveal.question.index, answer, send)));
  reviewEmpty.hidden = (review?.length ?? 0) > 0;
}
