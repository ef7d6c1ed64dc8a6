import { z } from 'zod';

/**
 * The one place model text is turned into values. Models wrap JSON in Markdown fences, add a BOM or a sentence
 * around it, or stop mid-object; none of that may throw through an agent. Every caller gets a result value.
 */

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export type SchemaParseResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** 'json' when the text is not JSON at all, 'schema' when it is JSON of the wrong shape. */
      kind: 'json' | 'schema';
      /** Human-readable, also meant to be shown back to the model in a repair turn. */
      error: string;
    };

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```/;

/** Removes a BOM, surrounding whitespace and a Markdown code fence (```json … ```) if the JSON sits inside one. */
export function stripJsonFence(text: string): string {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  const fenced = FENCE.exec(trimmed);
  return fenced?.[1] === undefined ? trimmed : fenced[1].trim();
}

/** Parses JSON text (tolerating a ```json fence) without throwing. */
export function parseJson(text: string): ParseResult<unknown> {
  const body = stripJsonFence(text);
  if (body === '') return { ok: false, error: 'The reply is empty; expected a JSON value.' };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The reply is not valid JSON: ${detail}` };
  }
}

/** Parses JSON text and validates it with a zod schema; the error names each failing path. */
export function parseWithSchema<T>(text: string, schema: z.ZodType<T>): SchemaParseResult<T> {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, kind: 'json', error: json.error };
  return validateWithSchema(json.value, schema);
}

/** Validates an already-parsed value (the offline model's handlers return values, not text). */
export function validateWithSchema<T>(value: unknown, schema: z.ZodType<T>): SchemaParseResult<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, kind: 'schema', error: `The JSON does not match the schema:\n${z.prettifyError(parsed.error)}` };
}
