/**
 * The owner's availability on the server (decision 036): the settings row, the bank holidays,
 * the holds and the busy times read for a range of UK dates, and the half-days they leave free
 * (availability.ts holds the rules). Three readers:
 * - `GET /api/bookings/availability`, the public answer the wizard shows (free or not, no reason
 *   in detail);
 * - the booking request, which checks its half-days again in its own transaction, under the lock
 *   of their days, so that two requests for the last free half-day cannot both be accepted;
 * - the console's Availability page, which reads and saves the settings.
 */
import { and, count, eq, gt, gte, lte, or, sql } from 'drizzle-orm';
import bankHolidayFile from '~/content/bank-holidays.json';
import {
  availabilityCopy,
  bookingClashCopy,
  REQUEST_HOLD_DAYS,
  sessionTimeWindows,
  type SessionTime,
} from '~/content/booking';
import type { Queryable, Tx } from '~/server/kit/db/client';
import type { Diary } from '~/server/kit/diary';
import { Refusal } from '~/server/kit/http/request-checks';
import { addDays, ukDateOf, ukWallTimeToInstant } from '~/lib/uk-dates';
import {
  availabilityBetween,
  DEFAULT_AVAILABILITY,
  lastBookableDate,
  encodeAvailability,
  weekdayOf,
  AVAILABILITY_PAGE_DAYS,
  type AvailabilitySettings,
  type BusyTime,
  type DayAvailability,
  type PublicAvailability,
} from './availability';
import { AvailabilitySettingsSchema, WEEKDAY_NAMES } from './availability-settings';
import type { BookingRequest } from './booking-schema';
import { calendarBusyBetween, calendarIsBusy } from './calendar-feed.server';
import { submissions } from '~/server/kit/db/schema';
import { bookingAvailability, bookings } from './tables.server';

const ROW = 'settings';
const DAY_MS = 86_400_000;

/** The bank holidays of England and Wales (scripts/bank-holidays.mjs made the file from the library). */
export const BANK_HOLIDAYS: ReadonlyMap<string, string> = new Map(
  bankHolidayFile.days.map((d) => [d.date, d.name]),
);
const BANK_HOLIDAY_DATES: ReadonlySet<string> = new Set(BANK_HOLIDAYS.keys());

export async function readAvailabilitySettings(q: Queryable): Promise<AvailabilitySettings> {
  const [row] = await q
    .select({ settings: bookingAvailability.settings })
    .from(bookingAvailability)
    .where(eq(bookingAvailability.name, ROW));
  if (!row) return DEFAULT_AVAILABILITY;
  // Stored only after this schema checked it; a setting added since takes its default.
  const parsed = AvailabilitySettingsSchema.safeParse({
    ...DEFAULT_AVAILABILITY,
    ...(row.settings as object),
  });
  return parsed.success ? parsed.data : DEFAULT_AVAILABILITY;
}

export async function saveAvailabilitySettings(
  tx: Tx,
  settings: AvailabilitySettings,
  now: Date,
): Promise<void> {
  await tx
    .insert(bookingAvailability)
    .values({ name: ROW, settings, updatedAt: now })
    .onConflictDoUpdate({ target: bookingAvailability.name, set: { settings, updatedAt: now } });
}

