import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One HTTP status number written as a literal where a status is meant. */
export interface StatusLiteral {
  /** Path relative to the scanned folder (`exams/service.ts`). */
  file: string;
  line: number;
  status: number;
  /** The source text around it (`status: 409`, `res.status(404)`). */
  context: string;
}

/** The error statuses a literal may name (4xx and 5xx); success codes are not error mapping. */
const isErrorStatus = (value: number) => Number.isInteger(value) && value >= 400 && value <= 599;
const STATUS_NAME = /status/iu;

function nameOf(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)) return node.argumentExpression.text;
  return undefined;
}

/** `ErrorCode.X`: a number passed beside an error code is that error's status (`refuse(ErrorCode.X, message, 400)`). */
const isErrorCode = (node: ts.Node) =>
  ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'ErrorCode';

/** The error classes whose constructor takes a status; a literal passed to one is a status wherever it sits. */
const ERROR_CLASS = /Error$/u;

/**
 * Whether the number literal `node` stands for an HTTP status: the value of a property, variable or parameter named
 * `*status*`, compared with or assigned to one, passed to `.status()`/`.sendStatus()`/`writeHead()`, or passed to a
 * `new …Error(…)` constructor or to any call that is also given an `ErrorCode`. Ordinary numbers (limits, sizes, ports, milliseconds) are none of these.
 */
function isStatusContext(node: ts.NumericLiteral): boolean {
  let child: ts.Node = node;
  let parent = node.parent;
  // a literal in `cond ? 404 : 409` or `(404)` is in its enclosing context
  while (ts.isParenthesizedExpression(parent) || ts.isConditionalExpression(parent) || (ts.isBinaryExpression(parent) && (parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || parent.operatorToken.kind === ts.SyntaxKind.BarBarToken))) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isPropertyAssignment(parent) && parent.initializer === child) return STATUS_NAME.test(nameOf(parent.name) ?? '');
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === child) {
    return STATUS_NAME.test(nameOf(parent.name) ?? '');
  }
  if (ts.isBinaryExpression(parent)) {
    const other = parent.left === child ? parent.right : parent.left;
    return STATUS_NAME.test(nameOf(other) ?? '');
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(child as ts.Expression)) {
    const callee = nameOf(parent.expression) ?? '';
    return STATUS_NAME.test(callee) || callee === 'writeHead' || parent.arguments.some(isErrorCode);
  }
  if (ts.isNewExpression(parent) && parent.arguments?.includes(child as ts.Expression)) {
    return ERROR_CLASS.test(nameOf(parent.expression) ?? '') || parent.arguments.some(isErrorCode);
  }
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) {
    let fn: ts.Node | undefined = parent;
    while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
    const name = fn && (ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name ? nameOf(fn.name) : fn && ts.isArrowFunction(fn) && ts.isVariableDeclaration(fn.parent) ? nameOf(fn.parent.name) : undefined;
    return STATUS_NAME.test(name ?? '');
  }
  if (ts.isCaseClause(parent) && parent.expression === child) return STATUS_NAME.test(nameOf(parent.parent.parent.expression) ?? '');
  return false;
}

/** Every status literal in `source` (the text of one .ts file). */
export function statusLiteralsIn(file: string, source: string): StatusLiteral[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: StatusLiteral[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNumericLiteral(node) && isErrorStatus(Number(node.text)) && isStatusContext(node)) {
      const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
      let context: ts.Node = node;
      while (context.parent && context.getText(sourceFile).length < 12 && !ts.isSourceFile(context.parent)) context = context.parent;
      found.push({ file, line: line + 1, status: Number(node.text), context: context.getText(sourceFile).slice(0, 80) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Every status literal in the .ts files under `srcDir`, skipping the folders (`http/`) allowed to hold them. */
export function statusLiterals(srcDir: string, allowedFolders: string[]): StatusLiteral[] {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  return files
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => !allowedFolders.some((folder) => file.startsWith(folder)))
    .flatMap((file) => statusLiteralsIn(file, readFileSync(path.join(srcDir, file), 'utf8')));
}

/** A throw site that passes the message its code has anyway (`ERROR_MESSAGES[code]`). */
export interface RedundantMessage {
  file: string;
  line: number;
  code: string;
}

const errorCodeName = (node: ts.Node | undefined): string | undefined =>
  node && isErrorCode(node) ? (node as ts.PropertyAccessExpression).name.text : undefined;

/**
 * Every `new AppError(ErrorCode.X, '…')`, `super(ErrorCode.X, '…')` or helper call `f(ErrorCode.X, '…')` in `source`
 * whose message literal is exactly `messages[X]`: the message it would say without one.
 */
export function redundantMessagesIn(file: string, source: string, messages: Readonly<Record<string, string>>): RedundantMessage[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: RedundantMessage[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
      const [first, second] = node.arguments ?? [];
      const code = errorCodeName(first);
      if (code !== undefined && second && (ts.isStringLiteral(second) || ts.isNoSubstitutionTemplateLiteral(second)) && messages[code] === second.text) {
        found.push({ file, line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1, code });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Every redundant message in the .ts files under `srcDir`. */
export function redundantMessages(srcDir: string, messages: Readonly<Record<string, string>>): RedundantMessage[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .flatMap((file) => redundantMessagesIn(file, readFileSync(path.join(srcDir, file), 'utf8'), messages));
}
