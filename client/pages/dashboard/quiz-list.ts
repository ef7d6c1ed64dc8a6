// "내 퀴즈" on the dashboard: the account's quizzes from `GET /api/quizzes` (newest first, 20 at a time, "더 보기" for
// the next page), each with its number of items, its class (by name; "수업 없음" outside any class), when it was
// made, a link that opens the quiz host on it, and on demand the rooms it was played in with their results.
import type { QuizSummary } from '../../../src/protocol/wire/index.js';
import { allClasses } from '../../net/classes.js';
import { fetchPage, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { createdLabel } from '../../ui/remembered-list.js';
import { roomListDetails } from './room-list.js';

const QUIZZES_PAGE = 20;

export interface QuizListElements {
  list: HTMLElement;
  empty: HTMLElement;
  error: HTMLElement;
  more: HTMLButtonElement;
}

/** Fills "내 퀴즈" with the first page and wires its "더 보기". Call once the account is known. */
export function startQuizList({ list, empty, error, more }: QuizListElements): void {
  let cursor: string | null = null;
  // Every class of the account, by id: a quiz names its class by id only, and may be of a class on a later page of
  // "내 수업". Read once; until it answers (or if it fails) a card says so instead of a name.
  const classNames = allClasses().then(
    (classes) => new Map(classes.map((entry) => [entry.classId, entry.name])),
    () => null,
  );

  const load = async (next: boolean): Promise<void> => {
    error.textContent = '';
    more.disabled = true;
    try {
      const page = await fetchPage<QuizSummary>('/api/quizzes', 'quizzes', { limit: QUIZZES_PAGE, cursor: next ? cursor : null });
      cursor = page.nextCursor;
      more.hidden = !cursor;
      const names = await classNames;
      const cards = page.items.map((quiz) => quizCard(quiz, names));
      if (next) list.append(...cards);
      else list.replaceChildren(...cards);
      empty.hidden = list.childElementCount > 0;
    } catch (failure) {
      error.textContent = requestFailure(failure);
    } finally {
      more.disabled = false;
    }
  };

  more.addEventListener('click', () => void load(true));
  void load(false);
}

function classLine(classId: string, names: Map<string, string> | null): string {
  if (classId === '') return '수업 없음';
  return `수업: ${names?.get(classId) ?? '이름을 불러오지 못함'}`;
}

function quizCard(quiz: QuizSummary, names: Map<string, string> | null): HTMLLIElement {
  // The quiz host opens rooms with a class's token, so only a quiz of a class can be played from there.
  const host =
    quiz.classId === ''
      ? null
      : element('a', {
          href: `/host.html?class=${encodeURIComponent(quiz.classId)}&quiz=${encodeURIComponent(quiz.quizId)}`,
          'data-testid': 'quiz-host',
          text: '퀴즈 진행',
        });
  return element(
    'li',
    { className: 'class-card', 'data-testid': 'dashboard-quiz', 'data-quiz-id': quiz.quizId, 'data-class-id': quiz.classId },
    element('h3', { text: quiz.title }),
    element(
      'p',
      { className: 'muted' },
      `${quiz.itemCount}문제 · `,
      element('span', { 'data-testid': 'quiz-class', text: classLine(quiz.classId, names) }),
      ` · ${createdLabel(quiz.createdAt)}`,
    ),
    host && element('div', { className: 'class-links' }, host),
    roomListDetails({ summary: '방과 결과', query: { quizId: quiz.quizId }, empty: '이 퀴즈로 연 방이 없습니다.', testId: 'quiz-rooms' }),
  );
}
