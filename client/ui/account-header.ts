/**
 * The top of every instructor page: who is signed in, the instructor's places (내 수업, 자료, 퀴즈, AI 품질, 계정) and 로그아웃.
 * `requireSignedIn` is the gate of those pages: a visitor without a session is sent to the sign-in page, which sends
 * them back here afterwards.
 */
import { me, signInUrl, signOut, type AccountView } from '../net/account.js';
import { requestFailure } from '../net/http.js';
import { element } from './dom.js';

const PLACES: Array<[href: string, label: string]> = [
  ['/dashboard.html', '내 수업'],
  ['/upload.html', '내 자료'],
  ['/host.html', '퀴즈 진행'],
  ['/quality.html', 'AI 품질'],
  ['/account.html', '계정'],
];

/**
 * The signed-in account, its header drawn. Without a session the browser goes to sign-in and the returned promise
 * never settles (nothing of the page runs for a visitor).
 */
export async function requireSignedIn(): Promise<AccountView> {
  let account: AccountView | null;
  try {
    account = await me();
  } catch (error) {
    showHeaderError(requestFailure(error));
    return new Promise<never>(() => undefined);
  }
  if (!account) {
    location.replace(signInUrl());
    return new Promise<never>(() => undefined);
  }
  drawHeader(account);
  return account;
}

function header(): HTMLElement {
  const top = document.querySelector<HTMLElement>('header.top');
  if (!top) throw new Error('header.top is missing from the page');
  return top;
}

function showHeaderError(message: string): void {
  header().append(element('span', { className: 'error', role: 'alert', text: message }));
}

function drawHeader(account: AccountView): void {
  const top = header();
  // Drawn again after an upload or a refresh: the header holds one menu and one account box, never two.
  top.querySelector('nav')?.remove();
  top.querySelector('.account-box')?.remove();
  const nav = element('nav', { 'aria-label': '강사 메뉴' }, ...PLACES.map(([href, label]) => element('a', { href, text: label, ...(location.pathname === href ? { 'aria-current': 'page' } : {}) })));
  const signOutButton = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'sign-out', text: '로그아웃' });
  signOutButton.addEventListener('click', async () => {
    signOutButton.disabled = true;
    try {
      await signOut();
      location.assign('/signin.html');
    } catch (error) {
      signOutButton.disabled = false;
      showHeaderError(requestFailure(error));
    }
  });
  const who = element('div', { className: 'account-box' }, element('span', { className: 'account-email', 'data-testid': 'account-email', text: account.email }), signOutButton);
  top.append(nav, who);
}
