/**
 * The question timer. The server sends the remaining time (not a clock time, so the devices' clocks never matter);
 * the page counts it down locally and freezes it while paused. `bar` is scaled by the share of `totalMs` left.
 */
export class Countdown {
  private timer: ReturnType<typeof setInterval> | undefined;
  private endsAt = 0;
  private remaining = 0;
  private total = 1;
  private paused = false;
  private warn = true;

  constructor(private readonly parts: { bar: HTMLElement; label: HTMLElement; root: HTMLElement }) {}

  /** `warn`: turn the bar red in the last five seconds (answer time, not the short preview). */
  set(remainingMs: number, totalMs: number, paused: boolean, warn = true): void {
    this.stop();
    this.warn = warn;
    this.total = Math.max(totalMs, 1);
    this.remaining = Math.max(remainingMs, 0);
    this.paused = paused;
    this.endsAt = performance.now() + this.remaining;
    this.parts.root.dataset.paused = String(paused);
    this.draw();
    if (!paused) this.timer = setInterval(() => this.draw(), 100);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private draw(): void {
    const { bar, label, root } = this.parts;
    if (!this.paused) this.remaining = Math.max(this.endsAt - performance.now(), 0);
    const seconds = Math.ceil(this.remaining / 1000);
    label.textContent = String(seconds);
    root.dataset.seconds = String(seconds);
    bar.style.width = `${Math.min(100, (this.remaining / this.total) * 100)}%`;
    root.classList.toggle('low', this.warn && !this.paused && this.remaining <= 5_000);
    if (this.remaining <= 0) this.stop();
  }
}
