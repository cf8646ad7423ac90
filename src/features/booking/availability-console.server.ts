/**
 * The Availability area of the owner's console: reads and saves the settings that decide which
 * half-days the booking wizard offers (decision 036). Each save is audited in its transaction,
 * naming the parts that changed.
 */
import { BOOKING_HORIZON_DAYS } from '~/content/booking';
import { audit } from '~/server/kit/audit';
import type { Queryable } from '~/server/kit/db/client';
import type { ConsoleArea } from '~/server/kit/http/owner-routes';
import { addDays, ukDateOf } from '~/lib/uk-dates';
import type { AvailabilitySettings } from './availability';
import { availabilityRoutes, type AvailabilityAnswer } from './availability-console-contract';
import { BANK_HOLIDAYS, readAvailabilitySettings, saveAvailabilitySettings } from './availability.server';
import { Refusal } from '~/server/kit/http/request-checks';
import { feedRequestUrl, refusedScheme } from './calendar-feed-fetch.server';
import {
  maskFeedAddress,
  readCalendarFeed,
  setCalendarAddress,
  type CalendarFeedJob,
} from './calendar-feed.server';
import { bookingAvailability } from './tables.server';

/** The audit's words for each part of the settings. */
const PARTS: Record<keyof AvailabilitySettings, string> = {
  weekly: 'weekly hours',
  daysOff: 'days off',
  openHolidays: 'bank holidays',
  noticeDays: 'notice',
  windowDays: 'booking window',
  dailyCap: 'daily cap',
  meetingLink: 'meeting link',
};

function changedParts(before: AvailabilitySettings, after: AvailabilitySettings): string[] {
  return (Object.keys(PARTS) as (keyof AvailabilitySettings)[])
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => PARTS[key]);
}

async function answer(q: Queryable, now: Date): Promise<AvailabilityAnswer> {
  const settings = await readAvailabilitySettings(q);
  const [row] = await q.select({ updatedAt: bookingAvailability.updatedAt }).from(bookingAvailability);
  const today = ukDateOf(now);
  const until = addDays(today, BOOKING_HORIZON_DAYS);
  const open = new Set(settings.openHolidays);
  const bankHolidays = [...BANK_HOLIDAYS]
    .filter(([date]) => date >= today && date <= until)
    .map(([date, name]) => ({ date, name, open: open.has(date) }));
  const feed = await readCalendarFeed(q);
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    settings,
    bankHolidays,
    updatedAt: row ? row.updatedAt.toISOString() : null,
    calendar: {
      address: feed?.url ? maskFeedAddress(feed.url) : null,
      events: feed?.url ? feed.events : 0,
      busyHalfDays: feed?.url ? feed.busy.length : 0,
      lastGoodAt: iso(feed?.lastGoodAt),
      lastAttemptAt: iso(feed?.lastAttemptAt),
      error: feed?.url ? feed.lastError : null,
    },
  };
}

const noAddress = () => new Refusal(409, { error: 'No calendar address is set: paste one first.' });

/** The Availability area; `calendar` reads the owner's calendar when asked (calendar-feed.server.ts). */
export const availabilityArea =
  (calendar: CalendarFeedJob): ConsoleArea =>
  (routes, { db, clock, config }) => {
    routes.on(availabilityRoutes.view, async () => answer(db, clock()));

    routes.on(availabilityRoutes.save, async ({ body, owner }) => {
      const now = clock();
      return db.transaction(async (tx) => {
        const before = await readAvailabilitySettings(tx);
        await saveAvailabilitySettings(tx, body, now);
        const changed = changedParts(before, body);
        if (changed.length > 0)
          await audit(tx, owner.email, 'availability.change', undefined, { changed: changed.join(', ') });
        return answer(tx, now);
      });
    });

    routes.on(availabilityRoutes.calendar, async ({ body, owner }) => {
      const now = clock();
      const address = body.address === '' ? null : body.address;
      if (address) {
        const refused = refusedScheme(feedRequestUrl(address), config.calendarFeed);
        if (refused) throw new Refusal(400, { error: refused, fieldErrors: { address: refused } });
      }
      await db.transaction(async (tx) => {
        await setCalendarAddress(tx, address, now);
        // Never the address in the audit: it is a secret.
        await audit(tx, owner.email, 'availability.calendar', undefined, { removed: address === null });
      });
      if (address) await calendar.refreshNow(now);
      return answer(db, now);
    });

    routes.on(availabilityRoutes.refreshCalendar, async () => {
      const now = clock();
      if (!(await readCalendarFeed(db))?.url) throw noAddress();
      await calendar.refreshNow(now);
      return answer(db, now);
    });
  };
