/** A run's grading lease was lost (not renewed in time, or taken over): the run stops writing. */
export class GradingLeaseLost extends Error {
  constructor() {
    super('exam grading lease lost');
    this.name = 'GradingLeaseLost';
  }
}

/**
 * Keeps a grading run's lease while the run works: renewed every third of its length, so only a node that stopped
 * (died, or lost the store) lets it lapse. Once a renewal fails the run is told at its next {@link check}.
 */
export class GradingLease {
  private lost = false;
  private readonly timer: NodeJS.Timeout;

  constructor(renew: () => Promise<boolean>, leaseMs: number) {
    this.timer = setInterval(
      () => {
        renew().then(
          (held) => {
            if (!held) this.lost = true;
          },
          () => {
            this.lost = true;
          },
        );
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    this.timer.unref();
  }

  /** Throws {@link GradingLeaseLost} once a renewal failed. */
  check(): void {
    if (this.lost) throw new GradingLeaseLost();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
