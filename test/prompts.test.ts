import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createPrompt,
  defaultPromptDirectory,
  loadAllPrompts,
  loadPrompt,
  PromptError,
} from '../src/llm/prompt-loader.js';

describe('every prompt file', () => {
  const prompts = loadAllPrompts();

  it('is found in the repository prompts folder', () => {
    expect(defaultPromptDirectory()).toBe(path.resolve(import.meta.dirname, '..', 'prompts'));
    expect(prompts.has('echo')).toBe(true);
  });

  for (const [name, prompt] of prompts) {
    it(`${name} renders with exactly its placeholders`, () => {
      const values = Object.fromEntries(prompt.placeholders.map((placeholder) => [placeholder, `<${placeholder}>`]));
      const rendered = prompt.render(values);
      for (const placeholder of prompt.placeholders) expect(rendered).toContain(`<${placeholder}>`);
      expect(rendered).not.toMatch(/\{\{[A-Za-z0-9_.]+\}\}/);
      expect(prompt.hash).toMatch(/^[0-9a-f]{16}$/);
    });
  }
});

describe('loadPrompt', () => {
  it('loads echo.md with its placeholder and a stable hash', () => {
    const echo = loadPrompt('echo');
    expect(echo.name).toBe('echo');
    expect(echo.placeholders).toEqual(['topic']);
    expect(echo.render({ topic: '미분' })).toBe('Explain 미분 in one short paragraph.\n');
    expect(loadPrompt('echo')).toBe(echo);
  });

  it('loads the JSON repair prompt used by the Gemini adapter', () => {
    expect(loadPrompt('json-repair').render({ error: 'The reply is empty; expected a JSON value.' })).toBe(
      'Your previous reply could not be used:\n\nThe reply is empty; expected a JSON value.\n\n' +
        'Reply again with only the corrected JSON value that satisfies the requested schema: no explanations, no Markdown fences.\n',
    );
  });

  it('reads from another directory and rejects unknown or unsafe names', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'prompts-'));
    writeFileSync(path.join(directory, 'greet.md'), 'Hi {{user.name}}, about {{topic_1}} and {{user.name}} again.');
    const greet = loadPrompt('greet', directory);
    expect(greet.placeholders).toEqual(['user.name', 'topic_1']);
    expect(loadAllPrompts(directory).size).toBe(1);
    expect(() => loadPrompt('missing', directory)).toThrow(expect.objectContaining({ code: 'PROMPT_NOT_FOUND' }));
    expect(() => loadPrompt('../echo', directory)).toThrow(expect.objectContaining({ code: 'PROMPT_INVALID_NAME' }));
  });
});

describe('render', () => {
  const prompt = createPrompt('t', 'A={{a}}; B={{b.c}}; A again={{a}}.');

  it('fills every occurrence, exactly', () => {
    expect(prompt.render({ a: '1', 'b.c': '둘' })).toBe('A=1; B=둘; A again=1.');
  });

  it('inserts values literally, never expanding placeholders inside them', () => {
    expect(prompt.render({ a: '{{b.c}}', 'b.c': '$& $1' })).toBe('A={{b.c}}; B=$& $1; A again={{b.c}}.');
  });

  it('throws a typed error naming missing values', () => {
    try {
      prompt.render({ a: '1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PromptError);
      expect(error).toMatchObject({ code: 'PROMPT_MISSING_VALUE', prompt: 't', names: ['b.c'] });
    }
  });

  it('throws a typed error naming values the template does not use', () => {
    try {
      prompt.render({ a: '1', 'b.c': '2', extra: 'x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PromptError);
      expect(error).toMatchObject({ code: 'PROMPT_UNUSED_VALUE', names: ['extra'] });
    }
  });

  it('hashes the template text (sha256, 16 hex characters)', () => {
    expect(createPrompt('x', 'abc').hash).toBe('ba7816bf8f01cfea');
    expect(createPrompt('y', 'abc').hash).toBe(createPrompt('x', 'abc').hash);
  });
});
