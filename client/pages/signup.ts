// Sign-up page: the server says whether a sign-up is accepted now (GET /api/auth/signup: SIGNUP mode, the first
// account of an empty deployment becomes the admin); with `?invite=` the admin's invite link is checked first.
import { PASSWORD_MIN } from '../../src/protocol/wire/index.js';
import { returnPath, signUp } from '../net/account.js';
import { apiJson, requestFailure } from '../net/http.js';
import { $ } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';

const form = $<HTMLFormElement>('signup-form');
const email = $<HTMLInputElement>('email');
const password = $<HTMLInputElement>('password');
const confirmation = $<HTMLInputElement>('password-again');
const submit = $<HTMLButtonElement>('signup-button');
const errorLine = $('signup-error');
const note = $('signup-note');

const invite = new URLSearchParams(location.search).get('invite');

interface SignupMode {
  mode: 'open' | 'invite' | 'closed';
  open: boolean;
  firstAccount: boolean;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errorLine.textContent = '';
  if (password.value.length < PASSWORD_MIN) {
    errorLine.textContent = `비밀번호는 ${PASSWORD_MIN}자 이상이어야 합니다.`;
    password.focus();
    return;
  }
  if (password.value !== confirmation.value) {
    errorLine.textContent = '두 비밀번호가 서로 다릅니다.';
    confirmation.focus();
    return;
  }
  await whileBusy(submit, '가입하는 중…', async () => {
    try {
      await signUp(email.value, password.value, invite);
      location.assign(returnPath());
    } catch (error) {
      errorLine.textContent = requestFailure(error);
    }
  });
});

async function start(): Promise<void> {
  let mode: SignupMode;
  try {
    mode = await apiJson<SignupMode>('/api/auth/signup');
  } catch (error) {
    note.textContent = requestFailure(error);
    return;
  }
  if (mode.firstAccount) {
    note.textContent = '이 서버의 첫 계정입니다. 가입하면 관리자가 되어 다른 강사를 초대하고 계정을 관리할 수 있습니다.';
  } else if (invite) {
    const valid = await apiJson(`/api/auth/invites/${encodeURIComponent(invite)}`).then(() => true, () => false);
    note.textContent = valid ? '초대 링크로 가입합니다.' : '초대 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다. 관리자에게 새 링크를 받아 주세요.';
    note.className = valid ? 'muted' : 'error';
  } else if (!mode.open) {
    // The form stays: the server has the last word and answers with its own Korean message.
    note.textContent = mode.mode === 'closed' ? '이 서버는 지금 새 가입을 받지 않습니다.' : '이 서버는 초대받은 강사만 가입할 수 있습니다. 관리자에게 초대 링크를 받아 주세요.';
    note.className = 'error';
  }
}
void start();
