import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import ts from 'typescript';

/**
 * The generated tables of docs/PROTOCOL.md (see scripts/protocol-doc.ts): the socket protocol from
 * `src/protocol/wire` and the HTTP routes of the composed app. Deterministic: the same tree gives the same text.
 */
const START = '<!-- generated:start (npm run docs:protocol) -->';
const END = '<!-- generated:end -->';

/** `document` with the block between its generated markers replaced by `tables`. */
export function withTables(document: string, tables: string): string {
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start === -1 || end < start) throw new Error(`no ${START} … ${END} block`);
  return `${document.slice(0, start + START.length)}\n\n${tables.trim()}\n\n${document.slice(end)}`;
}

export async function protocolTables(): Promise<string> {
  const program = wireProgram();
  return [socketTables(program), await routeTable()].join('\n\n');
}

function wireProgram(): ts.Program {
  return ts.createProgram([path.join(WIRE_DIR, 'index.ts')], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
}

// ---- sockets

const WIRE_DIR = 'src/protocol/wire';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/\{ /g, '{ ').trim();
const cell = (text: string) => oneLine(text).replace(/\|/g, '\\|');

/** The first sentence of a TSDoc comment (the table has one line per entry). */
function firstSentence(doc: string): string {
  const text = oneLine(doc);
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

function socketTables(program: ts.Program): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(WIRE_DIR, 'namespaces.ts'));
  if (!source) throw new Error(`${WIRE_DIR}/namespaces.ts not found`);
  let namespaces: ts.InterfaceDeclaration | undefined;
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'Namespaces') namespaces = node;
  });
  if (!namespaces) throw new Error('interface Namespaces not found');

  /** A named payload type with its fields spelled out, so the table says what to send without opening the file. */
  const shape = (node: ts.TypeNode | undefined): string => {
    if (!node) return '';
    const written = oneLine(node.getText());
    if (!ts.isTypeReferenceNode(node)) return `\`${written}\``;
    const type = checker.getTypeFromTypeNode(node);
    if (type.isUnion() || type.isIntersection() || checker.getPropertiesOfType(type).length === 0) return `\`${written}\``;
    const fields = checker.getPropertiesOfType(type).map((property) => `${property.name}${property.flags & ts.SymbolFlags.Optional ? '?' : ''}`);
    return `\`${written}\` { ${fields.join(', ')} }`;
  };

  const sections: string[] = ['## Socket namespaces (generated)', '', 'Every command is acknowledged with `{ok: true, …result}` or `{ok: false, error: {code, message}}` (`Ack` in `src/protocol/wire/ack.ts`).'];
  for (const member of namespaces.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
    const name = member.name.getText().replace(/'/g, '');
    const part = (key: string) => {
      const found = (member.type as ts.TypeLiteralNode).members.find((entry) => entry.name?.getText() === key);
      return found && ts.isPropertySignature(found) && found.type ? checker.getTypeFromTypeNode(found.type) : undefined;
    };
    sections.push('', `### \`${name}\``, '', '| command (client → server) | payload | ack result | what it does |', '|---|---|---|---|');
    for (const property of checker.getPropertiesOfType(part('commands') ?? checker.getNeverType())) {
      const declaration = property.declarations?.[0];
      const typeNode = declaration && ts.isPropertySignature(declaration) ? declaration.type : undefined;
      const [payload, result] = typeNode && ts.isTypeReferenceNode(typeNode) ? [typeNode.typeArguments?.[0], typeNode.typeArguments?.[1]] : [undefined, undefined];
      sections.push(`| \`${property.name}\` | ${cell(shape(payload))} | ${cell(shape(result))} | ${cell(firstSentence(ts.displayPartsToString(property.getDocumentationComment(checker))))} |`);
    }
    sections.push('', '| event (server → client) | payload | what it means |', '|---|---|---|');
    for (const property of checker.getPropertiesOfType(part('events') ?? checker.getNeverType())) {
      const declaration = property.declarations?.[0];
      const typeNode = declaration && ts.isPropertySignature(declaration) ? declaration.type : undefined;
      sections.push(`| \`${property.name}\` | ${cell(shape(typeNode))} | ${cell(firstSentence(ts.displayPartsToString(property.getDocumentationComment(checker))))} |`);
    }
  }
  return sections.join('\n');
}

