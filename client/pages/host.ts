// Quiz host page (the projector): the entry that picks the screen from the URL hash. No room → the setup
// (host/setup.ts: pick or make a quiz, open a room); `#room=<id>` of a room this browser hosts → the live room
// (host/room.ts). The host token is kept in localStorage under the room id and the room id sits in the hash, so a
// reload reconnects and the server's `room:state` snapshot redraws whatever phase the room is in.
import '../ui/storage-fallback.js';
import { requireSignedIn } from '../ui/account-header.js';
import { $ } from '../ui/dom.js';
import { hostedRooms } from '../ui/stored-lists.js';
import { closeRoom, openRoom } from './host/room.js';
import { loadPublicAddress } from './host/public-address.js';
import { showSetup } from './host/setup.js';

const setup = $('setup');
const game = $('game');

const roomIdFromHash = () => new URLSearchParams(location.hash.slice(1)).get('room');

function route(): void {
  const roomId = roomIdFromHash();
  if (!roomId) {
    showSetupScreen();
    return;
  }
  const entry = hostedRooms.all().find((saved) => saved.roomId === roomId);
  if (!entry) {
    showSetupScreen('이 브라우저에는 이 방의 진행자 정보가 없습니다. 방을 만든 브라우저에서 열거나 새 방을 만들어 주세요.');
    return;
  }
  setup.hidden = true;
  game.hidden = false;
  openRoom(entry);
}

function showSetupScreen(notice = ''): void {
  closeRoom();
  game.hidden = true;
  setup.hidden = false;
  showSetup(notice);
}

window.addEventListener('hashchange', route);
// The join link needs PUBLIC_URL before the lobby draws it: one small request, then the screen.
// Signed-out visitors go to sign-in first (the classes and quizzes are the account's).
void requireSignedIn().then(loadPublicAddress).then(route);
