// The class's quiz rooms on the monitor (GET /api/rooms, newest first) with their results, and the host page link
// where this browser hosts. A reload shows the first page again; "더 보기" appends the next one.
import type { Phase } from '../../../src/protocol/wire/index.js';
import { fetchPage, requestFailure } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { downloadWithToken } from '../../ui/download.js';
import { whileBusy } from '../../ui/forms.js';
import { PHASE_LABELS } from '../../ui/quiz-pieces.js';
import { hostedRooms } from '../../ui/stored-lists.js';

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

/** Rooms shown per page. */
const QUIZ_ROOMS_PAGE = 20;

const list = $('quiz-room-list');
const empty = $('quiz-rooms-empty');
const errorLine = $('quiz-rooms-error');
const more = $('quiz-rooms-more');

export class QuizRooms {
  private cursor: string | null = null;

  /** `current()`: the open class's id and instructor token, or null once it closed. */
  constructor(private readonly current: () => { classId: string; instructorToken: string } | null) {
    $('quiz-rooms-refresh').addEventListener('click', () => void this.load());
    more.addEventListener('click', () => void this.load({ more: true }));
  }

  clear(): void {
    list.replaceChildren();
    more.hidden = true;
  }

  async load({ more: next = false } = {}): Promise<void> {
    const entry = this.current();
    if (!entry) return;
    const stillOpen = () => this.current()?.classId === entry.classId;
    let page;
    try {
      page = await fetchPage<RoomListing>('/api/rooms', 'rooms', {
        limit: QUIZ_ROOMS_PAGE,
        cursor: next ? this.cursor : null,
        headers: { authorization: `Bearer ${entry.instructorToken}` },
      });
    } catch (error) {
      if (stillOpen()) errorLine.textContent = requestFailure(error);
      return;
    }
    if (!stillOpen()) return;
    errorLine.textContent = '';
    const hosted = new Set(hostedRooms.all().map((room) => room.roomId));
    const items = page.items.map((room) => this.item(room, hosted.has(room.roomId), entry.instructorToken));
    if (next) list.append(...items);
    else list.replaceChildren(...items);
    this.cursor = page.nextCursor;
    more.hidden = !this.cursor;
    empty.hidden = list.children.length > 0;
  }

  private item(room: RoomListing, hostedHere: boolean, token: string): HTMLLIElement {
    const created = new Date(room.createdAt).toLocaleString('ko-KR', { dateStyle: 'medium', timeStyle: 'short' });
    const actions = element('div', { className: 'quiz-room-actions' });
    if (hostedHere) {
      actions.append(
        element('a', { href: `/host.html#room=${encodeURIComponent(room.roomId)}`, text: room.phase === 'ended' ? '진행 화면' : '진행 화면 열기', 'data-testid': 'quiz-room-host' }),
      );
    }
    const downloads: [string, string, string][] = [
      ['csv', room.csvUrl, '결과 CSV'],
      ['json', room.resultsUrl, '결과 JSON'],
    ];
    for (const [kind, url, label] of downloads) {
      const button = element('button', { type: 'button', className: 'secondary small', text: label, 'data-testid': `quiz-room-${kind}` });
      button.addEventListener('click', async () => {
        const failure = await whileBusy(button, null, () => downloadWithToken(url, token, `quiz-${room.code}-results.${kind}`));
        errorLine.textContent = failure ?? '';
      });
      actions.append(button);
    }
    return element(
      'li',
      { className: 'quiz-room', 'data-testid': 'quiz-room', 'data-room-id': room.roomId, 'data-phase': room.phase },
      element(
        'div',
        { className: 'quiz-room-text' },
        element('strong', { text: room.title }),
        element('span', { className: 'muted', text: `코드 ${room.code} · 참가자 ${room.players}명 · ${created}` }),
      ),
      element('span', { className: 'badge phase', 'data-phase': room.phase, text: PHASE_LABELS[room.phase] ?? room.phase }),
      actions,
    );
  }
}
