import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found by walking up from this file to the folder holding package.json, so paths work the
 * same from src/ (tsx, vitest) and from dist/src/ (compiled).
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const projectRoot = findProjectRoot();
export const publicDir = path.join(projectRoot, 'public');
export const promptsDir = path.join(projectRoot, 'prompts');
export const nodeModulesDir = path.join(projectRoot, 'node_modules');

export const appVersion: string = (
  JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;
