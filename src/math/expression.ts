import { type Rational, parseDecimal, rational } from './rational.js';

/**
 * The expressions the checker understands, built from the parser's MathJSON. Anything else (integrals, sums,
 * complex numbers, functions it does not know, units inside a formula) is `UnsupportedMath`, and the answer is
 * `unknown` rather than a guess.
 */
export type FunctionName =
  | 'sin' | 'cos' | 'tan' | 'cot' | 'sec' | 'csc'
  | 'arcsin' | 'arccos' | 'arctan'
  | 'sinh' | 'cosh' | 'tanh'
  | 'ln' | 'exp' | 'abs' | 'factorial';

export type Expr =
  | { kind: 'number'; value: Rational; /** significant digits when written with a decimal point */ decimalDigits: number }
  | { kind: 'constant'; name: 'pi' | 'e' }
  | { kind: 'variable'; name: string }
  | { kind: 'add'; terms: Expr[] }
  | { kind: 'multiply'; factors: Expr[] }
  | { kind: 'divide'; numerator: Expr; denominator: Expr }
  | { kind: 'negate'; argument: Expr }
  | { kind: 'power'; base: Expr; exponent: Expr }
  | { kind: 'root'; argument: Expr; index: number }
  | { kind: 'apply'; name: FunctionName; argument: Expr }
  | { kind: 'log'; argument: Expr; base: Expr }
  | { kind: 'degrees'; argument: Expr };

/** The parser could not read the text, or read something the checker does not evaluate. */
export class UnsupportedMath extends Error {}

/** Largest tree the checker evaluates (nodes) and deepest nesting; the 500-character cap keeps both small anyway. */
export const MAX_NODES = 400;
export const MAX_DEPTH = 60;

const FUNCTIONS: Readonly<Record<string, FunctionName>> = {
  Sin: 'sin', Cos: 'cos', Tan: 'tan', Cot: 'cot', Sec: 'sec', Csc: 'csc',
  Arcsin: 'arcsin', Arccos: 'arccos', Arctan: 'arctan',
  Sinh: 'sinh', Cosh: 'cosh', Tanh: 'tanh',
  Ln: 'ln', Exp: 'exp', Abs: 'abs', Factorial: 'factorial',
};

const GREEK = new Set([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'varepsilon', 'zeta', 'eta', 'theta', 'vartheta', 'iota', 'kappa',
  'lambda', 'mu', 'nu', 'xi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'varphi', 'chi', 'psi', 'omega',
]);

/** A single letter, optionally with a subscript (`x`, `x_1`, `a_n`), or a Greek letter name. */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z](?:_(?:[A-Za-z0-9]{1,3}|\{[A-Za-z0-9]{1,3}\}))?$/.test(name) || GREEK.has(name);
}

interface Budget {
  nodes: number;
}

const TEN = rational(10n) as Rational;

function numberFrom(text: string): Expr {
  const value = parseDecimal(text);
  if (value === undefined) throw new UnsupportedMath(`number ${text}`);
  const mantissa = text.toLowerCase().split('e')[0] ?? '';
  const decimalDigits = mantissa.includes('.') ? mantissa.replace(/[^0-9]/g, '').replace(/^0+/, '').length : 0;
  return { kind: 'number', value, decimalDigits };
}

function integerLiteral(json: unknown): bigint | undefined {
  if (typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  if (isNumberObject(json) && /^\d+$/.test(json.num)) return BigInt(json.num);
  return undefined;
}

function isNumberObject(json: unknown): json is { num: string } {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && typeof (json as { num?: unknown }).num === 'string';
}

/** `{fn: [...]}` is MathJSON's object form of a function call (it carries source offsets). */
function asCall(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (typeof json === 'object' && json !== null && Array.isArray((json as { fn?: unknown }).fn)) {
    return (json as { fn: unknown[] }).fn;
  }
  return undefined;
}

function symbolOf(json: unknown): string | undefined {
  if (typeof json === 'string') return json;
  if (typeof json === 'object' && json !== null && typeof (json as { sym?: unknown }).sym === 'string') {
    return (json as { sym: string }).sym;
  }
  return undefined;
}

/** True when the MathJSON holds a parse error anywhere (`["Error", …]`). */
export function hasParseError(json: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH * 4) return true;
  const call = asCall(json);
  if (!call) return false;
  if (call[0] === 'Error') return true;
  return call.some((part) => hasParseError(part, depth + 1));
}

