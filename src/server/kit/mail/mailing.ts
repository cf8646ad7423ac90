/**
 * Mailings: one e-mail to many recipients (a newsletter issue), sent through the outbox on the
 * `bulk` lane (decision 046). The text is rendered once and stored once (`outbox_bodies`); each
 * recipient's row holds only the subject, its headers, the body's id and the recipient's own
 * values (an unsubscribe link), put in place of the body's marks when the row is composed. The
 * recipients are written once, in the transaction that starts the mailing, and a unique index
 * (mailing, address) makes a second start write nobody again. A mailing can be held (its waiting
 * rows set aside), let go again, or cancelled; rows already handed to the relay end as they would.
 */
import { randomUUID } from 'node:crypto';
import { deliveryErrorKind, isMailboxGone } from '~/content/delivery-errors';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/rows';
import { outbox, outboxBodies, type MailingMessage } from '../db/schema';
import { escapeHtml } from './layout';
import { headerSafe, type ClaimedRow } from './outbox';

export type SharedBody = { html: string; text: string };

/** Stores a mailing's rendered text; answers its id. */
export async function storeSharedBody(tx: Queryable, body: SharedBody): Promise<string> {
  const id = randomUUID();
  await tx.insert(outboxBodies).values({ id, html: body.html, text: body.text });
  return id;
}

/** The body with the recipient's values in place of its marks (escaped for the HTML part). */
export function filledBody(body: SharedBody, fill: Readonly<Record<string, string>>): SharedBody {
  let { html, text } = body;
  for (const [mark, value] of Object.entries(fill)) {
    html = html.split(mark).join(escapeHtml(value));
    text = text.split(mark).join(value);
  }
  return { html, text };
}

export function isMailingMessage(message: ClaimedRow['message']): message is MailingMessage {
  return 'bodyId' in message;
}

/**
 * The shared bodies the worker has read, by id: a mailing's rows all share one, so it is read
 * once and kept while the mailing goes out (the few newest only).
 */
export class SharedBodies {
  private readonly kept = new Map<string, SharedBody>();

  constructor(private readonly keep = 4) {}

  get(id: string): SharedBody | undefined {
    return this.kept.get(id);
  }

