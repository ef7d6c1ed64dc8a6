import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import in src/: the importing file, what it names, and (for a relative import) the file it resolves to. */
export interface ImportEdge {
  /** Path of the importing file, relative to src/ (`lecture/session-actor.ts`). */
  from: string;
  /** The specifier as written (`../store/index.js`, `socket.io`). */
  specifier: string;
  /** For a relative specifier, the target file relative to src/ (`store/index.ts`); undefined for a package. */
  to: string | undefined;
}

/**
 * Every static, re-export and dynamic import of every .ts file under `srcDir`, read with TypeScript's own
 * pre-processor (so `import type`, `export … from` and `import()` all count).
 */
export function readImports(srcDir: string): ImportEdge[] {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const from = file.split(path.sep).join('/');
    const info = ts.preProcessFile(readFileSync(path.join(srcDir, file), 'utf8'), true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      const to = specifier.startsWith('.')
        ? path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/\.js$/u, '.ts')))
        : undefined;
      edges.push({ from, specifier, to });
    }
  }
  return edges;
}

/** The node of the folder graph a src file belongs to: its top folder (`lecture/`), or the file itself at the top. */
export function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : `${file.slice(0, slash + 1)}`;
}

/** Folder → folder edges (sorted, without self-edges) of the relative imports. */
export function folderEdges(imports: readonly ImportEdge[]): [string, string][] {
  const edges = new Set<string>();
  for (const { from, to } of imports) {
    if (to === undefined || folderOf(from) === folderOf(to)) continue;
    edges.add(`${folderOf(from)} ${folderOf(to)}`);
  }
  return [...edges].sort().map((edge) => edge.split(' ') as [string, string]);
}

/** A cycle of the directed graph as the list of its nodes (first repeated last), or null when there is none. */
export function findCycle(edges: readonly (readonly [string, string])[]): string[] | null {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of next.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
