/**
 * Splitting answer text at the top level (outside brackets and braces): solutions separated by commas or `\lor`,
 * relation chains at `<`/`\le`/…, unions at `\cup`. Brackets may be mismatched on purpose (`[1, 3)`).
 */
export type Connector = ',' | 'or' | 'and';

const OPENERS = ['\\{', '(', '[', '{'];
const CLOSERS = ['\\}', ')', ']', '}'];

/** Calls `visit(index, depth)` for every position, skipping over LaTeX commands. */
function scan(text: string, visit: (index: number, depth: number) => number | undefined): void {
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const opener = OPENERS.find((token) => text.startsWith(token, index));
    const closer = opener === undefined ? CLOSERS.find((token) => text.startsWith(token, index)) : undefined;
    if (opener !== undefined) {
      depth += 1;
      index += opener.length;
      continue;
    }
    if (closer !== undefined) {
      depth -= 1;
      index += closer.length;
      continue;
    }
    const skip = visit(index, depth);
    index += skip ?? 1;
  }
}

/** Top-level pieces between separators, with the separator that came before each piece (after the first). */
export function splitTopLevel(text: string, separators: ReadonlyArray<[string, Connector]>): { parts: string[]; connectors: Connector[] } {
  const parts: string[] = [];
  const connectors: Connector[] = [];
  let start = 0;
  scan(text, (index, depth) => {
    if (depth !== 0) return undefined;
    for (const [token, connector] of separators) {
      if (text.startsWith(token, index) && !(token.startsWith('\\') && /[A-Za-z]/.test(text[index + token.length] ?? ''))) {
        parts.push(text.slice(start, index).trim());
        connectors.push(connector);
        start = index + token.length;
        return token.length;
      }
    }
    if (text[index] === '\\') {
      const command = /^\\[A-Za-z]+/.exec(text.slice(index));
      if (command) return command[0].length;
    }
    return undefined;
  });
  parts.push(text.slice(start).trim());
  return { parts, connectors };
}

export const LIST_SEPARATORS: ReadonlyArray<[string, Connector]> = [
  [',', ','],
  [';', ','],
  ['\\lor', 'or'],
  ['\\land', 'and'],
];

export type RelationOperator = '<' | '<=' | '>' | '>=' | '!=' | '=';

const RELATIONS: ReadonlyArray<[string, RelationOperator]> = [
  ['\\leqslant', '<='],
  ['\\geqslant', '>='],
  ['\\leq', '<='],
  ['\\geq', '>='],
  ['\\neq', '!='],
  ['\\le', '<='],
  ['\\ge', '>='],
  ['\\ne', '!='],
  ['\\lt', '<'],
  ['\\gt', '>'],
  ['<=', '<='],
  ['>=', '>='],
  ['=<', '<='],
  ['=>', '>='],
  ['!=', '!='],
  ['<', '<'],
  ['>', '>'],
  ['=', '='],
];

/** Top-level relation chain: `1 \le x < 3` → terms [1, x, 3], operators [<=, <]. */
export function splitRelations(text: string): { terms: string[]; operators: RelationOperator[] } {
  const { parts, connectors } = splitTopLevel(text, RELATIONS.map(([token], index) => [token, String(index) as Connector]));
  const operators = connectors.map((connector) => (RELATIONS[Number(connector)] as [string, RelationOperator])[1]);
  return { terms: parts, operators };
}

/** `\{…\}`, `{…}`, `(…)`, `[…]`, `(…]`, `[…)` around the whole text: the brackets and what is inside. */
export function outerBrackets(text: string): { open: string; close: string; inner: string } | undefined {
  const open = OPENERS.find((token) => text.startsWith(token));
  const close = CLOSERS.find((token) => text.endsWith(token));
  if (open === undefined || close === undefined || text.length < open.length + close.length) return undefined;
  // The opening bracket must close at the very end: `(1)(2)` is not one bracketed group.
  let depth = 0;
  let index = 0;
  while (index < text.length) {
    const opener = OPENERS.find((token) => text.startsWith(token, index));
    const closer = opener === undefined ? CLOSERS.find((token) => text.startsWith(token, index)) : undefined;
    const step = opener?.length ?? closer?.length ?? 1;
    if (opener !== undefined) depth += 1;
    if (closer !== undefined) depth -= 1;
    index += step;
    if (depth <= 0 && index < text.length) return undefined;
  }
  if (depth !== 0) return undefined;
  return { open, close, inner: text.slice(open.length, text.length - close.length).trim() };
}