/** The half-days that requests (and moves asked for) still hold on the dates from..to, one entry per hold. */
async function holdsBetween(q: Queryable, from: string, to: string, now: Date) {
  const holdSince = new Date(now.getTime() - REQUEST_HOLD_DAYS * DAY_MS);
  // A request holds its first choice; a confirmed session whose applicant asked to move it holds
  // the half-day asked for (decision 039), each for REQUEST_HOLD_DAYS at most.
  const asking = sql`${bookings.status} = 'requested'`;
  const rows = await q
    .select({
      date: sql<string>`(case when ${asking} then ${bookings.firstChoiceDate} else ${bookings.moveDate} end)::text`,
      time: sql<string>`case when ${asking} then ${bookings.firstChoiceTime} else ${bookings.moveTime} end`,
      count: count(),
    })
    .from(bookings)
    // A request the owner moved to spam holds nothing.
    .innerJoin(submissions, and(eq(submissions.id, bookings.submissionId), eq(submissions.spam, false)))
    .where(
      or(
        and(
          eq(bookings.status, 'requested'),
          eq(bookings.holds, true),
          gte(bookings.firstChoiceDate, from),
          lte(bookings.firstChoiceDate, to),
          gt(bookings.createdAt, holdSince),
        ),
        and(
          eq(bookings.status, 'confirmed'),
          gte(bookings.moveDate, from),
          lte(bookings.moveDate, to),
          gt(bookings.moveAskedAt, holdSince),
        ),
      ),
    )
    .groupBy(sql`1`, sql`2`);
  return rows.flatMap((r) =>
    Array.from({ length: Number(r.count) }, () => ({
      date: r.date,
      time: r.time as SessionTime,
    })),
  );
}

/**
 * The diary's entries still on (an evening masterclass may start the day before), as busy times,
 * and the dates of the confirmed sessions among them (the daily cap counts them).
 */
async function diaryBetween(q: Queryable, diary: Diary, from: string, to: string) {
  const times = await diary.times(q, addDays(from, -1), addDays(to, 1));
  const busy: BusyTime[] = [];
  const sessionDates: string[] = [];
  for (const e of times) {
    busy.push({
      start: ukWallTimeToInstant(e.start.date, e.start.time).getTime(),
      end: ukWallTimeToInstant(e.end.date, e.end.time).getTime(),
    });
    if (e.session) sessionDates.push(e.start.date);
  }
  return { busy, sessionDates };
}

/** The availability of the UK dates from..to as the owner's settings, holds and diary leave it. */
export async function availabilityOf(
  q: Queryable,
  diary: Diary,
  from: string,
  to: string,
  now: Date,
  known?: AvailabilitySettings,
): Promise<DayAvailability[]> {
  const [settings, holds, { busy, sessionDates }, calendar] = await Promise.all([
    known ?? readAvailabilitySettings(q),
    holdsBetween(q, from, to, now),
    diaryBetween(q, diary, from, to),
    calendarBusyBetween(q, from, to),
  ]);
  return availabilityBetween(
    { settings, now, bankHolidays: BANK_HOLIDAY_DATES, busy: [...busy, ...calendar], sessionDates, holds },
    from,
    to,
  );
}

/**
 * The public answer: AVAILABILITY_PAGE_DAYS from `from` (today when absent or earlier), up to the
 * last date the settings offer; empty halves past it. The wizard asks for the next page as the
 * visitor looks further ahead.
 */
export async function publicAvailability(
  q: Queryable,
  diary: Diary,
  now: Date,
  from?: string,
): Promise<PublicAvailability> {
  const settings = await readAvailabilitySettings(q);
  const today = ukDateOf(now);
  const start = from && from > today ? from : today;
  const last = lastBookableDate({ settings, now });
  if (start > last) return { from: start, halves: '' };
  const end = addDays(start, AVAILABILITY_PAGE_DAYS - 1);
  return encodeAvailability(await availabilityOf(q, diary, start, end < last ? end : last, now, settings));
}

/**
 * Why the owner's availability closes the half-day of a session at `start` on `date`, in words
 * for the owner ("a day off (Dentist)", "a bank holiday (Boxing Day)", "your weekly hours
 * (Wednesday afternoons closed)", "your own calendar (busy then)"); undefined when it is open. The notice and the window are the
 * visitor's limits, not the owner's: they close nothing here.
 */
export async function closedReason(q: Queryable, date: string, start: string): Promise<string | undefined> {
  const settings = await readAvailabilitySettings(q);
  const time: SessionTime = start < sessionTimeWindows.morning.end ? 'morning' : 'afternoon';
  const off = settings.daysOff.find((d) => d.from <= date && date <= d.to);
  if (off) return bookingClashCopy.closedBy.dayOff(off.note);
  const holiday = BANK_HOLIDAYS.get(date);
  if (holiday && !settings.openHolidays.includes(date)) return bookingClashCopy.closedBy.bankHoliday(holiday);
  const weekday = weekdayOf(date);
  if (!settings.weekly[weekday][time])
    return bookingClashCopy.closedBy.weeklyHours(WEEKDAY_NAMES[weekday], time);
  if (await calendarIsBusy(q, date, time)) return bookingClashCopy.closedBy.calendar;
  return undefined;
}

