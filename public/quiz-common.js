// Shared bits of the live quiz pages (host.html, play.html) and the instructor monitor (monitor.html): DOM building
// with textContent only (every question, choice and nickname is untrusted), the acked command wrapper, the connection
// badge, the status line, the countdown driven by the server's remainingMs, the four choice colours/shapes,
// bearer-token downloads (tokens never go in URLs, so a results link is fetched with the header and saved as a blob),
// and the lists this browser keeps in localStorage (the instructor's classes, the rooms it hosts).

import { element } from './dom.js';

export { $, ACK_TIMEOUT_MS, element, sendCommand } from './dom.js';

/** The four choices: colour and shape together, so the choice never rests on colour alone. */
export const CHOICES = [
  { key: 'red', shape: '▲', name: '빨강 세모' },
  { key: 'blue', shape: '◆', name: '파랑 마름모' },
  { key: 'yellow', shape: '●', name: '노랑 동그라미' },
  { key: 'green', shape: '■', name: '초록 네모' },
];

export const PHASE_LABELS = {
  lobby: '대기실',
  preview: '문제 미리 보기',
  open: '답하는 중',
  reveal: '정답 공개',
  leaderboard: '순위',
  podium: '시상대',
  ended: '끝남',
};

/** Korean fallbacks for error codes, when the server's message is missing (timeouts, offline). */
export const FALLBACK_MESSAGES = {
  RATE_LIMITED: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  INVALID_PAYLOAD: '보낸 내용이 올바르지 않습니다.',
  UNAUTHORIZED: '입장 권한이 만료되었습니다.',
  FORBIDDEN: '이 일을 할 수 있는 권한이 없습니다.',
  ROOM_NOT_FOUND: '퀴즈 방을 찾을 수 없습니다.',
  ROOM_LOCKED: '방이 잠겨 있어 들어갈 수 없습니다.',
  ROOM_FULL: '방이 가득 찼습니다.',
  ROOM_STARTED: '이미 시작된 퀴즈에는 들어갈 수 없습니다.',
  ROOM_ENDED: '이미 끝난 퀴즈입니다.',
  NICKNAME_TAKEN: '이미 쓰이는 닉네임입니다. 다른 닉네임을 골라 주세요.',
  WRONG_PHASE: '지금은 할 수 없는 일입니다.',
  QUESTION_NOT_OPEN: '지금은 이 문제에 답할 수 없습니다.',
  ROOM_PAUSED: '퀴즈가 잠시 멈췄습니다. 다시 시작하면 답해 주세요.',
  LATE: '시간이 지나 답을 받을 수 없습니다.',
  KICKED: '진행자가 이 방에서 내보냈습니다.',
  PLAYER_NOT_FOUND: '이 방의 참가자가 아닙니다.',
  QUIZ_NOT_FOUND: '퀴즈를 찾을 수 없습니다.',
  MATERIAL_NOT_FOUND: '강의 자료를 찾을 수 없습니다.',
};

export const errorText = (error, fallback) => error?.message || FALLBACK_MESSAGES[error?.code] || fallback;

/** Shows one of several screens (elements with `data-screen`) inside `root`. */
export function showScreen(root, name) {
  root.dataset.screen = name;
  for (const screen of root.querySelectorAll('[data-screen]')) screen.hidden = screen.dataset.screen !== name;
}

export function setConnection(node, state) {
  node.dataset.state = state;
  node.textContent = { connected: '실시간 연결됨', connecting: '연결 중…', reconnecting: '다시 연결 중…', offline: '연결 끊김' }[state];
}

/** A page's status line (`node`): one message, optionally followed by an action button. */
export function statusLine(node) {
  return {
    show(message, action = null) {
      node.replaceChildren(element('span', { text: message }), ...(action ? [action] : []));
      node.hidden = false;
    },
    hide() {
      node.hidden = true;
      node.replaceChildren();
    },
  };
}

/**
 * The question timer. The server sends the remaining time (not a clock time, so the devices' clocks never matter);
 * the page counts it down locally and freezes it while paused. `bar` is scaled by the share of `totalMs` left.
 */
export class Countdown {
  constructor({ bar, label, root }) {
    this.bar = bar;
    this.label = label;
    this.root = root;
    this.timer = 0;
    this.endsAt = 0;
    this.remaining = 0;
    this.total = 1;
    this.paused = false;
    this.warn = true;
  }

  /** `warn`: turn the bar red in the last five seconds (answer time, not the short preview). */
  set(remainingMs, totalMs, paused, warn = true) {
    this.stop();
    this.warn = warn;
    this.total = Math.max(totalMs, 1);
    this.remaining = Math.max(remainingMs, 0);
    this.paused = paused;
    this.endsAt = performance.now() + this.remaining;
    this.root.dataset.paused = String(paused);
    this.draw();
    if (!paused) this.timer = setInterval(() => this.draw(), 100);
  }

  draw() {
    if (!this.paused) this.remaining = Math.max(this.endsAt - performance.now(), 0);
    const seconds = Math.ceil(this.remaining / 1000);
    this.label.textContent = String(seconds);
    this.root.dataset.seconds = String(seconds);
    this.bar.style.width = `${Math.min(100, (this.remaining / this.total) * 100)}%`;
    this.root.classList.toggle('low', this.warn && !this.paused && this.remaining <= 5_000);
    if (this.remaining <= 0) this.stop();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = 0;
  }
}

