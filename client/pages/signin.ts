// Sign-in page: e-mail and password, or the school's single sign-on when the server has one (GET /api/auth/oidc).
// `?error=CODE` (where a failed single sign-on lands) shows the protocol's Korean sentence for the code; `?return=`
// is where the instructor goes afterwards (the dashboard by default).
import { ERROR_MESSAGES } from '../../src/protocol/wire/index.js';
import { me, returnPath, signIn } from '../net/account.js';
import { apiJson, requestFailure } from '../net/http.js';
import { $ } from '../ui/dom.js';
import { whileBusy } from '../ui/forms.js';

const form = $<HTMLFormElement>('signin-form');
const email = $<HTMLInputElement>('email');
const password = $<HTMLInputElement>('password');
const submit = $<HTMLButtonElement>('signin-button');
const errorLine = $('signin-error');
const sso = $<HTMLAnchorElement>('oidc-button');
const signupLink = $<HTMLAnchorElement>('signup-link');

const target = returnPath();
signupLink.href = `/signup.html?return=${encodeURIComponent(target)}`;

const code = new URLSearchParams(location.search).get('error');
if (code) {
  errorLine.textContent = (ERROR_MESSAGES as Record<string, string | undefined>)[code] ?? '로그인하지 못했습니다. 다시 시도해 주세요.';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errorLine.textContent = '';
  if (!email.value.trim() || !password.value) {
    errorLine.textContent = '이메일과 비밀번호를 입력해 주세요.';
    return;
  }
  await whileBusy(submit, '로그인하는 중…', async () => {
    try {
      await signIn(email.value, password.value);
      location.assign(target);
    } catch (error) {
      errorLine.textContent = requestFailure(error);
      password.select();
    }
  });
});

async function start(): Promise<void> {
  // Already signed in (e.g. the back button): straight on.
  if (!code && (await me().catch(() => null))) {
    location.replace(target);
    return;
  }
  const oidc = await apiJson<{ enabled: boolean; name: string | null }>('/api/auth/oidc').catch(() => null);
  if (oidc?.enabled) {
    sso.href = `/api/auth/oidc/start?return=${encodeURIComponent(target)}`;
    sso.textContent = `${oidc.name ?? 'SSO'}(으)로 로그인`;
    sso.hidden = false;
  }
}
void start();
