// Quiz host, the lobby as projected: the join code, link and QR, the lock badge, and the players as chips with a kick
// button. Drawing only: the room (host/room.ts) holds the state and sends the commands. Nicknames are untrusted:
// they reach the DOM as textContent only.
import type { PlayerSummary } from '../../../src/protocol/wire/index.js';
import { $, element } from '../../ui/dom.js';
import { joinBase } from './public-address.js';

const roomCode = $('room-code');
const joinHost = $('join-host');
const joinUrl = $<HTMLAnchorElement>('join-url');
const joinQr = $<HTMLImageElement>('join-qr');
const playerCount = $('player-count');
const lockBadge = $('lock-badge');
const lockButton = $('lock-button');
const playerList = $('players');
const playersEmpty = $('players-empty');

/** The join panel and the lock state from the room's latest snapshot. */
export function renderLobbyInfo(info: { code: string; locked: boolean }): void {
  const base = joinBase();
  const link = `${base}/play.html?code=${info.code}`;
  roomCode.textContent = info.code;
  roomCode.setAttribute('aria-label', `참여 코드 ${info.code.split('').join(' ')}`);
  joinHost.textContent = `${base.replace(/^https?:\/\//, '')}/play.html`;
  joinUrl.href = link;
  joinUrl.textContent = link;
  const qr = `/api/rooms/join-qr.svg?code=${info.code}`;
  if (joinQr.getAttribute('src') !== qr) joinQr.src = qr;
  lockBadge.hidden = !info.locked;
  lockButton.textContent = info.locked ? '잠금 풀기' : '방 잠그기';
  lockButton.dataset.locked = String(info.locked);
}

/** Player chips, keyed by player id: an update moves, adds or removes chips without redrawing (and re-animating) all. */
const playerChips = new Map<string, { node: HTMLLIElement; dot: HTMLElement; extra: HTMLButtonElement | null }>();

/** A new room: no chips. */
export function clearPlayers(): void {
  playerChips.clear();
  playerList.replaceChildren();
}

/** The player chips in the server's order; `onKick(button, playerId)` runs once the host confirms a kick. */
/** The extra seconds a host can grant, in the order the button cycles through them (an accommodation; 0: none). */
const EXTRA_STEPS = [0, 10, 20, 30, 60];

export function renderPlayers(
  players: PlayerSummary[],
  count: number,
  onKick: (button: HTMLButtonElement, playerId: string) => Promise<unknown>,
  onExtra?: (button: HTMLButtonElement, playerId: string, seconds: number) => Promise<unknown>,
): void {
  playerCount.textContent = String(count);
  playersEmpty.hidden = players.length > 0;
  const wanted = new Set(players.map((player) => player.playerId));
  for (const [playerId, chip] of playerChips) {
    if (wanted.has(playerId)) continue;
    chip.node.remove();
    playerChips.delete(playerId);
  }
  players.forEach((player, position) => {
    let chip = playerChips.get(player.playerId);
    if (!chip) playerChips.set(player.playerId, (chip = playerChip(player, onKick, onExtra)));
    chip.node.dataset.connected = String(player.connected);
    const extra = player.extraSeconds ?? 0;
    chip.node.dataset.extra = String(extra);
    if (chip.extra) {
      chip.extra.textContent = extra > 0 ? `⏱ +${extra}초` : '⏱';
      chip.extra.setAttribute('aria-label', `${player.nickname} 추가 시간: ${extra > 0 ? `${extra}초` : '없음'} (누르면 바꿈)`);
    }
    const label = player.connected ? '접속 중' : '접속 끊김';
    chip.dot.title = label;
    chip.dot.setAttribute('aria-label', label);
    if (playerList.children[position] !== chip.node) playerList.insertBefore(chip.node, playerList.children[position] ?? null);
  });
}

function playerChip(
  player: PlayerSummary,
  onKick: (button: HTMLButtonElement, playerId: string) => Promise<unknown>,
  onExtra?: (button: HTMLButtonElement, playerId: string, seconds: number) => Promise<unknown>,
): { node: HTMLLIElement; dot: HTMLElement; extra: HTMLButtonElement | null } {
  const kick = element('button', { type: 'button', className: 'kick', text: '✕', title: '내보내기', 'aria-label': `${player.nickname} 내보내기`, 'data-testid': 'kick' });
  kick.addEventListener('click', async () => {
    if (!window.confirm(`${player.nickname} 님을 이 방에서 내보낼까요? 같은 기기로 다시 들어올 수 없습니다.`)) return;
    await onKick(kick, player.playerId);
  });
  const dot = element('span', { className: 'dot', role: 'img' });
  // Extra time from the next question on (문제마다 추가 시간): the server keeps it and counts the player's answers by it.
  const extra = onExtra ? element('button', { type: 'button', className: 'extra-time', 'data-testid': 'extra-time', text: '⏱' }) : null;
  extra?.addEventListener('click', async () => {
    const current = Number(node.dataset.extra ?? '0');
    const next = EXTRA_STEPS[(EXTRA_STEPS.indexOf(current) + 1) % EXTRA_STEPS.length] ?? 0;
    await onExtra?.(extra, player.playerId, next);
  });
  const node = element(
    'li',
    { className: 'player', 'data-testid': 'player-item', 'data-player-id': player.playerId },
    dot,
    element('span', { className: 'player-name', 'data-testid': 'player-name', text: player.nickname }),
    extra,
    kick,
  );
  return { node, dot, extra };
}
