import { $, element } from '../../ui/dom.js';

const MAX_ANNOUNCEMENTS = 3;
const announcements = $('announcements');
const TEST_IDS = { announcement: 'announcement', ack: 'hand-ack-toast', closed: 'class-closed' } as const;
const TITLES = { announcement: '선생님 공지', ack: '✓ 선생님', closed: '수업 종료' } as const;

/**
 * A notice from the class's instructor (`kind: 'ack'`: the raised hand was seen; `closed`: the class ended); the three
 * newest stay.
 */
export function showAnnouncement(text: string, at: number | undefined, kind: 'announcement' | 'ack' | 'closed' = 'announcement'): void {
  const time = new Date(typeof at === 'number' ? at : Date.now()).toLocaleTimeString('ko-KR', { hour: '2-digit', minute: '2-digit' });
  const close = element('button', { type: 'button', className: 'announcement-close', 'aria-label': '공지 닫기', text: '×' });
  // One line until tapped (classroom.css): a long notice under the sticky toolbar must not cover the lesson or the
  // exam's countdown on a phone. A tap (or Enter) opens it whole and closes it again.
  const body = element('p', { text, tabIndex: 0, role: 'button', 'aria-expanded': 'false', title: '눌러서 공지 전체 보기' });
  const item = element(
    'div',
    { className: `announcement announcement-${kind}`, 'data-testid': TEST_IDS[kind], 'data-open': 'false' },
    element('strong', { text: TITLES[kind] }),
    body,
    element('time', { className: 'muted', text: time }),
    close,
  );
  const toggle = () => {
    const open = item.dataset.open !== 'true';
    item.dataset.open = String(open);
    body.setAttribute('aria-expanded', String(open));
  };
  body.addEventListener('click', toggle);
  body.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle();
    }
  });
  close.addEventListener('click', () => item.remove());
  announcements.append(item);
  while (announcements.childElementCount > MAX_ANNOUNCEMENTS) announcements.firstElementChild?.remove();
}

export function clearAnnouncements(): void {
  announcements.replaceChildren();
}
