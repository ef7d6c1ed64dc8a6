// The quiz rooms hanging off a card of the dashboard (a class of "내 수업", a quiz of "내 퀴즈"): a `<details>` that
// reads `GET /api/rooms?classId=|quizId=` the first time it is opened, newest first, 20 at a time with "더 보기",
// each room with its title, code, phase, players and a link to its results as CSV.
import type { Phase } from '../../../src/protocol/wire/index.js';
import { fetchPage, requestFailure } from '../../net/http.js';
import { element } from '../../ui/dom.js';
import { PHASE_LABELS } from '../../ui/quiz-pieces.js';

/** One room of `GET /api/rooms`. */
interface RoomListing {
  roomId: string;
  code: string;
  title: string;
  phase: Phase;
  players: number;
  createdAt: number;
  resultsUrl: string;
  csvUrl: string;
}

const ROOMS_PAGE = 20;

export interface RoomListOptions {
  /** The `<summary>` text, e.g. "퀴즈 방과 결과". */
  summary: string;
  /** Which rooms: `{classId}` or `{quizId}`. */
  query: { classId: string } | { quizId: string };
  /** What to say when there are none. */
  empty: string;
  className?: string;
  testId?: string;
}

/** A closed `<details>` listing the rooms of `query` once it is opened (nothing is read before). */
export function roomListDetails({ summary, query, empty, className = 'class-rooms', testId }: RoomListOptions): HTMLDetailsElement {
  const list = element('ul', { className: 'room-entries' });
  const status = element('p', { className: 'muted', text: '불러오는 중…' });
  const more = element('button', { type: 'button', className: 'secondary small', text: '더 보기', hidden: true });
  const box = element('details', { className, 'data-testid': testId }, element('summary', { text: summary }), status, list, more);
  let cursor: string | null = null;
  let started = false;

  const load = async (): Promise<void> => {
    more.disabled = true;
    try {
      const page = await fetchPage<RoomListing>('/api/rooms', 'rooms', { limit: ROOMS_PAGE, cursor, query });
      cursor = page.nextCursor;
      list.append(...page.items.map(roomEntry));
      status.className = 'muted';
      status.textContent = list.childElementCount === 0 ? empty : '';
      status.hidden = list.childElementCount > 0;
      more.hidden = !cursor;
    } catch (error) {
      status.className = 'error';
      status.textContent = requestFailure(error);
      status.hidden = false;
      // A first page that failed is asked again when the box is opened again.
      if (list.childElementCount === 0) started = false;
    } finally {
      more.disabled = false;
    }
  };

  box.addEventListener('toggle', () => {
    if (!box.open || started) return;
    started = true;
    void load();
  });
  more.addEventListener('click', () => void load());
  return box;
}

function roomEntry(room: RoomListing): HTMLLIElement {
  return element(
    'li',
    { 'data-testid': 'dashboard-room', 'data-room-id': room.roomId },
    `${room.title} (코드 ${room.code}) · ${PHASE_LABELS[room.phase] ?? room.phase} · 참가 ${room.players}명 `,
    element('a', { className: 'room-csv', href: room.csvUrl, download: '', 'data-testid': 'room-csv', text: '결과 CSV' }),
  );
}
