/**
 * The daily retention job: what the privacy notice promises, with the periods it reads
 * (src/content/retention.ts). Contact messages go 24 months after they arrived, bookings 24
 * months after the session, spam after 30 days; people who unsubscribed are reduced to a keyed
 * hash on the suppression list; the text of e-mails (outbox rows and .eml files) goes 30 days
 * after sending while the record that one was sent stays. Every run is a row of
 * `retention_runs` with its counts, shown in the console.
 *
 * It works in batches of a few hundred rows, one short statement each, with a pause between
 * them: a form submission waits for at most one batch, never for the whole run (on PGlite,
 * which runs one statement at a time, this is what keeps the forms answering).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RETENTION, type RetentionPeriods } from '~/content/retention';
import type { Db, Queryable } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import { bookingDay, bookings } from '~/features/booking/tables.server';
import { suppressionHash } from '../kit/mail/outbox';
import { emlFileName } from '../kit/mail/transport';
import { retentionRuns } from './tables';

export type RetentionCounts = {
  spam: number;
  contact: number;
  bookings: number;
  masterclass: number;
  unsubscribed: number;
  emailBodies: number;
  emlFiles: number;
};

export type RetentionOptions = {
  batchSize?: number;
  pauseMs?: number;
  /** How often an unfinished run says it is alive (`alive_at`). */
  aliveEveryMs?: number;
  periods?: RetentionPeriods;
  /** Aborted: the run ends between two batches (the server is shutting down). */
  signal?: AbortSignal;
  /** Told the run's id once its row exists. */
  onStarted?: (runId: number) => void;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Picks a batch of submissions (`pick`: a query of their ids) and deletes them with everything
 * that hangs off them, in one statement: on PGlite a transaction of several statements holds the
 * database across a round trip between threads for each, and a form submitted meanwhile waited
 * for all of them. Answers how many went and the .eml names of their e-mails. The foreign keys
 * are checked at the statement's end, when the rows that referred to a submission are gone too.
 */
async function deleteBatch(db: Queryable, pick: SQL): Promise<{ deleted: number; files: string[] }> {
  const [answer] = rowsOf<{ deleted: number; mails: [number, string][] | string | null }>(
    await db.execute(sql`
      with picked as materialized (${pick}),
      picked_bookings as materialized (
        select id from bookings where submission_id in (select id from picked)
      ),
      mails as (delete from outbox where submission_id in (select id from picked) returning id, kind),
      link_uses as (delete from booking_link_uses where booking_id in (select id from picked_bookings)),
      history as (delete from booking_status_events where booking_id in (select id from picked_bookings)),
      gone_bookings as (delete from bookings where id in (select id from picked_bookings)),
      registrations as (delete from event_registrations where submission_id in (select id from picked)),
      consents as (delete from consent_records where submission_id in (select id from picked)),
      gone as (delete from submissions where id in (select id from picked) returning id)
      select (select count(*) from gone)::int as deleted,
             (select json_agg(json_build_array(id, kind)) from mails) as mails`),
  );
  const mails =
    typeof answer?.mails === 'string' ? (JSON.parse(answer.mails) as [number, string][]) : answer?.mails;
  return {
    deleted: Number(answer?.deleted ?? 0),
    files: (mails ?? []).map(([id, kind]) => emlFileName(Number(id), kind)),
  };
}

/**
 * Rows a retention statement touches at once, and the pause after each batch. On PGlite a
 * transaction holds the one database thread until it ends, so a batch is what a form submitted
 * meanwhile may wait for. On a 100,000-row seed with a month of rows due, a form's p99 during the
 * run was 55 ms at 100 rows a batch and 44 ms at 50 (at 500, on a million rows, 148 ms). The run
 * takes longer; it is a daily job.
 */
export const RETENTION_BATCH = { rows: 50, pauseMs: 10 } as const;

/**
 * An unfinished run says it is alive every 5 seconds; one silent for a minute has died (its
 * process stopped without marking it) and is shown as not finished, not as running.
 */
export const RUN_ALIVE = { everyMs: 5_000, silentAfterMs: 60_000 } as const;