/** Converts raw (non-canonical) MathJSON from the LaTeX parser into an `Expr`, or throws `UnsupportedMath`. */
export function toExpr(json: unknown): Expr {
  return convert(json, { nodes: 0 }, 0);
}

function convert(json: unknown, budget: Budget, depth: number): Expr {
  budget.nodes += 1;
  if (budget.nodes > MAX_NODES || depth > MAX_DEPTH) throw new UnsupportedMath('too large');
  if (typeof json === 'number') {
    if (!Number.isFinite(json)) throw new UnsupportedMath('not a finite number');
    return numberFrom(String(json));
  }
  if (isNumberObject(json)) return numberFrom(json.num);
  const symbol = symbolOf(json);
  if (symbol !== undefined) return symbolExpr(symbol);
  const call = asCall(json);
  if (!call || typeof call[0] !== 'string') throw new UnsupportedMath('not an expression');
  const [head, ...args] = call as [string, ...unknown[]];
  const child = (index: number): Expr => {
    if (index >= args.length) throw new UnsupportedMath(`${head} is missing an argument`);
    return convert(args[index], budget, depth + 1);
  };
  const all = (): Expr[] => args.map((arg) => convert(arg, budget, depth + 1));
  const fn = FUNCTIONS[head];
  if (fn !== undefined) {
    if (args.length !== 1) throw new UnsupportedMath(`${head} with ${args.length} arguments`);
    return { kind: 'apply', name: fn, argument: child(0) };
  }
  switch (head) {
    case 'Add':
      return { kind: 'add', terms: all() };
    case 'Subtract':
      if (args.length === 1) return { kind: 'negate', argument: child(0) };
      if (args.length !== 2) throw new UnsupportedMath('Subtract arity');
      return { kind: 'add', terms: [child(0), { kind: 'negate', argument: child(1) }] };
    case 'Negate':
      return { kind: 'negate', argument: child(0) };
    case 'Multiply':
      return { kind: 'multiply', factors: all() };
    case 'InvisibleOperator':
      return juxtaposition(args, budget, depth);
    case 'Divide':
    case 'Rational':
      if (args.length !== 2) throw new UnsupportedMath(`${head} arity`);
      return { kind: 'divide', numerator: child(0), denominator: child(1) };
    case 'Power':
      return { kind: 'power', base: child(0), exponent: child(1) };
    case 'Square':
      return { kind: 'power', base: child(0), exponent: numberFrom('2') };
    case 'Sqrt':
      return { kind: 'root', argument: child(0), index: 2 };
    case 'Root': {
      const index = integerLiteral(args[1]);
      if (index === undefined || index < 2n || index > 64n) throw new UnsupportedMath('root index');
      return { kind: 'root', argument: child(0), index: Number(index) };
    }
    case 'Log':
      return { kind: 'log', argument: child(0), base: args.length > 1 ? child(1) : { kind: 'number', value: TEN, decimalDigits: 0 } };
    case 'Lg':
      return { kind: 'log', argument: child(0), base: { kind: 'number', value: TEN, decimalDigits: 0 } };
    case 'Lb':
      return { kind: 'log', argument: child(0), base: numberFrom('2') };
    case 'Degrees':
      return { kind: 'degrees', argument: child(0) };
    case 'Delimiter':
    case 'Annotated':
      // `(x+1)` and `\displaystyle …`: the first argument is the content; a delimited sequence is a tuple.
      if (asCall(args[0])?.[0] === 'Sequence') {
        const items = (asCall(args[0]) ?? []).slice(1);
        if (items.length !== 1) throw new UnsupportedMath('a tuple is not a number');
        return convert(items[0], budget, depth + 1);
      }
      return child(0);
    default:
      throw new UnsupportedMath(`unsupported ${head}`);
  }
}

function symbolExpr(symbol: string): Expr {
  switch (symbol) {
    case 'Pi':
      return { kind: 'constant', name: 'pi' };
    case 'e':
    case 'ExponentialE':
      return { kind: 'constant', name: 'e' };
    case 'Half':
      return { kind: 'number', value: rational(1n, 2n) as Rational, decimalDigits: 0 };
    case 'i':
    case 'ImaginaryUnit':
      throw new UnsupportedMath('complex numbers');
    default:
      if (isVariableName(symbol)) return { kind: 'variable', name: symbol };
      throw new UnsupportedMath(`symbol ${symbol}`);
  }
}

