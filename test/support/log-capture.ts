import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/kernel/logger.js';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real pino logger writing to memory: `lines()` parses what was logged, `text()` is the raw output. */
export function captureLogs(level = 'info'): { logger: Logger; lines: () => LogLine[]; text: () => string } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    logger: createLogger(level, sink),
    text,
    lines: () => text().split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogLine),
  };
}
