import type { z } from 'zod';
import type { Logger } from '../kernel/index.js';

/** Where a record was read from, for the log line of a corrupt one. */
export interface RecordSource {
  key: string;
  logger?: Logger | undefined;
}

/**
 * The one way a repository reads a JSON record back from the store: parsed, then validated with its zod schema.
 *
 * Policy: a record that is not JSON or does not match its schema is logged (warn, with the key and zod's issues,
 * never the record itself) and treated as missing. Callers answer it as they answer an absent record — null, 404, an
 * entry rebuilt or left out of a list — so a half-read record never reaches a feature and a corrupt one cannot take
 * every request that touches it down with a 500. Absent (`null`/`undefined`) is simply null.
 */
export function readJsonRecord<T>(raw: string | null | undefined, schema: z.ZodType<T>, source: RecordSource): T | null {
  if (raw === null || raw === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    source.logger?.warn({ key: source.key, err: error }, 'stored record is not JSON; treated as missing');
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  source.logger?.warn({ key: source.key, issues: parsed.error.issues.slice(0, 5) }, 'stored record does not match its schema; treated as missing');
  return null;
}