/**
 * Juxtaposed terms multiply, with two readings the parser leaves to us: `3\frac{1}{2}` (an integer then a numeric
 * fraction) is a mixed number, 7/2, as Korean textbooks write it; `f(x)` (f, g or h before parentheses) is
 * function notation, which the checker does not evaluate.
 */
function juxtaposition(args: unknown[], budget: Budget, depth: number): Expr {
  const whole = integerLiteral(args[0]);
  const fraction = asCall(args[1]);
  if (
    args.length === 2 &&
    whole !== undefined &&
    fraction?.[0] === 'Divide' &&
    integerLiteral(fraction[1]) !== undefined &&
    integerLiteral(fraction[2]) !== undefined
  ) {
    return { kind: 'add', terms: args.map((arg) => convert(arg, budget, depth + 1)) };
  }
  args.forEach((arg, index) => {
    const name = symbolOf(arg);
    if (name !== undefined && /^[fgh]$/.test(name) && asCall(args[index + 1])?.[0] === 'Delimiter') {
      throw new UnsupportedMath('function notation');
    }
  });
  return { kind: 'multiply', factors: args.map((arg) => convert(arg, budget, depth + 1)) };
}

/** The free variables of an expression. */
export function variablesOf(expr: Expr, into = new Set<string>()): Set<string> {
  switch (expr.kind) {
    case 'variable':
      into.add(expr.name);
      break;
    case 'number':
    case 'constant':
      break;
    case 'add':
      expr.terms.forEach((term) => variablesOf(term, into));
      break;
    case 'multiply':
      expr.factors.forEach((factor) => variablesOf(factor, into));
      break;
    case 'divide':
      variablesOf(expr.numerator, into);
      variablesOf(expr.denominator, into);
      break;
    case 'power':
      variablesOf(expr.base, into);
      variablesOf(expr.exponent, into);
      break;
    case 'log':
      variablesOf(expr.argument, into);
      variablesOf(expr.base, into);
      break;
    case 'negate':
    case 'root':
    case 'apply':
    case 'degrees':
      variablesOf(expr.argument, into);
      break;
  }
  return into;
}

/** Every sub-expression, the expression first. */
export function* walk(expr: Expr): Generator<Expr> {
  yield expr;
  switch (expr.kind) {
    case 'add':
      for (const term of expr.terms) yield* walk(term);
      break;
    case 'multiply':
      for (const factor of expr.factors) yield* walk(factor);
      break;
    case 'divide':
      yield* walk(expr.numerator);
      yield* walk(expr.denominator);
      break;
    case 'power':
      yield* walk(expr.base);
      yield* walk(expr.exponent);
      break;
    case 'log':
      yield* walk(expr.argument);
      yield* walk(expr.base);
      break;
    case 'negate':
    case 'root':
    case 'apply':
    case 'degrees':
      yield* walk(expr.argument);
      break;
    default:
      break;
  }
}

/** Replaces variables by name (for the renaming check). */
export function renameVariables(expr: Expr, names: ReadonlyMap<string, string>): Expr {
  const again = (inner: Expr): Expr => renameVariables(inner, names);
  switch (expr.kind) {
    case 'variable':
      return { kind: 'variable', name: names.get(expr.name) ?? expr.name };
    case 'number':
    case 'constant':
      return expr;
    case 'add':
      return { kind: 'add', terms: expr.terms.map(again) };
    case 'multiply':
      return { kind: 'multiply', factors: expr.factors.map(again) };
    case 'divide':
      return { kind: 'divide', numerator: again(expr.numerator), denominator: again(expr.denominator) };
    case 'power':
      return { kind: 'power', base: again(expr.base), exponent: again(expr.exponent) };
    case 'log':
      return { kind: 'log', argument: again(expr.argument), base: again(expr.base) };
    case 'negate':
    case 'root':
    case 'apply':
    case 'degrees':
      return { ...expr, argument: again(expr.argument) };
  }
}

/** `a − b` as one expression (equations are compared as lhs − rhs). */
export function difference(a: Expr, b: Expr): Expr {
  return { kind: 'add', terms: [a, { kind: 'negate', argument: b }] };
}
