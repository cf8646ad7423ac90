/**
 * The outbox worker's sent marks and its pace (./outbox-steps.ts sends, ./outbox-worker.ts runs
 * the rounds):
 *  - sent marks: the rows the relay accepted recorded `sent`, the marks of a round in one
 *    statement, asked again for a while when the database is out of reach (decision 052);
 *  - pace: how long sends take, from which the worker judges whether to claim ahead.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { isDatabaseUnavailable } from '../db/unavailable';
import { outbox } from '../db/schema';

/** The ids as a SQL list, for `in (...)`. */
export function idList(ids: readonly number[]) {
  return sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
}

/** How often a mark is asked again while the database is out of reach. */
const MARK_RETRY_MS = 250;

// --- Mark --------------------------------------------------------------------------------------

/**
 * Records e-mails as sent. A mark is written at the next `flush()`, or `maxDelayMs` after it was
 * asked for at the latest (0: at once); marks arriving while one statement is written go together
 * in the next. The worker flushes when a round's sends have all ended: one statement a round.
 */
export class SentMarks {
  private pending: { id: number; done: (error?: unknown) => void }[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  private unsettled = new Set<Promise<void>>();

  /**
   * @param retryForMs how long a mark is asked again while the database is out of reach: less
   *   than the rows' lease, after which another round may claim them.
   */
  constructor(
    private readonly db: Queryable,
    private readonly maxDelayMs = 0,
    private readonly retryForMs = 0,
  ) {}

  mark(id: number): Promise<void> {
    const marked = new Promise<void>((resolve, reject) => {
      this.pending.push({ id, done: (error) => (error ? reject(error) : resolve()) });
    });
    const settled = marked.then(
      () => {},
      () => {},
    );
    this.unsettled.add(settled);
    void settled.then(() => this.unsettled.delete(settled));
    if (this.maxDelayMs === 0) this.write();
    else this.timer ??= setTimeout(() => this.write(), this.maxDelayMs);
    return marked;
  }

  /** Writes the marks asked for so far; resolves once each is written or has failed. */
  flush(): Promise<void> {
    if (this.unsettled.size === 0) return Promise.resolve();
    this.write();
    return Promise.all(this.unsettled).then(() => {});
  }

  private write() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.writing) void this.writeAll();
  }

  private async writeAll() {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      // A database out of reach (restarting) is asked again for a while (half the rows' lease, so
      // normally before it ends): the worker waits for its marks before its next round, so the
      // e-mails the relay has are not sent again when the database is back (decision 052).
      const giveUpAt = Date.now() + this.retryForMs;
      for (;;) {
        try {
          await this.db.execute(
            sql`update ${outbox} set status = 'sent', sent_at = now(), last_attempt_at = now(), last_error = null, handed_at = null
                where id in (${idList(batch.map((m) => m.id))})`,
          );
          for (const m of batch) m.done();
          break;
        } catch (error) {
          if (isDatabaseUnavailable(error) && Date.now() + MARK_RETRY_MS < giveUpAt) {
            await new Promise((resolve) => setTimeout(resolve, MARK_RETRY_MS));
            continue;
          }
          for (const m of batch) m.done(error);
          break;
        }
      }
    }
    this.writing = false;
  }
}

// --- Pace --------------------------------------------------------------------------------------

/** How long sends take: a moving average, and the sends under way. */
export class SendPace {
  private averageMs = 0;
  private readonly underWay = new Set<{ at: number }>();

  /** A send begins; call what it returns when it ends. */
  begin(): () => void {
    const send = { at: performance.now() };
    this.underWay.add(send);
    return () => {
      this.underWay.delete(send);
      const ms = performance.now() - send.at;
      this.averageMs = this.averageMs === 0 ? ms : this.averageMs * 0.8 + ms * 0.2;
    };
  }

  /** What a send takes now: the average, or longer if a send under way has taken longer. */
  typicalMs(now = performance.now()): number {
    let ms = this.averageMs;
    for (const send of this.underWay) ms = Math.max(ms, now - send.at);
    return ms;
  }
}
