/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IN1 — A quiet install. Every locked package accepts the README's oldest Node and the running one (no EBADENGINE)
 *   …
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * What a newcomer's `npm ci` prints comes from the lockfile: a package whose `engines` refuses the README's Node
 * warns (EBADENGINE), and a package with an install script that package.json's `allowScripts` does not decide warns
 * too (npm 11 skips it and lists it). Both are read from the lockfile here, so a dependency bump that brings a
 * warning back fails the suite instead of greeting the next newcomer.
 */
interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith('node_modules/'));
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('IN1 a fresh install prints no warning', () => {
  const oldest = semver.minVersion(manifest.engines.node)?.version ?? '';

  it.each([
    ['the oldest Node the README allows', oldest],
    ['this Node', process.version],
  ])('every installed package accepts %s', (_, version) => {
    expect(version).not.toBe('');
    const refusing = installed
      .filter(([, entry]) => !Array.isArray(entry.engines) && entry.engines?.node !== undefined && !semver.satisfies(version, entry.engines.node))
      .map(([path, entry]) => `${nameOf(path)}@${entry.version ?? '?'} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('every package with an install script is allowed or denied in allowScripts', () => {
    const undecided = installed.filter(([path, entry]) => entry.hasInstallScript === true && manifest.allowScripts?.[nameOf(path)] === undefined).map(([path]) => nameOf(path));
    expect(undecided).toEqual([]);
  });
});
