import type { ServerResponse } from 'node:http';

/**
 * How the fake model servers (fake-gemini, fake-openai) write a streamed body: optionally a few bytes per TCP write,
 * so UTF-8 characters are cut between reads, and with waits that end early when the client goes away. It owns the
 * timers so a fake's close() can clear every pending one.
 */
export class ResponsePacer {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Writes a body part; false once the client has gone. */
  async write(response: ServerResponse, text: string, splitBytes: boolean): Promise<boolean> {
    const bytes = Buffer.from(text, 'utf8');
    if (!splitBytes) {
      if (response.destroyed) return false;
      response.write(bytes);
      await new Promise<void>((resolve) => setImmediate(resolve));
      return !response.destroyed;
    }
    const sizes = [1, 2, 4, 5, 7];
    for (let offset = 0, turn = 0; offset < bytes.length; turn++) {
      if (response.destroyed) return false;
      const size = sizes[turn % sizes.length] ?? 1;
      response.write(bytes.subarray(offset, offset + size));
      offset += size;
      // A short pause lets each slice leave as its own TCP segment instead of being coalesced.
      await this.wait(1, response);
    }
    return !response.destroyed;
  }

  /** Waits `ms`, or less if the response closes first. */
  wait(ms: number, response: ServerResponse): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        response.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.timers.add(timer);
      response.on('close', done);
    });
  }

  /** Clears every pending wait (the fake is closing). */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
