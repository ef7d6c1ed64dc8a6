// Account page: change the password, personal API keys (the secret is shown once, at creation), sign out here or
// everywhere, and for the admin: invite links, the instructors' list with disable/enable and one-time reset links.
// Every request goes through net/http.ts (cookie + CSRF header). Server text reaches the DOM as textContent only.
import type { AccountListEntry, AccountView, ApiTokenView, ClosedDoorsReply, CreatedApiToken } from '../../src/protocol/wire/index.js';
import { closedDoorsText, signOut } from '../net/account.js';
import { apiJson, fetchPage, requestFailure } from '../net/http.js';
import { requireSignedIn } from '../ui/account-header.js';
import { $, element } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';
import { createdLabel } from '../ui/remembered-list.js';
import { showLtiSection } from './account/lti-platforms.js';

const summary = $('account-summary');
const sessionError = $('session-error');
const passwordForm = $<HTMLFormElement>('password-form');
const currentPassword = $<HTMLInputElement>('current-password');
const nextPassword = $<HTMLInputElement>('next-password');
const passwordStatus = $('password-status');
const passwordRevokeKeys = $<HTMLInputElement>('password-revoke-keys');
const passwordEndSessions = $<HTMLInputElement>('password-end-sessions');
const keyForm = $<HTMLFormElement>('key-form');
const keyName = $<HTMLInputElement>('key-name');
const keySecretBox = $('key-secret-box');
const keySecret = $('key-secret');
const keyStatus = $('key-status');
const keyList = $('key-list');
const admin = $('admin');
const inviteBox = $('invite-box');
const inviteUrl = $('invite-url');
const inviteStatus = $('invite-status');
const accountList = $('account-list');
const accountsMore = $<HTMLButtonElement>('accounts-more');
const adminStatus = $('admin-status');

function say(line: HTMLElement, text: string, kind: 'good' | 'error' | '' = ''): void {
  line.textContent = text;
  line.className = kind;
}

// ---- sessions ------------------------------------------------------------------------------------------------------

for (const [id, everywhere] of [['signout-here', false], ['signout-all', true]] as const) {
  const button = $<HTMLButtonElement>(id);
  button.addEventListener('click', async () => {
    if (everywhere && !window.confirm('이 계정으로 로그인한 모든 브라우저에서 로그아웃하고 열려 있는 수업·퀴즈 화면의 접속도 끝낼까요? API 키는 계속 쓸 수 있습니다.')) return;
    await whileBusy(button, null, async () => {
      try {
        await signOut(everywhere);
        location.assign('/signin.html');
      } catch (error) {
        say(sessionError, requestFailure(error), 'error');
      }
    });
  });
}

// ---- password ------------------------------------------------------------------------------------------------------

passwordForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  await whileBusy($<HTMLButtonElement>('password-button'), '바꾸는 중…', async () => {
    try {
      const closed = await apiJson<ClosedDoorsReply>('/api/auth/password', {
        method: 'POST',
        body: { current: currentPassword.value, next: nextPassword.value, revokeApiKeys: passwordRevokeKeys.checked, endSessions: passwordEndSessions.checked },
      });
      currentPassword.value = '';
      nextPassword.value = '';
      say(passwordStatus, `비밀번호를 바꾸었습니다. ${closedDoorsText(closed)}`, 'good');
      if (closed.revokedApiKeys > 0) await loadKeys();
    } catch (error) {
      say(passwordStatus, requestFailure(error), 'error');
    }
  });
});

// ---- API keys ------------------------------------------------------------------------------------------------------

async function loadKeys(): Promise<void> {
  try {
    const { tokens } = await apiJson<{ tokens: ApiTokenView[] }>('/api/auth/tokens');
    keyList.replaceChildren(...(tokens.length ? tokens.map(keyRow) : [element('li', { className: 'muted', text: '만든 API 키가 없습니다.' })]));
  } catch (error) {
    say(keyStatus, requestFailure(error), 'error');
  }
}

