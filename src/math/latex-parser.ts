import { createRequire } from 'node:module';

/**
 * The LaTeX reader: `@cortex-js/compute-engine`'s syntax-only entry point (`/latex-syntax`), which turns LaTeX and
 * plain math text into MathJSON without the engine behind it (no canonical forms, no evaluation). It is loaded on
 * the first check, synchronously through `require` (its CommonJS build, ~0.1 s), so neither the server's start
 * nor anything that never compares math pays for it.
 */
type ParseLatex = (latex: string, options?: { strict?: boolean }) => unknown;

interface LatexSyntaxModule {
  LatexSyntax: new () => { parse: ParseLatex };
}

let reader: { parse: ParseLatex } | undefined;

function load(): { parse: ParseLatex } {
  if (reader === undefined) {
    const require = createRequire(import.meta.url);
    const module = require('@cortex-js/compute-engine/latex-syntax') as LatexSyntaxModule;
    reader = new module.LatexSyntax();
    // The first parse builds the reader's dictionary index (~0.1 s): do it here, outside any check's time budget.
    reader.parse('x', { strict: false });
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

/** MathJSON for a LaTeX or plain-text formula; `strict: false` also reads `sqrt(8)`, `sin(x)^2`, `x**2`. */
export function readMath(text: string): unknown {
  return load().parse(text, { strict: false });
}
