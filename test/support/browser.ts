import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