function keyRow(key: ApiTokenView): HTMLLIElement {
  const revoke = element('button', { type: 'button', className: 'secondary small', text: '삭제', 'aria-label': `${key.name} 키 삭제` });
  revoke.addEventListener('click', async () => {
    if (!window.confirm(`"${key.name}" 키를 삭제할까요? 이 키를 쓰는 프로그램은 바로 접속할 수 없게 됩니다.`)) return;
    await whileBusy(revoke, null, async () => {
      try {
        await apiJson(`/api/auth/tokens/${encodeURIComponent(key.tokenId)}`, { method: 'DELETE' });
        keySecretBox.hidden = true;
        await loadKeys();
      } catch (error) {
        say(keyStatus, requestFailure(error), 'error');
      }
    });
  });
  const used = key.lastUsedAt ? `마지막 사용 ${createdLabel(key.lastUsedAt)}` : '아직 쓰지 않음';
  return element('li', { 'data-testid': 'key-row' }, element('span', {}, element('strong', { text: key.name }), element('span', { className: 'muted', text: ` · 만든 때 ${createdLabel(key.createdAt)} · ${used}` })), revoke);
}

keyForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  say(keyStatus, '');
  const name = keyName.value.trim();
  if (!name) {
    say(keyStatus, '키 이름을 적어 주세요.', 'error');
    keyName.focus();
    return;
  }
  await whileBusy($<HTMLButtonElement>('key-button'), '만드는 중…', async () => {
    try {
      const created = await apiJson<CreatedApiToken>('/api/auth/tokens', { method: 'POST', body: { name } });
      keyName.value = '';
      keySecret.textContent = created.token;
      keySecretBox.hidden = false;
      await loadKeys();
    } catch (error) {
      say(keyStatus, requestFailure(error), 'error');
    }
  });
});

// ---- admin ---------------------------------------------------------------------------------------------------------

$<HTMLButtonElement>('invite-button').addEventListener('click', async (event) => {
  const button = event.currentTarget as HTMLButtonElement;
  await whileBusy(button, '만드는 중…', async () => {
    try {
      const invite = await apiJson<{ url: string; expiresAt: number }>('/api/admin/invites', { method: 'POST' });
      inviteUrl.textContent = invite.url;
      inviteBox.hidden = false;
      say(inviteStatus, `만료: ${createdLabel(invite.expiresAt)}`);
    } catch (error) {
      say(inviteStatus, requestFailure(error), 'error');
    }
  });
});

$<HTMLButtonElement>('invite-copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(inviteUrl.textContent ?? '');
    say(inviteStatus, '링크를 복사했습니다.', 'good');
  } catch {
    say(inviteStatus, '복사하지 못했습니다. 링크를 직접 선택해 복사해 주세요.', 'error');
  }
});

let accountsCursor: string | null = null;

async function loadAccounts(more = false): Promise<void> {
  try {
    const page = await fetchPage<AccountListEntry>('/api/admin/accounts', 'accounts', { cursor: more ? accountsCursor : null });
    accountsCursor = page.nextCursor;
    accountsMore.hidden = !accountsCursor;
    const rows = page.items.map(accountRow);
    if (more) accountList.append(...rows);
    else accountList.replaceChildren(...rows);
  } catch (error) {
    say(adminStatus, requestFailure(error), 'error');
  }
}

function accountRow(entry: AccountListEntry): HTMLLIElement {
  const row = element('li', { 'data-testid': 'account-row', 'data-email': entry.email });
  const draw = (current: AccountListEntry): void => {
    const role = current.role === 'admin' ? '관리자' : '강사';
    const state = current.status === 'active' ? '사용 중' : '사용 중지됨';
    const actions: HTMLElement[] = [];
    if (current.role !== 'admin') {
      const toggle = element('button', {
        type: 'button',
        className: 'secondary small',
        'data-testid': current.status === 'active' ? 'disable-account' : 'enable-account',
        text: current.status === 'active' ? '사용 중지' : '다시 사용',
      });
      toggle.addEventListener('click', () => void setStatus(current, toggle, draw));
      actions.push(toggle);
    }
    const reset = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'reset-link', text: '비밀번호 재설정 링크' });
    reset.addEventListener('click', () => void resetLink(current, reset, row));
    actions.push(reset);
    row.replaceChildren(
      element('span', {}, element('strong', { text: current.email }), element('span', { className: current.status === 'active' ? 'muted' : 'status-disabled', 'data-testid': 'account-status', text: ` · ${role} · ${state}` })),
      element('span', { className: 'row-actions' }, ...actions),
    );
  };
  draw(entry);
  return row;
}

