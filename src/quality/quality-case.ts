import { z } from 'zod';
import { MAX_CRITIC_TEXT } from '../protocol/critic.js';

/**
 * A sampled agent output, as it waits in the queue for the background grading: seed 004's `data_to_grade`
 * (instruction, input, output) plus who produced it (the model task: the agent) and for whom. Every text is cut to
 * the critic's limit, so any sampled case can be graded.
 */
export const QualityCase = z.object({
  id: z.string(),
  agent: z.string(),
  at: z.number(),
  instruction: z.string(),
  input: z.string(),
  output: z.string(),
  accountId: z.string().optional(),
  materialId: z.string().optional(),
  /** The tutoring session the output was written for (a class student's answers may be quoted in it). */
  sessionId: z.string().optional(),
});
export type QualityCase = z.infer<typeof QualityCase>;

/** Agents never sampled: the critic's own grading (it would grade itself in a loop). Embeddings are never sampled. */
export const UNSAMPLED_TASK_PREFIXES = ['critic.'] as const;

/** Longest string kept inside a compact rendering of a structured input (the whole rendering is cut too). */
const MAX_FIELD = 2_000;

export function clipText(text: string, max: number = MAX_CRITIC_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A structured model input as compact JSON for people and for the critic: long strings cut, binary data (PDF files,
 * vectors) and functions left out, at most MAX_CRITIC_TEXT characters. Never throws (cycles are left out too).
 */
export function renderInput(input: unknown): string {
  const seen = new WeakSet<object>();
  let rendered: string | undefined;
  try {
    rendered = JSON.stringify(input, (_key, value: unknown) => {
      if (typeof value === 'string') return clipText(value, MAX_FIELD);
      if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return undefined;
      if (value instanceof Uint8Array || ArrayBuffer.isView(value)) return '(binary)';
      if (Array.isArray(value) && value.length > 64 && value.every((entry) => typeof entry === 'number')) return `(${value.length} numbers)`;
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return undefined;
        seen.add(value);
      }
      return value;
    });
  } catch {
    rendered = undefined;
  }
  return clipText(rendered ?? '', MAX_CRITIC_TEXT);
}

/** The instruction the agent was given: its system prompt, then its prompt (which embeds the fenced input). */
export function renderInstruction(system: string | undefined, prompt: string): string {
  const text = system === undefined || system.trim() === '' ? prompt : `${system}\n\n${prompt}`;
  return clipText(text.trim() === '' ? '(지시문 없음)' : text);
}