/**
 * Holds a day's sessions until the transaction ends: requests for its half-days, and the owner's
 * confirmations and moves to it, check it one after the other, so none misses another.
 */
export async function lockDay(tx: Tx, date: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`booking-day:${date}`}))`);
}

/**
 * The most requests that hold a half-day at once, by default (BOOKING_HOLDS_MAX, decision 053). A
 * small business answers a few requests a week; a flood from many clients closes at most these,
 * and the requests past them still reach the owner, holding nothing.
 */
export const OPEN_HOLDS_MAX = 10;

/**
 * Whether a new request holds its first choice (decision 053): not when a request from the same
 * e-mail address or the same client (`clientKey`, a keyed hash of its address or IPv6 /64) holds
 * one now, nor when `max` requests hold one. Taken under one lock for every request, so
 * two requests from one client at once cannot both find none; the lock is taken before the days'
 * (checkRequestIsFree), which is the order every request takes them in.
 */
export async function requestMayHold(
  tx: Tx,
  { email, clientKey }: { email: string; clientKey: string | undefined },
  now: Date,
  max = OPEN_HOLDS_MAX,
): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('booking-holds'))`);
  const holdSince = new Date(now.getTime() - REQUEST_HOLD_DAYS * DAY_MS);
  const [row] = await tx
    .select({
      open: count(),
      sameClient: sql<number>`count(*) filter (where ${bookings.clientKey} = ${clientKey ?? null})::int`,
      sameEmail: sql<number>`count(*) filter (where lower(${submissions.fields}->>'email') = ${email.trim().toLowerCase()})::int`,
    })
    .from(bookings)
    .innerJoin(submissions, and(eq(submissions.id, bookings.submissionId), eq(submissions.spam, false)))
    .where(
      and(eq(bookings.status, 'requested'), eq(bookings.holds, true), gt(bookings.createdAt, holdSince)),
    );
  return (
    !!row && Number(row.open) < max && Number(row.sameClient) === 0 && Number(row.sameEmail) === 0
  );
}

/** The request's half-day was taken since the page loaded: 409, the message on step 1's field. */
export class TakenRefusal extends Refusal {
  constructor(field: 'firstChoiceDate' | 'secondChoiceDate') {
    super(409, {
      error: availabilityCopy.taken,
      reason: 'taken',
      fieldErrors: { [field]: availabilityCopy.taken },
    });
  }
}

/**
 * Checks, in the request's transaction, that each half-day it asks for is still free; the lock of
 * their days (taken in date order, so two requests never wait for each other in a circle) makes two
 * requests for the last free half-day run one after the other, on every instance of one database. The
 * request's own row, inserted after this, is then the hold.
 */
export async function checkRequestIsFree(
  tx: Tx,
  diary: Diary,
  data: Pick<BookingRequest, 'firstChoiceDate' | 'firstChoiceTime' | 'secondChoiceDate' | 'secondChoiceTime'>,
  now: Date,
): Promise<void> {
  const choices = [
    { field: 'firstChoiceDate' as const, date: data.firstChoiceDate, time: data.firstChoiceTime },
    ...(data.secondChoiceDate && data.secondChoiceTime
      ? [
          {
            field: 'secondChoiceDate' as const,
            date: data.secondChoiceDate,
            time: data.secondChoiceTime as SessionTime,
          },
        ]
      : []),
  ];
  for (const date of [...new Set(choices.map((c) => c.date))].sort()) await lockDay(tx, date);
  for (const choice of choices) {
    const [day] = await availabilityOf(tx, diary, choice.date, choice.date, now);
    if (day?.[choice.time] !== 'free') throw new TakenRefusal(choice.field);
  }
}
