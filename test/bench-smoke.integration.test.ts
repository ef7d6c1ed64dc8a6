/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - HS1 — Every benchmark is smoked. Every `bench:*` script of package.json has a tiny size in the smoke test.
 * - HS2 — Benchmarks run. `npm run bench:<name>` at its tiny size starts, prints one JSON line holding its main
 *   field, and exits 0 (each bench raises the limits its load needs and checks every reply).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * HS1–HS2 (test/SPEC.md, "House"): every `npm run bench:*` script runs at a tiny size as a smoke test — it starts,
 * prints its one JSON line and exits 0 — so a benchmark broken by a change elsewhere (a new limit, a renamed route)
 * fails here rather than on the day someone measures. Sizes are the smallest that still take each script's whole
 * path; what the JSON must hold is the field every run reports, not a figure (figures depend on the machine).
 */

const TINY: Record<string, { args: string[]; field: string }> = {
  'bench:lecture': { args: ['--students', '3', '--seconds', '1', '--ramp', '0', '--think', '0'], field: 'tokensPerSecondEach' },
  'bench:ingest': { args: ['--pages', '12', '--chapters', '2'], field: 'totalMs' },
  'bench:retrieval': { args: ['--pages', '12', '--chapters', '2', '--rounds', '1'], field: 'recall' },
  'bench:monitor': { args: ['--students', '2', '--seconds', '1', '--ramp', '0', '--think', '0'], field: 'instructorLagP99Ms' },
  'bench:quiz': { args: ['--players', '3', '--questions', '1', '--question-seconds', '5', '--batch', '3'], field: 'ackP99Ms' },
  'bench:lists': { args: ['--quizzes', '3', '--rooms', '3', '--readers', '1', '--stores', 'memory,redis'], field: 'redis' },
  'bench:math': { args: ['--rounds', '1', '--mix', '20'], field: 'table' },
  'bench:analytics': { args: ['--students', '4', '--chapters', '2', '--items', '3', '--rooms', '2', '--players', '4', '--questions', '2', '--exams', '2', '--problems', '2', '--runs', '1'], field: 'computeP50Ms' },
  // 70 MB: past the 64 MB a single stream may inflate to, so the bomb is still refused, at a quarter of the deflating.
  'bench:pdf-bombs': { args: ['--bombs', '1', '--inflated-mb', '70', '--settle', '0'], field: 'bombAnswers' },
};

const benchScripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts).filter((name) =>
  name.startsWith('bench:'),
);

function runScript(name: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', name, '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('benchmarks at a tiny size', () => {
  it('HS1 every bench:* script of package.json has a tiny size here', () => {
    expect(benchScripts.sort()).toEqual(Object.keys(TINY).sort());
  });

  // Concurrent: each script mostly waits (its own process starting, a quiz question's seconds), so the file takes the
  // longest script's time rather than the sum of all of them.
  it.concurrent.for(Object.entries(TINY))('HS2 npm run %s starts, prints one JSON line and exits 0', async ([name, { args, field }], { expect }) => {
    const { code, stdout, stderr } = await runScript(name, args);
    expect(code, stderr.slice(-2_000)).toBe(0);
    const lines = stdout.trim().split('\n');
    const report = JSON.parse(lines.at(-1) ?? '') as Record<string, unknown>;
    expect(report).toHaveProperty(field);
  });
});
