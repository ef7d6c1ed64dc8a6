// The account page's LMS section (admins only): a dynamic registration URL with a one-use code, the values to type
// into an LMS for a manual registration (lectern's login, launch and JWKS URLs) and the signing key rotation, the
// registered platforms with their deletion, and the manual registration form. Server text goes in as textContent.
import { apiJson, requestFailure } from '../../net/http.js';
import { $, element } from '../../ui/dom.js';
import { whileBusy } from '../../ui/forms.js';
import { createdLabel } from '../../ui/remembered-list.js';

interface Platform {
  platformId: string;
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  jwksUrl: string;
  authUrl: string;
  tokenUrl: string;
  frameOrigins: string[];
  createInstructors: boolean;
  trustEmails: boolean;
  via: 'manual' | 'dynamic';
  createdAt: number;
}

interface Listing {
  platforms: Platform[];
  tool: { loginUrl: string; launchUrl: string; jwksUrl: string; registrationUrl: string };
  keys: { kid: string; createdAt: number }[];
}

const section = $('lti');
const status = $('lti-status');

function say(text: string, kind: 'good' | 'error' | '' = ''): void {
  status.textContent = text;
  status.className = kind;
}

function facts(list: HTMLElement, entries: [string, string][]): void {
  list.replaceChildren(...entries.flatMap(([label, value]) => [element('dt', { text: label }), element('dd', {}, element('code', { text: value }))]));
}

async function load(): Promise<void> {
  let listing: Listing;
  try {
    listing = await apiJson<Listing>('/api/lti/platforms');
  } catch (error) {
    say(requestFailure(error), 'error');
    return;
  }
  const [signing] = listing.keys;
  facts($('lti-tool'), [
    ['로그인 시작 URL (Initiate login URL)', listing.tool.loginUrl],
    ['도구 URL · 리디렉션 URI (Tool URL, Redirect URI)', listing.tool.launchUrl],
    ['공개 키 세트 URL (Public keyset URL)', listing.tool.jwksUrl],
    ['딥 링크 URL (Content selection URL)', listing.tool.launchUrl],
    ['서명 키', signing ? `${signing.kid} (${createdLabel(signing.createdAt)})` : '첫 사용 때 만듭니다'],
  ]);
  const list = $('lti-platforms');
  list.replaceChildren(...(listing.platforms.length ? listing.platforms.map(platformRow) : [element('li', { className: 'muted', text: '등록된 LMS가 없습니다.' })]));
}

function platformRow(platform: Platform): HTMLLIElement {
  const remove = element('button', { type: 'button', className: 'secondary small', 'data-testid': 'lti-delete', text: '삭제' });
  const row = element(
    'li',
    { className: 'lti-platform', 'data-testid': 'lti-platform', 'data-issuer': platform.issuer },
    element(
      'div',
      {},
      element('strong', { text: platform.name }),
      element('span', { className: 'muted', text: ` · ${platform.via === 'dynamic' ? '동적 등록' : '직접 등록'} · ${createdLabel(platform.createdAt)}` }),
      element(
        'dl',
        {},
        element('dt', { text: 'Issuer' }),
        element('dd', { text: platform.issuer }),
        element('dt', { text: 'Client ID' }),
        element('dd', { text: platform.clientId }),
        element('dt', { text: '배포 ID' }),
        element('dd', { className: platform.deploymentIds.length ? '' : 'error', text: platform.deploymentIds.join(', ') || '없음: 이 LMS의 실행은 거절됩니다. 배포 ID를 넣어 다시 등록해 주세요.' }),
        element('dt', { text: '선생님 계정' }),
        element('dd', { text: `${platform.createInstructors ? '처음 들어오면 만듦' : '연결된 계정만'}${platform.trustEmails ? ' · 이메일로 기존 계정 연결' : ''}` }),
      ),
    ),
    remove,
  );
  remove.addEventListener('click', async () => {
    if (!window.confirm(`${platform.name} 등록을 삭제할까요? 이 LMS에서 lectern을 열 수 없게 되고, 강좌에 넣은 링크도 더는 열리지 않습니다.`)) return;
    await whileBusy(remove, null, async () => {
      try {
        await apiJson(`/api/lti/platforms/${encodeURIComponent(platform.platformId)}`, { method: 'DELETE' });
        say(`${platform.name} 등록을 삭제했습니다.`, 'good');
        await load();
      } catch (error) {
        say(requestFailure(error), 'error');
      }
    });
  });
  return row;
}

const list = (value: string) => value.split(/[,\n]/).map((part) => part.trim()).filter((part) => part !== '');

function wire(): void {
  $<HTMLButtonElement>('lti-code-button').addEventListener('click', async (event) => {
    await whileBusy(event.currentTarget as HTMLButtonElement, '만드는 중…', async () => {
      try {
        const made = await apiJson<{ url: string; expiresAt: number }>('/api/lti/registration-codes', {
          method: 'POST',
          body: { createInstructors: $<HTMLInputElement>('lti-create-instructors').checked, trustEmails: $<HTMLInputElement>('lti-trust-emails').checked },
        });
        $('lti-code-url').textContent = made.url;
        $('lti-code-box').hidden = false;
        say(`만료: ${createdLabel(made.expiresAt)}`);
      } catch (error) {
        say(requestFailure(error), 'error');
      }
    });
  });
  $<HTMLButtonElement>('lti-rotate').addEventListener('click', async (event) => {
    if (!window.confirm('서명 키를 새로 만들까요? 이전 키도 당분간 공개해 두므로 LMS 연결은 끊기지 않습니다.')) return;
    await whileBusy(event.currentTarget as HTMLButtonElement, null, async () => {
      try {
        await apiJson('/api/lti/tool-keys/rotate', { method: 'POST' });
        say('서명 키를 교체했습니다.', 'good');
        await load();
      } catch (error) {
        say(requestFailure(error), 'error');
      }
    });
  });
  const form = $<HTMLFormElement>('lti-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = (id: string) => $<HTMLInputElement>(id).value.trim();
    await whileBusy($<HTMLButtonElement>('lti-register'), '등록하는 중…', async () => {
      try {
        const created = await apiJson<Platform>('/api/lti/platforms', {
          method: 'POST',
          body: {
            name: value('lti-name'),
            issuer: value('lti-issuer'),
            clientId: value('lti-client'),
            deploymentIds: list(value('lti-deployments')),
            jwksUrl: value('lti-jwks'),
            authUrl: value('lti-auth'),
            tokenUrl: value('lti-token'),
            frameOrigins: list(value('lti-frames')),
            createInstructors: $<HTMLInputElement>('lti-form-create').checked,
            trustEmails: $<HTMLInputElement>('lti-form-trust').checked,
          },
        });
        form.reset();
        say(`${created.name}을(를) 등록했습니다.`, 'good');
        await load();
      } catch (error) {
        say(requestFailure(error), 'error');
      }
    });
  });
}

let wired = false;

/** Shows the section for an admin and fills it. */
export async function showLtiSection(): Promise<void> {
  section.hidden = false;
  if (!wired) wire();
  wired = true;
  await load();
}
