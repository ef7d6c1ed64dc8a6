import { z } from 'zod';

/**
 * The JSON Schema a model should follow for a zod schema, the same for every provider. `io: 'input'` describes
 * what our zod schema accepts (the model's output is our parser's input, so defaulted fields are optional);
 * `$schema` is dropped because Gemini rejects unknown keys. Replies are always parsed with the zod schema too.
 */
export function toResponseSchema(schema: z.ZodType): Record<string, unknown> {
  const jsonSchema: Record<string, unknown> = { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) };
  delete jsonSchema['$schema'];
  return jsonSchema;
}
