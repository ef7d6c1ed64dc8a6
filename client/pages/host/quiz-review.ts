// Quiz host, the EvalAgent gate's verdicts: every item of a generated quiz with 통과 / 미통과 /
// 검증 못 함, its three scores and the judge's feedback; a failed item has a "그래도 사용" checkbox that keeps it
// (POST /api/quizzes/:id/items/:itemId/keep). Only passed and kept items are played in rooms. Uploaded quizzes have no
// verdicts and show nothing here. Model text (questions, feedback) is only ever set as textContent.
import type { ItemReview, QuizItem } from '../../../src/protocol/wire/quiz.js';
import { $, element } from '../../ui/dom.js';
import { mathElement } from '../../ui/math.js';

/** What the list needs of a quiz (`POST …/quiz` 201, `GET /api/quizzes/:id`). */
export interface ReviewedQuiz {
  quizId: string;
  items: QuizItem[];
  reviews?: Record<string, ItemReview>;
}

/** Sends `{kept}` for one item and answers its updated review (throws an Error with a Korean message). */
export type KeepItem = (quizId: string, itemId: string, kept: boolean) => Promise<ItemReview>;

const panel = $('quiz-review');
const summary = $('quiz-review-summary');
const list = $('quiz-review-list');

/** Hides the list (no quiz chosen, or an uploaded quiz). */
export function clearQuizReview(): void {
  panel.hidden = true;
  summary.textContent = '';
  list.replaceChildren();
}

const usable = (review: ItemReview) => review.is_passed || review.kept;

function badge(review: ItemReview): HTMLElement {
  if (review.is_passed) return element('span', { className: 'review-badge passed', text: '통과', 'data-testid': 'review-badge' });
  if (!review.judged) return element('span', { className: 'review-badge unjudged', text: '검증 못 함', 'data-testid': 'review-badge' });
  return element('span', { className: 'review-badge failed', text: '미통과', 'data-testid': 'review-badge' });
}

function scores(review: ItemReview): HTMLElement {
  const score = (label: string, value: number | null) => element('span', { className: 'review-score', text: `${label} ${value === null ? '–' : `${value}/10`}` });
  return element(
    'span',
    { className: 'review-scores', 'data-testid': 'review-scores' },
    score('근거', review.grounding),
    score('교육', review.educational),
    score('실무', review.insight),
  );
}

/** The judge's words, or (no verdict) why in an instructor's terms: the stored reason is a technical one. */
function feedbackText(review: ItemReview): string {
  if (review.judged) return review.feedback;
  return '검증 모델의 판정을 받지 못했습니다. 문항을 직접 읽고 쓸지 정해 주세요.';
}

function renderSummary(quiz: ReviewedQuiz, reviews: Record<string, ItemReview>): void {
  const reviewed = quiz.items.filter((item) => item.quizId !== undefined && reviews[item.quizId] !== undefined);
  const passed = reviewed.filter((item) => reviews[item.quizId ?? '']?.is_passed).length;
  const kept = reviewed.filter((item) => reviews[item.quizId ?? '']?.kept && !reviews[item.quizId ?? '']?.is_passed).length;
  const playing = quiz.items.length - reviewed.length + passed + kept;
  summary.textContent = `AI 검증 통과 ${passed}/${reviewed.length}문항${kept > 0 ? ` · 그래도 사용 ${kept}문항` : ''} · 퀴즈 방에서는 ${playing}문항을 냅니다.`;
  summary.classList.toggle('error', playing === 0);
}

/** Lists the quiz's items with their verdicts; hides the list when the quiz has none (an uploaded quiz). */
export function showQuizReview(quiz: ReviewedQuiz, keep: KeepItem): void {
  const reviews = { ...(quiz.reviews ?? {}) };
  if (Object.keys(reviews).length === 0) {
    clearQuizReview();
    return;
  }
  panel.hidden = false;
  renderSummary(quiz, reviews);
  list.replaceChildren(
    ...quiz.items.map((item, index) => {
      const review = item.quizId === undefined ? undefined : reviews[item.quizId];
      const head = element('div', { className: 'review-head' }, element('strong', { text: `${index + 1}. ` }), mathElement('span', { className: 'review-question' }, item.question));
      if (!review) return element('li', { className: 'review-item', 'data-testid': 'review-item' }, head, element('p', { className: 'hint', text: '직접 올린 문항입니다.' }));
      const row = element('li', { className: `review-item${usable(review) ? '' : ' unused'}`, 'data-testid': 'review-item', 'data-item': item.quizId ?? '' });
      row.append(head, element('div', { className: 'review-verdict' }, badge(review), scores(review)));
      row.append(element('p', { className: 'review-feedback', text: feedbackText(review), 'data-testid': 'review-feedback' }));
      if (!review.is_passed) {
        const box = element('input', { type: 'checkbox', checked: review.kept, 'data-testid': 'review-keep' });
        const error = element('span', { className: 'review-error error', role: 'alert' });
        box.addEventListener('change', () => {
          const wanted = box.checked;
          box.disabled = true;
          error.textContent = '';
          keep(quiz.quizId, item.quizId ?? '', wanted)
            .then((updated) => {
              reviews[item.quizId ?? ''] = updated;
              box.checked = updated.kept;
              row.classList.toggle('unused', !usable(updated));
              renderSummary(quiz, reviews);
            })
            .catch((failure: unknown) => {
              box.checked = !wanted;
              error.textContent = failure instanceof Error ? failure.message : String(failure);
            })
            .finally(() => {
              box.disabled = false;
            });
        });
        row.append(element('label', { className: 'check review-keep' }, box, ' 그래도 사용 (검증을 통과하지 못했지만 퀴즈 방에서 냅니다)'), error);
      }
      return row;
    }),
  );
}