/** The four choice tiles (host) or buttons (player) for a question, with shape, colour and untrusted text. */
export function choiceNodes(choices, tag, extra = () => ({})) {
  return choices.map((text, index) => {
    const meta = CHOICES[index];
    return element(
      tag,
      { className: `choice choice-${meta.key}`, 'data-choice': String(index), 'data-testid': 'choice', ...extra(index) },
      element('span', { className: 'choice-shape', 'aria-hidden': 'true', text: meta.shape }),
      element('span', { className: 'choice-text', text }),
    );
  });
}

/** The answer distribution as horizontal bars (plain CSS), the correct choice marked. */
export function distributionChart(distribution, correctChoice, choices) {
  const most = Math.max(1, ...distribution);
  return element(
    'ol',
    { className: 'distribution', 'data-testid': 'distribution', 'aria-label': '보기별 응답 수' },
    ...distribution.map((count, index) => {
      const meta = CHOICES[index];
      const correct = index === correctChoice;
      const fill = element('span', { className: 'dist-fill' });
      fill.style.width = `${(count / most) * 100}%`;
      return element(
        'li',
        {
          className: `dist-row choice-${meta.key}`,
          'data-testid': 'dist-row',
          'data-choice': String(index),
          'data-count': String(count),
          'data-correct': String(correct),
          'aria-label': `${meta.shape} ${choices[index] ?? ''}: ${count}명${correct ? ' (정답)' : ''}`,
        },
        element('span', { className: 'dist-label', 'aria-hidden': 'true' }, element('span', { className: 'choice-shape', text: meta.shape }), correct ? element('span', { className: 'dist-mark', text: '정답' }) : null),
        element('span', { className: 'dist-bar', 'aria-hidden': 'true' }, fill),
        element('span', { className: 'dist-count', 'aria-hidden': 'true', text: `${count}명` }),
      );
    }),
  );
}

/** Leaderboard rows; `youId` marks the viewer's own row. */
export function leaderboardRows(rows, youId = null) {
  return rows.map((row) =>
    element(
      'li',
      { className: 'rank-row', 'data-testid': 'rank-row', 'data-rank': String(row.rank), 'data-you': String(row.playerId === youId) },
      element('span', { className: 'rank-no', text: `${row.rank}` }),
      element('span', { className: 'rank-name', text: row.nickname }),
      element('span', { className: 'rank-score', text: `${row.score.toLocaleString('ko-KR')}점` }),
    ),
  );
}

/** Podium columns in the usual 2-1-3 order. */
export function podiumNodes(top) {
  const [first, second, third] = top;
  return [second, first, third]
    .map((row, slot) => {
      if (!row) return null;
      const place = [2, 1, 3][slot];
      return element(
        'li',
        { className: `podium-place place-${place}`, 'data-testid': 'podium-place', 'data-place': String(place) },
        element('span', { className: 'podium-name', 'data-testid': 'podium-name', text: row.nickname }),
        element('span', { className: 'podium-score', text: `${row.score.toLocaleString('ko-KR')}점` }),
        element('span', { className: 'podium-block', text: `${place}위` }),
      );
    })
    .filter(Boolean);
}

/**
 * Fetches `url` with `Authorization: Bearer <token>` and saves the body as `filename`. Resolves with null, or with
 * a Korean error message.
 */
export async function downloadWithToken(url, token, filename) {
  let response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch {
    return '서버에 연결할 수 없습니다.';
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    return errorText(body.error, `내려받지 못했습니다 (HTTP ${response.status}).`);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = element('a', { href, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return null;
}

// ---- stored classes and rooms --------------------------------------------------------------------------------

/** Rooms this browser hosts: [{ roomId, code, hostToken, title, classId, createdAt }] (the host token re-opens). */
export const HOST_ROOMS_KEY = 'lectern.host.rooms';
const MAX_HOSTED_ROOMS = 20;
/** The instructor's classes, written by monitor.js: [{ classId, code, instructorToken, name, … }]. */
export const CLASSES_KEY = 'lectern.monitor.classes';
/** The classId of the class open in the monitor; the host page preselects it. */
export const CURRENT_CLASS_KEY = 'lectern.monitor.current';

export function readList(key, valid) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(saved) ? saved.filter((entry) => entry && typeof entry === 'object' && valid(entry)) : [];
  } catch {
    return [];
  }
}

export function writeList(key, list) {
  try {
    localStorage.setItem(key, JSON.stringify(list));
  } catch {
    // No storage (private mode): it works until the page is closed.
  }
}

export const hostedRooms = () => readList(HOST_ROOMS_KEY, (entry) => typeof entry.roomId === 'string' && typeof entry.hostToken === 'string');

export function rememberHostedRoom(entry) {
  writeList(HOST_ROOMS_KEY, [entry, ...hostedRooms().filter((other) => other.roomId !== entry.roomId)].slice(0, MAX_HOSTED_ROOMS));
}

export function updateHostedRoom(roomId, changes) {
  writeList(
    HOST_ROOMS_KEY,
    hostedRooms().map((entry) => (entry.roomId === roomId ? { ...entry, ...changes } : entry)),
  );
}

export function forgetHostedRoom(roomId) {
  writeList(HOST_ROOMS_KEY, hostedRooms().filter((entry) => entry.roomId !== roomId));
}

export const storedClasses = () => readList(CLASSES_KEY, (entry) => typeof entry.classId === 'string' && typeof entry.instructorToken === 'string');
