import { createRequire } from 'node:module';

/**
 * The LaTeX reader: `@cortex-js/compute-engine`'s parser with canonical forms off, which turns LaTeX into MathJSON
 * as written (no simplification, no evaluation: `evaluate.ts` does that). It is loaded on the first check,
 * synchronously through `require`, so neither the server's start nor anything that never
 * compares math pays for it.
 *
 * Version 0.27 is the newest that supports Node 20 and it reads only LaTeX, so students' plain text is written as
 * LaTeX first (`plainToLatex`): `sqrt(8)`, `x**2`, `sin(x)^2`, `log(x)`, `pi`.
 */
type Parse = (latex: string, options: { canonical: false }) => { json: unknown };

interface ComputeEngineModule {
  ComputeEngine: new () => { parse: Parse };
}

let reader: { parse: Parse } | undefined;

function load(): { parse: Parse } {
  if (reader === undefined) {
    const require = createRequire(import.meta.url);
    // Its CommonJS build exports nothing under Node: the ES module beside it is loaded with require (Node ≥ 20.19
    // requires ES modules synchronously), which keeps this load synchronous and lazy.
    const entry = require.resolve('@cortex-js/compute-engine').replace(/\.min\.js$/, '.min.esm.js');
    const module = require(entry) as ComputeEngineModule;
    reader = new module.ComputeEngine();
    // The first parse builds the parser's dictionary index: do it here, outside any check's time budget.
    reader.parse('x', { canonical: false });
  }
  return reader;
}

/** Loads the reader now (e.g. before a batch of checks) instead of on the first check. */
export function loadMathReader(): void {
  load();
}

/** True once the reader is in memory (tests check that nothing loads it at server start). */
export function isMathReaderLoaded(): boolean {
  return reader !== undefined;
}

/** Functions students type by name; each becomes its LaTeX command when a bracket follows. */
const FUNCTIONS = ['arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'log', 'ln', 'exp'];

/**
 * Plain math text (after `normalise.ts`) as LaTeX the 0.27 parser reads: `**` is a power, `sqrt(…)` (or `sqrt 8`,
 * `sqrt x`) a root, a function name before its argument its command (`sin x`, `log(x)`), `pi` the constant, and a
 * repeating decimal `0.\overline{3}` the exact fraction it writes (the parser would round it). LaTeX commands are
 * left alone: only names not preceded by a backslash change.
 */
export function plainToLatex(text: string): string {
  let latex = text.replace(/\*\*/g, '^');
  latex = replaceCalls(latex, 'sqrt', (argument) => `\\sqrt{${argument}}`);
  latex = latex.replace(/(?<![\\A-Za-z])sqrt\s*(\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z]))/g, '\\sqrt{$1}');
  for (const name of FUNCTIONS) latex = latex.replace(new RegExp(`(?<![\\\\A-Za-z])${name}(?=\\s*[(\\w\\\\])`, 'g'), `\\${name}`);
  latex = latex.replace(/(\d*)\.(\d*)\\overline\s*\{(\d+)\}/g, (_, whole: string, fixed: string, repeating: string) => repeatingFraction(whole, fixed, repeating));
  return latex.replace(/(?<![\\A-Za-z])pi(?![A-Za-z])/g, '\\pi');
}

/** `a.b(c)` repeating as an exact LaTeX fraction: (abc − ab) / (10^|b| · (10^|c| − 1)). */
function repeatingFraction(whole: string, fixed: string, repeating: string): string {
  const all = BigInt(`${whole || '0'}${fixed}${repeating}`);
  const head = BigInt(`${whole || '0'}${fixed}`);
  const denominator = 10n ** BigInt(fixed.length) * (10n ** BigInt(repeating.length) - 1n);
  return `\\frac{${all - head}}{${denominator}}`;
}

/** Calculus the comparison does not evaluate: derivatives, integrals, limits, sums and products are never guessed. */
const CALCULUS = /\\frac\s*\{\s*(?:d|\\partial)\s*\}\s*\{\s*(?:d|\\partial)|\\(?:int|oint|iint|lim|sum|prod|partial|nabla)(?![A-Za-z])|\b[a-z]'\(/;

/** Replaces every `name(…)` not preceded by a backslash or a letter, matching the bracket that opens after it. */
function replaceCalls(text: string, name: string, build: (argument: string) => string): string {
  const pattern = new RegExp(`(?<![\\\\A-Za-z])${name}\\s*\\(`, 'g');
  let result = '';
  let from = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const open = match.index + match[0].length - 1;
    let depth = 0;
    let close = -1;
    for (let index = open; index < text.length; index += 1) {
      if (text[index] === '(') depth += 1;
      else if (text[index] === ')' && --depth === 0) {
        close = index;
        break;
      }
    }
    if (close === -1) break;
    result += text.slice(from, match.index) + build(replaceCalls(text.slice(open + 1, close), name, build));
    from = close + 1;
    pattern.lastIndex = from;
  }
  return result + text.slice(from);
}

/** MathJSON for a LaTeX or plain-text formula; an `Error` expression for what the comparison must not guess. */
export function readMath(text: string): unknown {
  if (CALCULUS.test(text)) return ['Error', "'unsupported-calculus'"];
  return load().parse(plainToLatex(text), { canonical: false }).json;
}
