import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { defaultInstructor, type SignedUpAccount } from './accounts.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

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
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: WAIT_TIMEOUT_MS });
  // Every context (and `browser.newPage`, which makes one) waits as long as the suite's other helpers, not
  // Playwright's own 30 s default, which a loaded machine can miss. Pages render with reduced motion (the pages' own
  // `prefers-reduced-motion` rules: no pulsing dots or blinking cursor), unless a test asks otherwise: an endless
  // animation keeps chromium painting every frame, about a tenth of a browser file's CPU, and no test reads one.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options });
    context.setDefaultTimeout(WAIT_TIMEOUT_MS);
    return context;
  };
  return browser;
}

/**
 * Signs a browser context in as the server's default instructor account (its session cookie; the pages read the CSRF
 * token from `GET /api/auth/me` themselves): instructor pages act for an account.
 */
export async function signInBrowser(context: BrowserContext, app: Parameters<typeof defaultInstructor>[0]): Promise<SignedUpAccount> {
  const account = await defaultInstructor(app);
  const value = account.cookie.slice(account.cookie.indexOf('=') + 1);
  await context.addCookies([{ name: 'lectern_session', value, url: app.url }]);
  return account;
}

/**
 * Records every page error, console error, HTTP error answer and request outside the app's origin as a problem, and
 * answers the page's dialogs (accepted unless `dialogs` decides otherwise).
 */
export function watchPage(page: Page, origin: string, problems: string[], dialogs: (message: string) => boolean = () => true): void {
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:') problems.push(`foreign ${request.url()}`);
  });
  page.on('dialog', (dialog) => void (dialogs(dialog.message()) ? dialog.accept() : dialog.dismiss()));
}

/**
 * Types `text` into a text box as `locator.fill` does, and makes sure it landed there. Playwright's fill takes two
 * steps (focus and select the box in the page, then insert the text into whatever has focus: microsoft/playwright
 * #42125); on a loaded machine the insertion can miss the box, and the test would go on as if the user had typed it
 * (a join with no nickname, an autosave test that finds the answer missing). A missed insertion leaves the box as it
 * was; a box the page rewrites as it is typed in (a class code upper-cased, a room code kept to digits, maxlength)
 * changes without holding `text` exactly, and that is accepted. A box left unchanged is emptied and filled again.
 */
export async function fillBox(box: Locator, text: string): Promise<void> {
  let before = await box.inputValue();
  for (let attempt = 1; ; attempt += 1) {
    await box.fill(text);
    const value = await box.inputValue();
    if (value === text || value !== before) return;
    if (attempt === 3) throw new Error(`the box still holds ${JSON.stringify(value)} after three fills of ${JSON.stringify(text)}`);
    await box.fill('');
    before = await box.inputValue();
  }
}

/** Moves a range input the way a user does (input, then change). */
export async function setRange(page: Page, selector: string, value: number): Promise<void> {
  await page.locator(selector).evaluate((input, next) => {
    const range = input as unknown as { value: string; dispatchEvent(event: Event): boolean };
    range.value = String(next);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    range.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}
