/**
 * The owner's own calendar as busy times (decision 037). The owner pastes the secret iCal address
 * of their Google, Outlook or Apple calendar on the Availability page; the server fetches it every
 * CALENDAR_FEED_EVERY_MINUTES (and when the owner asks), expands it (calendar-feed-expand.ts) and
 * keeps the busy half-days of the booking window in one row. The availability reads that row.
 *
 * A feed that cannot be read never fails silently: the busy half-days of the last good copy stay
 * and are used, the row records the error (the console's overview and Availability page show it
 * with the last good fetch's time), and the owner is e-mailed once per failure: the first failed
 * fetch after a good one takes `warned_at` with one atomic update, so two instances send one
 * e-mail. The address is a secret: stored, never logged, never e-mailed, shown masked.
 *
 * With two instances, a scheduled fetch is claimed by one update of `last_attempt_at`: the other
 * instance finds it taken and waits for the next turn.
 */
import { and, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { BOOKING_HORIZON_DAYS, sessionTimeWindows, type SessionTime } from '~/content/booking';
import { addDays, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';
import { audit } from '~/server/kit/audit';
import type { Config } from '~/server/kit/config';
import type { Db, Queryable } from '~/server/kit/db/client';
import { enqueueEmails, type OutgoingEmail } from '~/server/kit/mail/outbox';
import { runEvery } from '~/server/kit/timer';
import type { BusyTime } from './availability';
import { FeedTooLarge, NotACalendar, type ExpandedFeed } from './calendar-feed-expand';
import { FEED_LIMITS, FeedFetchError, fetchFeed, type FeedFetchPolicy } from './calendar-feed-fetch.server';
import { bookingCalendarFeed } from './tables.server';

const ROW = 'owner';

/** The address as the console shows it: its host and its last four characters. */
export function maskFeedAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = `${parsed.pathname}${parsed.search}`;
    return `${parsed.protocol}//${parsed.host}/…${rest.slice(-4)}`;
  } catch {
    return '…';
  }
}

export type CalendarFeedRow = typeof bookingCalendarFeed.$inferSelect;

export async function readCalendarFeed(q: Queryable): Promise<CalendarFeedRow | undefined> {
  const [row] = await q.select().from(bookingCalendarFeed).where(eq(bookingCalendarFeed.name, ROW));
  return row;
}

/**
 * The half-days of the UK dates from..to that the owner's calendar shows busy, as busy times
 * (the windows of those half-days), for the availability's rules.
 */
export async function calendarBusyBetween(q: Queryable, from: string, to: string): Promise<BusyTime[]> {
  const out: BusyTime[] = [];
  for (const half of await busyHalves(q)) {
    const date = half.slice(0, 10);
    if (date < from || date > to) continue;
    const window = sessionTimeWindows[half.slice(11) as SessionTime];
    if (!window) continue;
    out.push({
      start: ukWallTimeToInstant(date, window.start).getTime(),
      end: ukWallTimeToInstant(date, window.end).getTime(),
    });
  }
  return out;
}

async function busyHalves(q: Queryable): Promise<string[]> {
  const [row] = await q
    .select({ busy: bookingCalendarFeed.busy })
    .from(bookingCalendarFeed)
    .where(and(eq(bookingCalendarFeed.name, ROW), isNotNull(bookingCalendarFeed.url)));
  return row?.busy ?? [];
}

/** Whether the owner's calendar shows the half-day busy (the owner's confirm names it as a clash). */
export async function calendarIsBusy(q: Queryable, date: string, time: SessionTime): Promise<boolean> {
  return (await busyHalves(q)).includes(`${date} ${time}`);
}

/** Sets (or, with null, removes) the owner's calendar address; a new address starts with no busy times. */
export async function setCalendarAddress(q: Queryable, url: string | null, now: Date): Promise<void> {
  const fresh = {
    url,
    busy: [],
    events: 0,
    lastGoodAt: null,
    lastAttemptAt: null,
    lastError: null,
    warnedAt: null,
    updatedAt: now,
  };
  await q
    .insert(bookingCalendarFeed)
    .values({ name: ROW, ...fresh })
    .onConflictDoUpdate({ target: bookingCalendarFeed.name, set: fresh });
}

export function calendarFailedEmail(
  to: string,
  reason: string,
  lastGood: string | null,
  url: string,
): OutgoingEmail {
  return {
    kind: 'owner.calendar-failed',
    to,
    subject: 'Your calendar could not be read',
    content: {
      preheader: 'Visitors may be offered times your calendar shows busy until it is read again.',
      heading: 'Your calendar could not be read',
      blocks: [
        { type: 'paragraph', text: reason },
        {
          type: 'paragraph',
          text: lastGood
            ? `The busy times of the last copy read (${lastGood}) are still used; events added to your calendar since are not seen.`
            : 'No copy of it has been read yet, so none of its busy times close a half-day.',
        },
        {
          type: 'paragraph',
          text: 'You are told once; the address is tried again every few minutes, and the warning stays in the console until it is read again.',
        },
        { type: 'button', label: 'Open Availability', url },
      ],
    },
  };
}

export type CalendarFeedDeps = {
  db: Db;
  config: Pick<Config, 'ownerEmail' | 'calendarFeed' | 'sandbox'>;
  /** The console's Availability page, for the failure's e-mail. */
  availabilityUrl: string;
  log: FastifyBaseLogger;
  wakeOutbox(): void;
  /**
   * The feed's text as busy half-days (calendar-feed-expand.ts), in a process of its own with
   * time, memory and occurrence limits (src/server/root/calendar-expansion.ts); throws
   * NotACalendar or FeedTooLarge.
   */
  expand(ics: string, range: { from: string; to: string }): Promise<ExpandedFeed>;
  /** Test knobs: a shorter timeout, a smaller size limit. */
  limits?: Partial<Pick<FeedFetchPolicy, 'timeoutMs' | 'maxBytes'>>;
};

