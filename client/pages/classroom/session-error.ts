import { $ } from '../../ui/dom.js';

/**
 * What the error box offers: `resume` ("계속" resumes the stopped lecture), `reconnect` (the socket must connect
 * again), `wait` (the server recovers by itself, e.g. a store outage: nothing to press), `fatal` (only starting over).
 */
export type ErrorMode = 'resume' | 'reconnect' | 'wait' | 'fatal';

/** The classroom's session error box: one message and the buttons its mode offers. */
export class SessionErrorBox {
  readonly resume = $<HTMLButtonElement>('session-error-resume');
  readonly restart = $<HTMLButtonElement>('session-error-restart');
  private readonly box = $('session-error');
  private readonly line = $('session-error-text');
  private current: ErrorMode = 'resume';

  get mode(): ErrorMode {
    return this.current;
  }

  show(message: string, mode: ErrorMode = 'resume'): void {
    this.current = mode;
    this.line.textContent = message;
    this.resume.hidden = mode === 'fatal' || mode === 'wait';
    this.resume.textContent = mode === 'reconnect' ? '다시 연결' : '계속';
    this.resume.setAttribute('aria-label', mode === 'reconnect' ? '다시 연결' : '강의 계속');
    this.restart.hidden = mode === 'resume' || mode === 'wait';
    this.box.hidden = false;
  }

  /** Replaces the message only (a retry that failed again). */
  say(message: string): void {
    this.line.textContent = message;
  }

  hide(): void {
    this.box.hidden = true;
    this.current = 'resume';
  }
}