// ---- HTTP routes

interface Mount {
  kind: 'route' | 'use';
  path: string;
  /** For `route`: the route object (its `methods` are read after composition); for `use`: the handlers. */
  target: unknown;
  file: string;
}

/** The src/ file that called into the router (the first stack frame under src/). */
function callerFile(): string {
  const frames = new Error().stack?.split('\n') ?? [];
  const frame = frames.find((line) => line.includes(`${path.sep}src${path.sep}`) && !line.includes('node_modules'));
  const match = frame ? /\((.*?):\d+:\d+\)$|at (.*?):\d+:\d+$/.exec(frame.trim()) : null;
  const file = match?.[1] ?? match?.[2] ?? '';
  return file ? path.relative(process.cwd(), file.replace(/^file:\/\//, '')) : '';
}

async function routeTable(): Promise<string> {
  // Every router (the app's own and express.Router()s) shares this prototype: recording its `use` and `route` calls
  // while the app is composed gives the mount tree, which express 5 no longer keeps as path strings.
  const prototype = Object.getPrototypeOf(Object.getPrototypeOf(express.Router())) as { use: (...args: unknown[]) => unknown; route: (path: string) => unknown };
  const mounts = new Map<unknown, Mount[]>();
  const record = (router: unknown, mount: Mount) => {
    const list = mounts.get(router) ?? [];
    list.push(mount);
    mounts.set(router, list);
  };
  const { use, route } = prototype;
  prototype.use = function (this: unknown, ...args: unknown[]) {
    const [first, ...rest] = args;
    if (typeof first === 'string') record(this, { kind: 'use', path: first, target: rest.flat(), file: callerFile() });
    else record(this, { kind: 'use', path: '', target: args.flat(), file: callerFile() });
    return use.apply(this, args);
  };
  prototype.route = function (this: unknown, routePath: string) {
    const made = route.call(this, routePath);
    if (typeof routePath === 'string') record(this, { kind: 'route', path: routePath, target: made, file: callerFile() });
    return made;
  };

  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-protocol-doc-'));
  /** `METHOD path` -> the file of its last declaration (a guard mounted first, e.g. join attempts, then the handler). */
  const rows = new Map<string, string>();
  try {
    const { startApp } = await import('../src/app.js');
    const { loadConfig } = await import('../src/kernel/config.js');
    const { createLogger } = await import('../src/kernel/logger.js');
    const app = await startApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', QUALITY_SAMPLE_RATE: '0' }), createLogger('silent'));
    try {
      const root = (app.server.app as unknown as { router: unknown }).router;
      const walk = (router: unknown, prefix: string) => {
        for (const mount of mounts.get(router) ?? []) {
          const full = `${prefix}${mount.path === '/' ? '' : mount.path}`;
          if (mount.kind === 'route') {
            // The limiters (src/http/rate-limit.ts) route lists of paths to a budget: they are not endpoints.
            if (mount.file.endsWith('rate-limit.ts')) continue;
            const methods = Object.keys((mount.target as { methods: Record<string, boolean> }).methods).filter((method) => method !== '_all');
            for (const method of methods.length > 0 ? methods : ['all']) rows.set(`${method.toUpperCase()} ${full || '/'}`, mount.file);
          } else {
            for (const handler of mount.target as unknown[]) if (mounts.has(handler)) walk(handler, full);
          }
        }
      };
      walk(root, '');
    } finally {
      await app.close();
    }
  } finally {
    prototype.use = use;
    prototype.route = route;
    rmSync(dataDir, { recursive: true, force: true });
  }
  return ['## HTTP routes (generated)', '', 'In the order the app mounts them (the first match wins). `:name` is a path parameter.', '', '| method | path | declared in |', '|---|---|---|', ...[...rows].map(([route, file]) => `| ${route.replace(' ', ' | `')}\` | ${file} |`)].join('\n');
}
