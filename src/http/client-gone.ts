import type { Response } from 'express';

/** Aborts when the client goes away before the answer is sent, so a closed tab stops paying for model calls. */
export function abortedWith(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
