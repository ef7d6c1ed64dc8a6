/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - F1 — Acyclic. The folder graph has no cycle.
 * - F2 — Through the index. A file imports another folder only through its `index.ts` (`protocol/` is entered file by
 *   file: `protocol/wire/` for types and constants, the schema files for zod).
 * - F3 — Domain code is transport-free. Outside `boundary/`, `http/`, `realtime/`, `app.ts`, `main.ts` and
 *   `server.ts` nothing imports `socket.io` or `express`; outside `llm/` nothing imports `llm/offline-*`.
 * - F4 — Leaves and direction. `text/`, `math/` and `judges/` import no other folder; `lecture/` imports nothing of
 *   `classroom/` (the classroom sees sessions through the lecture's `SessionActivity`) …
 * - F5 — The item guard is pure. `guard/` imports only `text/`, `protocol/` (its rule names) and the kernel.
 * - F6 — `lti/` is entered only by the composition. (`test/folder-graph.test.ts`) and imports only `store/`,
 *   `protocol/` and the kernel: it reaches classes …
 * - HS3 — Transports apart. `realtime/` never imports `http/`; `boundary/`, which both import, imports neither.
 * - HS9 — Deletion has no file cycle. The files of `data/` import each other without a cycle: the steps take the
 *   owners' ports from `owner-parts.ts`, never from the file that composes them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycle, folderEdges, folderOf, readImports, type ImportEdge } from './support/import-graph.js';

/** The module boundaries of src/ (rules F1–F4 of test/SPEC.md), read from the real import graph. */

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const imports = readImports(SRC);

/** Where the transports live and where everything is put together: the only places that may import them. */
const COMPOSITION = new Set(['app.ts', 'main.ts', 'server.ts', 'boundary/', 'http/', 'realtime/']);

/**
 * Folders other files still enter file by file: `protocol/` is two halves that are imported apart on purpose —
 * `protocol/wire/` (browser-safe types and constants) and the zod schema files beside it (server only) — and it
 * imports no other folder.
 */
const ENTERED_FILE_BY_FILE = new Set(['protocol/']);

/**
 * Known exceptions, each to be removed by the change named beside it; the test fails if one no longer exists, so the
 * list cannot outlive its reason. None left: the quiz runtime reaches sockets through its RoomMember port.
 */
const EXCEPTIONS: { from: string; specifier: string; until: string }[] = [];

const excepted = (edge: ImportEdge) => EXCEPTIONS.some((exception) => exception.from === edge.from && exception.specifier === edge.specifier);
const checked = imports.filter((edge) => !excepted(edge));
const describeEdge = (edge: ImportEdge) => `${edge.from} imports ${edge.specifier}`;

describe('module boundaries of src/', () => {
  it('reads the import graph (type imports, re-exports and dynamic imports included)', () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports).toContainEqual({ from: 'app.ts', specifier: './server.js', to: 'server.ts' });
    expect(imports.some((edge) => edge.specifier === '@google/genai')).toBe(true); // a dynamic import()
  });

  it('F1: the folder graph is acyclic', () => {
    expect(findCycle(folderEdges(checked))).toBeNull();
  });

  it('HS3 the transports never import each other: realtime/ does not import http/, and boundary/ (what both share) imports neither', () => {
    const edges = folderEdges(checked);
    expect(edges).toContainEqual(['realtime/', 'boundary/']);
    expect(edges).toContainEqual(['http/', 'boundary/']);
    expect(edges.filter(([from, to]) => (from === 'realtime/' && to === 'http/') || (from === 'boundary/' && (to === 'http/' || to === 'realtime/')))).toEqual([]);
  });

  it('HS9 the files of data/ import each other without a cycle (type imports included)', () => {
    const inside = checked.filter((edge) => edge.from.startsWith('data/') && edge.to?.startsWith('data/') === true);
    expect(inside.length).toBeGreaterThan(5);
    expect(findCycle(inside.map((edge) => [edge.from, edge.to as string] as const))).toBeNull();
  });

  it('F1: the cycle finder finds a cycle and its members', () => {
    expect(findCycle([['a/', 'b/'], ['b/', 'c/'], ['c/', 'a/'], ['c/', 'd/']])).toEqual(['a/', 'b/', 'c/', 'a/']);
    expect(findCycle([['a/', 'b/'], ['a/', 'c/'], ['b/', 'c/']])).toBeNull();
  });

  it('F2: a file enters another folder only through its index.ts', () => {
    const deep = checked.filter(
      ({ from, to }) =>
        to !== undefined &&
        folderOf(to).endsWith('/') &&
        folderOf(to) !== folderOf(from) &&
        !ENTERED_FILE_BY_FILE.has(folderOf(to)) &&
        to !== `${folderOf(to)}index.ts`,
    );
    expect(deep.map(describeEdge)).toEqual([]);
  });

  it('F3: domain folders never import socket.io, express or the offline model', () => {
    const forbidden = (edge: ImportEdge) =>
      /^(?:socket\.io|express)(?:\/|$)/u.test(edge.specifier) || (edge.to !== undefined && /^llm\/offline-/u.test(edge.to) && !edge.from.startsWith('llm/'));
    const domain = checked.filter((edge) => !COMPOSITION.has(folderOf(edge.from)));
    expect(domain.filter(forbidden).map(describeEdge)).toEqual([]);
  });

  it('F4: text/, math/ and judges/ are leaves; the lecture imports nothing of classroom', () => {
    const edges = folderEdges(checked);
    expect(edges.filter(([from]) => from === 'text/' || from === 'math/' || from === 'judges/')).toEqual([]);
    // The offline tutor judges with the assessor: the edge exists, one way.
    expect(edges).toContainEqual(['lecture/', 'judges/']);
    expect(edges).not.toContainEqual(['lecture/', 'classroom/']);
  });

  it('F4: critic/ (seed 004) calls the model, so it is a feature folder above the judges: it uses judges/, guard/, llm/, text/ and protocol/, and only the composition enters it', () => {
    const edges = folderEdges(checked);
    const from = edges.filter(([source]) => source === 'critic/').map(([, target]) => target);
    expect(from.length).toBeGreaterThan(0);
    const kernel = ['kernel/'];
    for (const target of from) expect(['judges/', 'guard/', 'llm/', 'text/', 'protocol/', ...kernel]).toContain(target);
    const into = edges.filter(([, target]) => target === 'critic/').map(([source]) => source);
    for (const source of into) expect(['http/', 'app.ts', 'server.ts', 'offline-tasks.ts']).toContain(source);
    expect(edges).not.toContainEqual(['judges/', 'critic/']);
  });

  it('F6: lti/ (LTI 1.3) reaches the features it lands people in only through its ports: it imports store/ and the kernel, and only the composition enters it', () => {
    const edges = folderEdges(checked);
    const from = edges.filter(([source]) => source === 'lti/').map(([, target]) => target);
    expect(from).toContain('store/');
    const kernel = ['kernel/'];
    for (const target of from) expect(['store/', 'protocol/', ...kernel]).toContain(target);
    const into = edges.filter(([, target]) => target === 'lti/').map(([source]) => source);
    expect(into.length).toBeGreaterThan(0);
    for (const source of into) expect(['http/', 'app.ts', 'server.ts', 'lti-wiring.ts']).toContain(source);
  });

  it('F5: guard/ (the item guard) is pure: it uses text/, the wire protocol (its rule names) and the kernel only', () => {
    const edges = folderEdges(checked);
    const kernel = ['kernel/'];
    const from = edges.filter(([source]) => source === 'guard/').map(([, target]) => target);
    expect(from).toContain('text/');
    for (const target of from) expect(['text/', 'protocol/', ...kernel]).toContain(target);
    expect(edges.filter(([source, target]) => target === 'guard/' && ['quiz/', 'exams/', 'lecture/', 'math-problems/'].includes(source)).length).toBe(4);
  });

  it('every known exception still exists (remove it with the change that ends it)', () => {
    for (const exception of EXCEPTIONS) {
      expect(imports.some((edge) => edge.from === exception.from && edge.specifier === exception.specifier), `${exception.from} → ${exception.specifier} (${exception.until})`).toBe(true);
    }
  });
});
