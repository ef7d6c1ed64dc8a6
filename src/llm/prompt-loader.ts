import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Prompts are files (`prompts/<name>.md`) with `{{placeholder}}` slots. Rendering is strict in both directions —
 * a slot without a value and a value without a slot are both errors — so a renamed placeholder can never silently
 * send an empty or stale prompt. The hash of the file's text is part of every generation cache key.
 */

export interface Prompt {
  name: string;
  /** The template exactly as stored in the file. */
  text: string;
  /** sha256 of the text, hex, first 16 characters. */
  hash: string;
  /** Distinct placeholder names in order of first appearance. */
  placeholders: string[];
  render(values: Record<string, string>): string;
}

export type PromptErrorCode = 'PROMPT_NOT_FOUND' | 'PROMPT_INVALID_NAME' | 'PROMPT_MISSING_VALUE' | 'PROMPT_UNUSED_VALUE';

/** A programming error in how a prompt is named or filled; it never reaches a client as anything but INTERNAL. */
export class PromptError extends Error {
  constructor(
    readonly code: PromptErrorCode,
    readonly prompt: string,
    message: string,
    /** The placeholders (missing) or value names (unused) at fault. */
    readonly names: string[] = [],
  ) {
    super(message);
    this.name = 'PromptError';
  }
}

const PLACEHOLDER = /\{\{([A-Za-z0-9_.]+)\}\}/g;
const PROMPT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const cache = new Map<string, Prompt>();
let defaultDirectory: string | undefined;

/**
 * The repository's `prompts/` folder, found by walking up from this file to the folder holding package.json, so
 * the same code works from `src/llm/` (tsx, vitest) and from `dist/src/llm/` (compiled).
 */
export function defaultPromptDirectory(): string {
  if (defaultDirectory !== undefined) return defaultDirectory;
  let current = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(current, 'package.json'))) {
      defaultDirectory = path.join(current, 'prompts');
      return defaultDirectory;
    }
    const parent = path.dirname(current);
    if (parent === current) throw new Error('prompt-loader: no package.json above this module; pass a prompt directory');
    current = parent;
  }
}

/** Makes a Prompt from template text (exported for tests and for prompts assembled in code). */
export function createPrompt(name: string, text: string): Prompt {
  const placeholders = [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1] ?? ''))];
  const known = new Set(placeholders);
  return {
    name,
    text,
    hash: createHash('sha256').update(text).digest('hex').slice(0, 16),
    placeholders,
    render(values) {
      const missing = placeholders.filter((placeholder) => !Object.hasOwn(values, placeholder));
      if (missing.length > 0) {
        throw new PromptError('PROMPT_MISSING_VALUE', name, `Prompt "${name}" needs a value for: ${missing.join(', ')}`, missing);
      }
      const unused = Object.keys(values).filter((key) => !known.has(key));
      if (unused.length > 0) {
        throw new PromptError('PROMPT_UNUSED_VALUE', name, `Prompt "${name}" does not use: ${unused.join(', ')}`, unused);
      }
      // One pass with a replacer, so a value that itself contains "{{x}}" is inserted literally, never expanded.
      return text.replace(PLACEHOLDER, (_match, placeholder: string) => values[placeholder] ?? '');
    },
  };
}

/** Loads (once per process) `prompts/<name>.md` from `directory` (default: the repository's prompts folder). */
export function loadPrompt(name: string, directory: string = defaultPromptDirectory()): Prompt {
  if (!PROMPT_NAME.test(name)) {
    throw new PromptError('PROMPT_INVALID_NAME', name, `Invalid prompt name "${name}"`);
  }
  const file = path.resolve(directory, `${name}.md`);
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const prompt = new PromptError('PROMPT_NOT_FOUND', name, `Prompt file not found: ${file}`);
    prompt.cause = error;
    throw prompt;
  }
  const prompt = createPrompt(name, text);
  cache.set(file, prompt);
  return prompt;
}

/** Loads every `*.md` in a directory, keyed by prompt name, in name order. */
export function loadAllPrompts(directory: string = defaultPromptDirectory()): Map<string, Prompt> {
  const names = readdirSync(directory)
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -'.md'.length))
    .sort();
  return new Map(names.map((name) => [name, loadPrompt(name, directory)]));
}
