import { pino, type Logger } from 'pino';

export type { Logger };

/** The one logger factory; everything else receives a Logger (or a child of it) as a dependency. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return destination ? pino({ level, base: { app: 'lectern' } }, destination) : pino({ level, base: { app: 'lectern' } });
}
