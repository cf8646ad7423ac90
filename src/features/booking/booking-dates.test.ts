import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  earliestBookableDate,
  endOfUkDay,
  formatChoice,
  formatClock,
  formatUkDate,
  isIsoDate,
  startTimesFor,
  ukOffsetMinutes,
  ukToday,
  ukWallTimeToInstant,
} from './booking-dates';

describe('UK dates', () => {
  it('formats dates and choices the UK way', () => {
    expect(formatUkDate('2026-03-03')).toBe('Tuesday 3 March 2026');
    expect(formatChoice('2026-03-03', 'morning')).toBe('Tuesday 3 March 2026, morning 9am-12pm UK time');
    expect(formatChoice('2026-07-15', 'afternoon')).toBe('Wednesday 15 July 2026, afternoon 1pm-5pm UK time');
  });

  it('knows today and tomorrow in London whatever the zone of the machine', () => {
    expect(ukToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(ukToday(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
    expect(earliestBookableDate(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });

  it('keeps the UK offset by the summer-time rule, agreeing with the time-zone database', () => {
    const london = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      timeZoneName: 'shortOffset',
    });
    const tzdbOffset = (instant: Date) => {
      const name = london.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? '';
      return name === 'GMT' ? 0 : Number(/GMT\+(\d+)/.exec(name)?.[1] ?? NaN) * 60;
    };
    // Either side of every change from 1997 to 2099, a minute apart.
    for (let year = 1997; year <= 2099; year += 1) {
      for (const month of [2, 9]) {
        const change = new Date(Date.UTC(year, month + 1, 0, 1));
        change.setUTCDate(change.getUTCDate() - change.getUTCDay());
        for (const delta of [-60_000, 0, 60_000]) {
          const at = new Date(change.getTime() + delta);
          expect(ukOffsetMinutes(at), at.toISOString()).toBe(tzdbOffset(at));
        }
      }
    }
    // And any instant at all in those years.
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1997-01-01T00:00:00Z'),
          max: new Date('2099-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (at) => {
          expect(ukOffsetMinutes(at)).toBe(tzdbOffset(at));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('turns UK wall-clock times into instants in GMT and BST', () => {
    expect(ukWallTimeToInstant('2026-01-15', '09:00').toISOString()).toBe('2026-01-15T09:00:00.000Z');
    expect(ukWallTimeToInstant('2026-07-15', '09:00').toISOString()).toBe('2026-07-15T08:00:00.000Z');
    // The clocks go forward on 29 March 2026 and back on 25 October 2026.
    expect(ukWallTimeToInstant('2026-03-29', '13:00').toISOString()).toBe('2026-03-29T12:00:00.000Z');
    expect(ukWallTimeToInstant('2026-10-25', '13:00').toISOString()).toBe('2026-10-25T13:00:00.000Z');
    expect(endOfUkDay('2026-07-15').toISOString()).toBe('2026-07-15T23:00:00.000Z');
  });

  it('offers start times that keep 45 minutes inside the window', () => {
    expect(startTimesFor('morning')).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
      '11:15',
    ]);
    expect(startTimesFor('afternoon').at(0)).toBe('13:00');
    expect(startTimesFor('afternoon').at(-1)).toBe('16:15');
    expect(formatClock('09:15')).toBe('9:15am');
    expect(formatClock('13:00')).toBe('1pm');
    expect(formatClock('12:30')).toBe('12:30pm');
  });

  it('validates calendar dates', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });
});