export async function runRetention(
  db: Db,
  secret: string,
  mailDir: string,
  now = new Date(),
  {
    batchSize = RETENTION_BATCH.rows,
    pauseMs = RETENTION_BATCH.pauseMs,
    aliveEveryMs = RUN_ALIVE.everyMs,
    periods = RETENTION,
    signal,
    onStarted,
  }: RetentionOptions = {},
): Promise<RetentionCounts> {
  // Signs of life are written and read on the database's clock, which every instance shares.
  const [run] = await db
    .insert(retentionRuns)
    .values({ startedAt: now, aliveAt: sql`now()` })
    .returning({ id: retentionRuns.id });
  const runId = run!.id;
  onStarted?.(runId);
  const counts: RetentionCounts = {
    spam: 0,
    contact: 0,
    bookings: 0,
    masterclass: 0,
    unsubscribed: 0,
    emailBodies: 0,
    emlFiles: 0,
  };
  const files: string[] = [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const ukToday = sql`(${at} at time zone 'Europe/London')::date`;
  let aliveAt = Date.now();
  /** Says the run is alive, at most every `aliveEveryMs`. */
  const alive = async () => {
    if (Date.now() - aliveAt < aliveEveryMs) return;
    aliveAt = Date.now();
    await db
      .update(retentionRuns)
      .set({ aliveAt: sql`now()` })
      .where(sql`${retentionRuns.id} = ${runId}`);
  };
  /** Between two batches: a pause for the forms, and the end of the run if the server is stopping. */
  const between = async () => {
    await pause(pauseMs);
    if (signal?.aborted) throw new RetentionStopped();
    await alive();
  };
  let failure: unknown;
  try {
    /** Runs `pick` (ids of a batch) and deletes them until a batch comes back short, counting as it goes. */
    async function inBatches(key: keyof RetentionCounts, pick: () => ReturnType<typeof sql>): Promise<void> {
      for (;;) {
        const { deleted, files: emls } = await deleteBatch(db, pick());
        files.push(...emls);
        counts[key] += deleted;
        if (deleted < batchSize) return;
        await between();
      }
    }

    await inBatches(
      'spam',
      () => sql`select id from submissions
              where spam and received_at < ${at} - make_interval(days => ${periods.spamDays})
              limit ${batchSize}`,
    );
    await inBatches(
      'contact',
      () => sql`select id from submissions
              where form_type = 'contact' and not spam and received_at < ${at} - make_interval(months => ${periods.contactMonths})
              limit ${batchSize}`,
    );
    // A booking's day (bookingDay): walked in the order of its index, which stops at the first
    // booking still kept instead of reading every booking.
    const day = bookingDay(bookings);
    await inBatches(
      'bookings',
      () => sql`select ${bookings.submissionId} as id from ${bookings}
              where ${day} < ${ukToday} - make_interval(months => ${periods.bookingMonthsAfterSession})
              order by ${day}
              limit ${batchSize}`,
    );

    // Masterclass registrations, counted from the end of their event (few events, each indexed).
    await inBatches(
      'masterclass',
      () => sql`select r.submission_id as id from event_registrations r join events e on e.id = r.event_id
              where e.ends_at < ${at} - make_interval(months => ${periods.masterclassMonthsAfterEvent})
              limit ${batchSize}`,
    );

    // Unsubscribed: the address's keyed hash joins the suppression list; its rows go.
    for (;;) {
      const people = rowsOf<{ email: string }>(
        await db.execute(
          sql`select email from newsletter_subscribers where status = 'unsubscribed' limit ${batchSize}`,
        ),
      );
      if (people.length === 0) break;
      await db.transaction(async (tx) => {
        const emails = people.map((p) => p.email);
        const list = sql.join(
          emails.map((e) => sql`${e}`),
          sql`, `,
        );
        const hashes = sql.join(
          emails.map((e) => sql`(${suppressionHash(secret, e)}, 'unsubscribed')`),
          sql`, `,
        );
        await tx.execute(
          sql`insert into suppressions (hash, reason) values ${hashes} on conflict (hash) do nothing`,
        );
        const { files: emls } = await deleteBatch(
          tx,
          sql`select id from submissions where form_type = 'newsletter' and email_key in (${list})`,
        );
        files.push(...emls);
        await tx.execute(sql`delete from newsletter_subscribers where email in (${list})`);
      });
      counts.unsubscribed += people.length;
      if (people.length < batchSize) break;
      await between();
    }

    // E-mail text: the record stays (kind, recipient, status, times), the message is emptied.
    // Sent ones by their sending time, the others (failed, skipped, suppressed) by when they were queued.
    const stub = JSON.stringify({ subject: '', content: { preheader: '', heading: '', blocks: [] } });
    const cutoff = sql`${at} - make_interval(days => ${periods.emailBodyDays})`;
    // Each in the order of its partial index (outbox_bodies_kept, outbox_unsent_bodies_kept): without
    // the order, a planner that expects many due rows reads the whole outbox to find a few.
    for (const due of [
      sql`status = 'sent' and body_removed_at is null and sent_at < ${cutoff} order by sent_at`,
      sql`status in ('failed', 'skipped', 'suppressed') and body_removed_at is null and created_at < ${cutoff} order by created_at`,
    ]) {
      for (;;) {
        const emptied = rowsOf<{ id: number; kind: string }>(
          await db.execute(sql`
          update outbox set message = ${stub}::jsonb, body_removed_at = ${at}
          where id in (select id from outbox where ${due} limit ${batchSize})
          returning id, kind`),
        );
        counts.emailBodies += emptied.length;
        files.push(...emptied.map((m) => emlFileName(Number(m.id), m.kind)));
        if (emptied.length < batchSize) break;
        await between();
      }
    }
  } catch (error) {
    failure = error;
  }

  // What was deleted before an error still loses its .eml files.
  for (const name of files) {
    try {
      await rm(join(mailDir, name));
      counts.emlFiles += 1;
    } catch {
      // Sent through a relay: there was no file.
    }
    await alive().catch(() => undefined);
  }
  try {
    await db
      .update(retentionRuns)
      .set({ finishedAt: new Date(), counts, interrupted: failure !== undefined })
      .where(sql`${retentionRuns.id} = ${runId}`);
  } catch (error) {
    if (failure === undefined) throw error;
  }
  if (failure !== undefined) throw failure;
  return counts;
}

/** Thrown between two batches when the run is asked to stop. */
export class RetentionStopped extends Error {
  override name = 'RetentionStopped';
}

/**
 * The one retention run at a time, for the daily job and the console's "Run now".
 * `start` answers as soon as the run's row exists (the console does not wait minutes for a run
 * over a million rows); `done` waits for the end. A run under way in another instance (alive:
 * `runUnderWay`) is joined by its id, its end not awaited here (`done` answers null at once).
 * `stop` (server shutdown) ends this process's run between two batches, marked as interrupted,
 * before the database closes.
 */
export type RetentionRunner = {
  /** Starts a run, or joins the one under way here or elsewhere; answers its id and whether this call started it. */
  start(now?: Date): Promise<{ runId: number; started: boolean; done: Promise<RetentionCounts | null> }>;
  /** The id of the run under way in this process, if any. */
  current(): number | null;
  stop(): Promise<void>;
};

export function createRetentionRunner(
  deps: { db: Db; secret: string; mailDir: string; log: FastifyBaseLogger },
  options: Omit<RetentionOptions, 'signal' | 'onStarted'> = {},
): RetentionRunner {
  const controller = new AbortController();
  type Active = { runId: number; done: Promise<RetentionCounts | null> };
  let starting: Promise<Active> | null = null;
  let currentId: number | null = null;

  function begin(now: Date): Promise<Active> {
    return new Promise<Active>((resolve, reject) => {
      let runId: number | undefined;
      const done: Promise<RetentionCounts | null> = runRetention(deps.db, deps.secret, deps.mailDir, now, {
        ...options,
        signal: controller.signal,
        onStarted: (id) => {
          runId = id;
          currentId = id;
          resolve({ runId: id, done });
        },
      })
        .then((counts) => {
          deps.log.info({ runId, ...counts }, 'retention run finished');
          return counts;
        })
        .catch((error: unknown) => {
          deps.log.warn({ runId, errorName: (error as Error).name }, 'retention run stopped early');
          if (runId === undefined) reject(error as Error);
          return null;
        })
        .finally(() => {
          starting = null;
          currentId = null;
        });
    });
  }

  return {
    async start(now = new Date()) {
      if (controller.signal.aborted) throw new RetentionStopped('The server is shutting down.');
      if (starting === null) {
        const elsewhere = await runUnderWay(deps.db);
        if (elsewhere !== null && starting === null)
          return { runId: elsewhere, started: false, done: Promise.resolve(null) };
      }
      const started = starting === null;
      starting ??= begin(now);
      const active = await starting;
      return { ...active, started };
    },
    current: () => currentId,
    async stop() {
      controller.abort();
      const active = await starting?.catch(() => null);
      await active?.done;
    },
  };
}

/** A run is under way, in whichever instance: unfinished, and alive within the last minute. */
const isAlive = sql<boolean>`(${retentionRuns.finishedAt} is null and ${retentionRuns.aliveAt} > now() - ${`${RUN_ALIVE.silentAfterMs} milliseconds`}::interval)`;

/** The run under way in any instance (the newest, if several), or null. */
export async function runUnderWay(db: Queryable): Promise<number | null> {
  const [run] = await db
    .select({ id: retentionRuns.id })
    .from(retentionRuns)
    .where(isAlive)
    .orderBy(sql`${retentionRuns.id} desc`)
    .limit(1);
  return run?.id ?? null;
}

/** The last runs, newest first, for the console, and the run under way in any instance. */
export async function retentionHistory(db: Queryable, limit = 10) {
  const rows = await db
    .select({
      id: retentionRuns.id,
      startedAt: retentionRuns.startedAt,
      finishedAt: retentionRuns.finishedAt,
      interrupted: retentionRuns.interrupted,
      counts: retentionRuns.counts,
      alive: isAlive,
    })
    .from(retentionRuns)
    .orderBy(sql`${retentionRuns.id} desc`)
    .limit(limit);
  return {
    runs: rows.map((r) => ({
      id: r.id,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
      interrupted: r.interrupted,
      counts: r.counts ?? null,
    })),
    // A run never alive (null alive_at) gives null, not false.
    running: rows.find((r) => r.alive === true)?.id ?? null,
  };
}