  /** Reads the bodies of the claimed rows not read yet (one statement, none when all are kept). */
  async load(db: Queryable, rows: readonly ClaimedRow[]): Promise<void> {
    const missing = new Set<string>();
    for (const row of rows) {
      if (isMailingMessage(row.message) && !this.kept.has(row.message.bodyId))
        missing.add(row.message.bodyId);
    }
    if (missing.size === 0) return;
    const found = rowsOf<{ id: string; html: string; text: string }>(
      await db.execute(
        sql`select id::text as id, html, text from ${outboxBodies} where id in (${sql.join(
          [...missing].map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    );
    for (const body of found) {
      this.kept.delete(body.id);
      this.kept.set(body.id, { html: body.html, text: body.text });
      while (this.kept.size > this.keep) this.kept.delete(this.kept.keys().next().value!);
    }
  }
}

export type MailingRecipient = {
  to: string;
  fill: Record<string, string>;
  /** The recipient's own headers (a List-Unsubscribe address), beside the mailing's. */
  headers?: Record<string, string>;
};

export type Mailing = {
  /**
   * The mailing's id (a newsletter issue's): one row per recipient and mailing, sent by the bulk
   * lane to `subscriber`s. Absent: a one-off to the console's own addresses (a test), sent on the
   * ordinary lane as the owner's e-mail.
   */
  id?: string;
  /** What the rows are, e.g. `newsletter.issue`. */
  kind: string;
  subject: string;
  bodyId: string;
  headers?: Record<string, string>;
  /** Written held (the mailing is paused): claimed only once it is let go. */
  held?: boolean;
};

/** Recipients written a statement at a time. */
const CHUNK = 1000;

/**
 * Writes a row per recipient on the given transaction (the one that starts the mailing); a
 * recipient the mailing already has is left alone. Answers how many rows were written.
 */
export async function enqueueMailing(
  tx: Queryable,
  mailing: Mailing,
  recipients: readonly MailingRecipient[],
): Promise<number> {
  const safe = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [headerSafe(k), headerSafe(v)]));
  const bulk = mailing.id !== undefined;
  let written = 0;
  for (let i = 0; i < recipients.length; i += CHUNK) {
    const rows = recipients.slice(i, i + CHUNK).map((r) => ({
      kind: mailing.kind,
      toAddress: headerSafe(r.to),
      audience: bulk ? ('subscriber' as const) : ('owner' as const),
      lane: bulk ? ('bulk' as const) : ('mail' as const),
      mailingId: mailing.id ?? null,
      ...(mailing.held ? { status: 'held' } : {}),
      message: {
        subject: headerSafe(mailing.subject),
        headers: mailing.headers || r.headers ? safe({ ...mailing.headers, ...r.headers }) : undefined,
        bodyId: mailing.bodyId,
        fill: r.fill,
      } satisfies MailingMessage,
    }));
    const result = await tx
      .insert(outbox)
      .values(rows)
      // The only unique index a new row can meet is (mailing, address): a recipient it already has.
      .onConflictDoNothing()
      .returning({ id: outbox.id });
    written += result.length;
  }
  return written;
}

/** Sets the mailing's waiting rows aside: the worker claims none of them until `releaseMailing`. */
export async function holdMailing(db: Queryable, mailingId: string): Promise<number> {
  const rows = await db.execute(
    sql`update ${outbox} set status = 'held' where mailing_id = ${mailingId}::uuid and status = 'pending' returning id`,
  );
  return rowsOf(rows).length;
}

/** Lets the held rows go again, due now. */
export async function releaseMailing(db: Queryable, mailingId: string): Promise<number> {
  const rows = await db.execute(
    sql`update ${outbox} set status = 'pending', next_attempt_at = now()
        where mailing_id = ${mailingId}::uuid and status = 'held' returning id`,
  );
  return rowsOf(rows).length;
}

/**
 * A reader who may no longer be written to (they unsubscribed): their mailing rows not yet handed
 * to the relay are dropped (`suppressed`), whatever mailing is going out. Answers how many.
 */
export async function dropWaitingFor(db: Queryable, address: string): Promise<number> {
  const rows = await db.execute(
    sql`update ${outbox} set status = 'suppressed'
        where lane = 'bulk' and lower(to_address) = ${address.trim().toLowerCase()}
          and status in ('pending', 'held') and handed_at is null
        returning id`,
  );
  return rowsOf(rows).length;
}

/** Nobody not yet sent the mailing receives it: its waiting and held rows are cancelled. */
export async function cancelMailing(db: Queryable, mailingId: string): Promise<number> {
  const rows = await db.execute(
    sql`update ${outbox} set status = 'cancelled'
        where mailing_id = ${mailingId}::uuid and status in ('pending', 'held') returning id`,
  );
  return rowsOf(rows).length;
}

export type MailingCounts = {
  sent: number;
  waiting: number;
  failed: number;
  /** Of the sent and failed rows: refused as a mailbox that is gone, at once or by a later report. */
  bounced: number;
  suppressed: number;
  cancelled: number;
};

const NO_ROWS: MailingCounts = { sent: 0, waiting: 0, failed: 0, bounced: 0, suppressed: 0, cancelled: 0 };

/**
 * What became of some mailings' rows, in one statement: counts by status, and the failures by their
 * stored code, read the console's way (src/content/delivery-errors.ts) to tell the bounces.
 */
export async function mailingCounts(
  db: Queryable,
  mailingIds: readonly string[],
): Promise<Map<string, MailingCounts>> {
  const out = new Map<string, MailingCounts>(mailingIds.map((id) => [id, { ...NO_ROWS }]));
  if (mailingIds.length === 0) return out;
  const rows = rowsOf<{ mailing: string; status: string; code: string | null; n: number | string }>(
    await db.execute(sql`
      select mailing_id::text as mailing, status, case when status = 'failed' then last_error end as code,
        count(*) as n
      from ${outbox} where mailing_id in (${sql.join(
        mailingIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      group by 1, 2, 3`),
  );
  for (const row of rows) {
    const counts = out.get(row.mailing);
    if (!counts) continue;
    const n = Number(row.n);
    if (row.status === 'sent') counts.sent += n;
    else if (row.status === 'pending' || row.status === 'held') counts.waiting += n;
    else if (row.status === 'suppressed') counts.suppressed += n;
    else if (row.status === 'cancelled') counts.cancelled += n;
    else if (row.status === 'failed') {
      counts.failed += n;
      if (row.code && (deliveryErrorKind(row.code) === 'bounced' || isMailboxGone(row.code)))
        counts.bounced += n;
    }
  }
  return out;
}
