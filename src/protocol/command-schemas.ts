import type { z } from 'zod';
import type { CommandMap } from './wire/events.js';

/**
 * A zod schema for every command of a wire command map, keyed by the command's name. `satisfies` on a schema table
 * makes the compiler check that the table names every command and that each schema's output is its wire payload.
 */
export type CommandSchemas<C extends CommandMap<C>> = { readonly [K in keyof C]: z.ZodType<C[K]['payload']> };
