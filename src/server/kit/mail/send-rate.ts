/**
 * The bulk lane's rate (NEWSLETTER_SEND_RATE, decision 046), kept by the outbox worker
 * (./outbox-worker.ts) round by round.
 */

/**
 * A rate in messages a second, kept round by round: after a round of `n` messages, how long to
 * wait before the next so that, on average, no more than the rate leave (0: no limit, no wait).
 * A worker that idled does not earn a burst: the account starts again from now.
 */
export class SendRate {
  private nextAt = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** After a round of `n` messages that began at `startedAt` (the same clock): the wait, in ms. */
  after(n: number, startedAt: number): number {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    this.nextAt = Math.max(this.nextAt, startedAt) + (n * 1000) / this.perSecond;
    return Math.max(0, this.nextAt - now);
  }
}
