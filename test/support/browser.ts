import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { defaultInstructor, type SignedUpAccount } from './accounts.js';

/**
 * Launches Debian's chromium through playwright-core (never a downloaded browser). The flags are the ones that
 * work in these containers: no sandbox (we run as root), no GPU, and nothing that phones home.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`chromium not found at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
}

/**
 * Signs a browser context in as the server's default instructor account (its session cookie; the pages read the CSRF
 * token from `GET /api/auth/me` themselves): instructor pages act for an account since issue 12.
 */
export async function signInBrowser(context: BrowserContext, app: Parameters<typeof defaultInstructor>[0]): Promise<SignedUpAccount> {
  const account = await defaultInstructor(app);
  const value = account.cookie.slice(account.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'lectern_session', value, url: app.url }]);
  return account;
}