export type RefreshResult = 'none' | 'taken' | 'read' | 'failed';

const ukTimeWords = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);

/**
 * Fetches and expands the owner's calendar if it is due (or at once with `force`), and records
 * the outcome. `none`: no address; `taken`: not due, or another instance is fetching it.
 */
export async function refreshCalendarFeed(
  deps: CalendarFeedDeps,
  { now = new Date(), force = false }: { now?: Date; force?: boolean } = {},
): Promise<RefreshResult> {
  const { db, config } = deps;
  const due = new Date(now.getTime() - config.calendarFeed.everyMinutes * 60_000 + 5_000);
  const [claimed] = await db
    .update(bookingCalendarFeed)
    .set({ lastAttemptAt: now })
    .where(
      and(
        eq(bookingCalendarFeed.name, ROW),
        isNotNull(bookingCalendarFeed.url),
        force
          ? undefined
          : or(isNull(bookingCalendarFeed.lastAttemptAt), lte(bookingCalendarFeed.lastAttemptAt, due)),
      ),
    )
    .returning({ url: bookingCalendarFeed.url });
  if (!claimed?.url) return (await readCalendarFeed(db))?.url ? 'taken' : 'none';
  const url = claimed.url;
  const today = ukDateOf(now);
  try {
    if (config.sandbox) throw new FeedFetchError('A restored copy (the sandbox) fetches no calendar.');
    const text = await fetchFeed(url, {
      allowHttp: config.calendarFeed.allowHttp,
      allowPrivate: config.calendarFeed.allowPrivate,
      timeoutMs: deps.limits?.timeoutMs ?? FEED_LIMITS.timeoutMs,
      maxBytes: deps.limits?.maxBytes ?? FEED_LIMITS.maxBytes,
    });
    let expanded;
    try {
      expanded = await deps.expand(text, { from: today, to: addDays(today, BOOKING_HORIZON_DAYS) });
    } catch (error) {
      if (error instanceof NotACalendar)
        throw new FeedFetchError('The calendar address did not answer with a calendar (an iCal file).');
      if (error instanceof FeedTooLarge) throw new FeedFetchError(error.message);
      throw error;
    }
    // Kept only if the address is still the one fetched (the owner may have changed it meanwhile).
    await db
      .update(bookingCalendarFeed)
      .set({ busy: expanded.busy, events: expanded.events, lastGoodAt: now, lastError: null, warnedAt: null })
      .where(and(eq(bookingCalendarFeed.name, ROW), eq(bookingCalendarFeed.url, url)));
    return 'read';
  } catch (error) {
    const reason =
      error instanceof FeedFetchError
        ? error.message
        : 'The calendar could not be read (an unexpected error).';
    deps.log.warn(
      { errorName: (error as Error).name },
      "the owner's calendar could not be read; its last good copy is used",
    );
    const warned = await db.transaction(async (tx) => {
      await tx
        .update(bookingCalendarFeed)
        .set({ lastError: reason })
        .where(and(eq(bookingCalendarFeed.name, ROW), eq(bookingCalendarFeed.url, url)));
      const [first] = await tx
        .update(bookingCalendarFeed)
        .set({ warnedAt: now })
        .where(
          and(
            eq(bookingCalendarFeed.name, ROW),
            eq(bookingCalendarFeed.url, url),
            isNull(bookingCalendarFeed.warnedAt),
          ),
        )
        .returning({ lastGoodAt: bookingCalendarFeed.lastGoodAt });
      if (!first) return false;
      await enqueueEmails(tx, null, [
        calendarFailedEmail(
          config.ownerEmail,
          reason,
          first.lastGoodAt ? ukTimeWords(first.lastGoodAt) : null,
          deps.availabilityUrl,
        ),
      ]);
      await audit(tx, 'system', 'calendar.failed');
      return true;
    });
    if (warned) deps.wakeOutbox();
    return 'failed';
  }
}

/** The overview's warning: the feed's last error, with the last good fetch's time; none when all is well. */
export async function calendarWarnings(q: Queryable): Promise<string[]> {
  const row = await readCalendarFeed(q);
  if (!row?.url || !row.lastError) return [];
  const since = row.lastGoodAt
    ? `The busy times of the last good copy (read ${ukTimeWords(row.lastGoodAt)}) are still used.`
    : 'No copy has been read yet: none of its busy times close a half-day.';
  return [`Your calendar could not be read: ${row.lastError} ${since}`];
}

export type CalendarFeedJob = {
  /** Fetches now, whatever the schedule (the console's "Fetch now" and a newly pasted address). */
  refreshNow(now?: Date): Promise<RefreshResult>;
  stop(): Promise<void>;
};

/** The schedule: a first look soon after start, then every minute (a fetch is due every N minutes). */
export function startCalendarFeed(
  deps: CalendarFeedDeps,
  { firstAfterMs = 20_000, everyMs = 60_000 } = {},
): CalendarFeedJob {
  const tick = async () => {
    try {
      await refreshCalendarFeed(deps);
    } catch (error) {
      deps.log.warn(
        { errorName: (error as Error).name },
        'the calendar check failed; it runs again within a minute',
      );
    }
  };
  // A restored copy looked at before it goes live (decision 057) fetches nothing by itself.
  const timer = deps.config.sandbox ? undefined : runEvery(tick, { firstAfterMs, everyMs });
  return {
    refreshNow: (now) => refreshCalendarFeed(deps, { now, force: true }),
    stop: async () => {
      await timer?.stop();
    },
  };
}
