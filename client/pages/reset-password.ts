// Password reset page: the admin's one-time link (`?code=`) sets a new password (POST /api/auth/reset). By default
// (two checked boxes) the account's API keys are revoked and every session ends, so the instructor signs in again
// afterwards; using the link voids every other reset link of the account.
import { PASSWORD_MIN } from '../../src/protocol/wire/index.js';
import type { ClosedDoorsReply } from '../../src/protocol/wire/index.js';
import { closedDoorsText } from '../net/account.js';
import { apiJson, requestFailure } from '../net/http.js';
import { $ } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';

const form = $<HTMLFormElement>('reset-form');
const password = $<HTMLInputElement>('password');
const confirmation = $<HTMLInputElement>('password-again');
const submit = $<HTMLButtonElement>('reset-button');
const errorLine = $('reset-error');
const done = $('reset-done');
const revokeKeys = $<HTMLInputElement>('reset-revoke-keys');
const endSessions = $<HTMLInputElement>('reset-end-sessions');

const code = new URLSearchParams(location.search).get('code');
if (!code) {
  errorLine.textContent = '비밀번호 재설정 링크가 올바르지 않습니다. 관리자에게 새 링크를 받아 주세요.';
  submit.disabled = true;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errorLine.textContent = '';
  if (!code) return;
  if (password.value.length < PASSWORD_MIN) {
    errorLine.textContent = `비밀번호는 ${PASSWORD_MIN}자 이상이어야 합니다.`;
    return;
  }
  if (password.value !== confirmation.value) {
    errorLine.textContent = '두 비밀번호가 서로 다릅니다.';
    return;
  }
  await whileBusy(submit, '바꾸는 중…', async () => {
    try {
      const closed = await apiJson<ClosedDoorsReply & { email: string }>('/api/auth/reset', {
        method: 'POST',
        body: { code, password: password.value, revokeApiKeys: revokeKeys.checked, endSessions: endSessions.checked },
        credentials: 'same-origin',
      });
      form.hidden = true;
      done.hidden = false;
      done.querySelector('[data-email]')?.replaceChildren(closed.email);
      done.querySelector('[data-closed]')?.replaceChildren(closedDoorsText(closed));
    } catch (error) {
      errorLine.textContent = requestFailure(error);
    }
  });
});