async function setStatus(entry: AccountListEntry, button: HTMLButtonElement, draw: (entry: AccountListEntry) => void): Promise<void> {
  const disabling = entry.status === 'active';
  if (disabling && !window.confirm(`${entry.email} 계정을 사용 중지할까요? 이 강사의 로그인과 API 키가 바로 멈춥니다.`)) return;
  await whileBusy(button, null, async () => {
    try {
      const { account } = await apiJson<{ account: AccountListEntry }>(`/api/admin/accounts/${encodeURIComponent(entry.accountId)}/${disabling ? 'disable' : 'enable'}`, { method: 'POST' });
      draw(account);
      say(adminStatus, disabling ? `${account.email} 계정을 사용 중지했습니다.` : `${account.email} 계정을 다시 사용할 수 있게 했습니다.`, 'good');
    } catch (error) {
      say(adminStatus, requestFailure(error), 'error');
    }
  });
}

async function resetLink(entry: AccountListEntry, button: HTMLButtonElement, row: HTMLLIElement): Promise<void> {
  await whileBusy(button, null, async () => {
    try {
      const link = await apiJson<{ url: string }>(`/api/admin/accounts/${encodeURIComponent(entry.accountId)}/reset-link`, { method: 'POST' });
      row.querySelector('.reset-url')?.remove();
      row.append(
        element('div', { className: 'reset-url' }, element('span', { className: 'muted', text: '이 링크를 강사에게 전해 주세요 (한 번, 24시간 안에):' }), element('code', { className: 'secret', 'data-testid': 'reset-url', text: link.url })),
      );
    } catch (error) {
      say(adminStatus, requestFailure(error), 'error');
    }
  });
}

accountsMore.addEventListener('click', () => void loadAccounts(true));

/** Whether an invite is needed at all (SIGNUP): with open sign-up anyone may make an account at /signup.html. */
async function showSignupMode(): Promise<void> {
  const line = $('signup-mode');
  try {
    const { mode } = await apiJson<{ mode: 'open' | 'invite' | 'closed' }>('/api/auth/signup', { fallback: '가입 방식을 불러오지 못했습니다.' });
    line.textContent = {
      open: '지금은 누구나 가입할 수 있습니다(가입 열림). 초대 링크 없이 가입 페이지(/signup.html)에서 바로 강사 계정을 만들 수 있으니, 초대는 필요하지 않습니다.',
      invite: '지금은 초대받은 사람만 가입할 수 있습니다. 새 강사에게는 아래에서 만든 초대 링크를 보내 주세요.',
      closed: '지금은 가입이 닫혀 있습니다. 초대 링크가 있어야만 가입할 수 있습니다.',
    }[mode];
    line.dataset.mode = mode;
  } catch (error) {
    line.textContent = requestFailure(error);
  }
}

// ---- start ---------------------------------------------------------------------------------------------------------

function showAccount(account: AccountView): void {
  summary.textContent = `${account.email} · ${account.role === 'admin' ? '관리자' : '강사'} · ${createdLabel(account.createdAt)} 가입`;
  admin.hidden = account.role !== 'admin';
  void loadKeys();
  if (account.role === 'admin') void loadAccounts();
  if (account.role === 'admin') void showLtiSection();
  if (account.role === 'admin') void showSignupMode();
}

void requireSignedIn().then(showAccount);
