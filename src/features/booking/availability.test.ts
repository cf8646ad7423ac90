import { describe, expect, it } from 'vitest';
import bankHolidayFile from '~/content/bank-holidays.json';
import { ukWallTimeToInstant } from '~/lib/uk-dates';
import {
  availabilityBetween,
  DEFAULT_AVAILABILITY,
  encodeAvailability,
  firstBookableDate,
  stateIn,
  type AvailabilityInput,
  type AvailabilitySettings,
} from './availability';
import { AvailabilitySettingsSchema } from './availability-settings';
// The generator's own function: the file must be what the library computes today.
import { bankHolidaysOf } from '../../../scripts/bank-holidays-of.mjs';

const HOLIDAYS = new Set(bankHolidayFile.days.map((d) => d.date));
// Wednesday 25 November 2026, 10:00 UK time.
const WEDNESDAY = new Date('2026-11-25T10:00:00Z');

function input(
  over: Partial<Omit<AvailabilityInput, 'settings'>> & { settings?: Partial<AvailabilitySettings> } = {},
): AvailabilityInput {
  return {
    now: WEDNESDAY,
    bankHolidays: HOLIDAYS,
    busy: [],
    sessionDates: [],
    holds: [],
    ...over,
    settings: { ...DEFAULT_AVAILABILITY, ...over.settings },
  };
}

const at = (date: string, time: string) => ukWallTimeToInstant(date, time).getTime();
const day = (i: AvailabilityInput, date: string) => availabilityBetween(i, date, date)[0]!;

describe('availability', () => {
  it('offers weekday mornings and afternoons from the next working day, weekends closed', () => {
    const days = availabilityBetween(input(), '2026-11-25', '2026-11-30');
    expect(days.map((d) => `${d.date} ${d.morning} ${d.afternoon}`)).toEqual([
      '2026-11-25 closed closed', // today
      '2026-11-26 free free',
      '2026-11-27 free free',
      '2026-11-28 closed closed', // Saturday
      '2026-11-29 closed closed',
      '2026-11-30 free free',
    ]);
  });

  it('counts the notice in working days: from Friday, one day of notice is Monday', () => {
    const friday = new Date('2026-11-27T16:00:00Z');
    expect(firstBookableDate(input({ now: friday }))).toBe('2026-11-30');
    expect(firstBookableDate(input({ now: friday, settings: { noticeDays: 2 } }))).toBe('2026-12-01');
    // Christmas: Thursday 24th, then the 25th, the weekend and two substitute days are no working days.
    expect(firstBookableDate(input({ now: new Date('2027-12-23T12:00:00Z') }))).toBe('2027-12-24');
    expect(firstBookableDate(input({ now: new Date('2027-12-24T12:00:00Z') }))).toBe('2027-12-29');
  });

  it('closes bank holidays unless opened, days off, closed weekly halves and dates beyond the window', () => {
    expect(day(input(), '2026-12-25').morning).toBe('closed');
    expect(day(input(), '2026-12-28').afternoon).toBe('closed'); // Boxing Day's substitute
    expect(day(input({ settings: { openHolidays: ['2026-12-28'] } }), '2026-12-28').afternoon).toBe('free');
    const off = input({
      settings: { daysOff: [{ from: '2026-12-01', to: '2026-12-03', note: 'Conference' }] },
    });
    expect(availabilityBetween(off, '2026-11-30', '2026-12-04').map((d) => d.morning)).toEqual([
      'free',
      'closed',
      'closed',
      'closed',
      'free',
    ]);
    const mornings = input({
      settings: { weekly: { ...DEFAULT_AVAILABILITY.weekly, tue: { morning: true, afternoon: false } } },
    });
    expect(day(mornings, '2026-12-01')).toMatchObject({ morning: 'free', afternoon: 'closed' });
    const month = input({ settings: { windowDays: 30 } });
    expect(day(month, '2026-12-25').morning).toBe('closed');
    expect(day(month, '2026-12-24').morning).toBe('free');
    expect(day(month, '2026-12-28').morning).toBe('closed');
    expect(day(input(), '2027-11-25').morning).toBe('free');
    expect(day(input(), '2027-11-26').morning).toBe('closed'); // 366 days ahead
  });

  it('a hold takes its half-day; the daily cap fills the day', () => {
    const held = input({ holds: [{ date: '2026-12-01', time: 'morning' }] });
    expect(day(held, '2026-12-01')).toMatchObject({ morning: 'full', afternoon: 'free' });
    const capped = input({ holds: [{ date: '2026-12-01', time: 'morning' }], settings: { dailyCap: 1 } });
    expect(day(capped, '2026-12-01')).toMatchObject({ morning: 'full', afternoon: 'full' });
    const sessions = input({ sessionDates: ['2026-12-02', '2026-12-02'] });
    expect(day(sessions, '2026-12-02')).toMatchObject({ morning: 'full', afternoon: 'full' });
    expect(day(sessions, '2026-12-03')).toMatchObject({ morning: 'free', afternoon: 'free' });
  });

  it('a busy time takes the half-days it overlaps; one that only touches a half-day does not', () => {
    const busy = [
      { start: at('2026-12-01', '12:00'), end: at('2026-12-01', '13:00') }, // lunch: touches both
      { start: at('2026-12-02', '11:15'), end: at('2026-12-02', '12:00') },
      { start: at('2026-12-03', '16:30'), end: at('2026-12-04', '09:30') }, // an overnight trip
      { start: at('2026-12-07', '00:00'), end: at('2026-12-12', '00:00') }, // a week away
    ];
    const days = availabilityBetween(input({ busy }), '2026-12-01', '2026-12-14');
    const of = (date: string) => days.find((d) => d.date === date)!;
    expect(of('2026-12-01')).toMatchObject({ morning: 'free', afternoon: 'free' });
    expect(of('2026-12-02')).toMatchObject({ morning: 'full', afternoon: 'free' });
    expect(of('2026-12-03')).toMatchObject({ morning: 'free', afternoon: 'full' });
    expect(of('2026-12-04')).toMatchObject({ morning: 'full', afternoon: 'free' });
    for (const date of ['2026-12-07', '2026-12-08', '2026-12-11'])
      expect(of(date)).toMatchObject({ morning: 'full', afternoon: 'full' });
    expect(of('2026-12-14')).toMatchObject({ morning: 'free', afternoon: 'free' });
  });

  it('keeps 9am at 9am in the weeks of both clock changes', () => {
    // Clocks go forward on Sunday 28 March 2027 (Good Friday and Easter Monday around it) and
    // back on Sunday 31 October 2027.
    for (const date of ['2027-03-25', '2027-03-30', '2027-10-29', '2027-11-01']) {
      const early = input({ busy: [{ start: at(date, '08:00'), end: at(date, '09:00') }] });
      expect(day(early, date).morning, date).toBe('free');
      const nine = input({ busy: [{ start: at(date, '09:00'), end: at(date, '09:30') }] });
      expect(day(nine, date).morning, date).toBe('full');
      // The instant an hour apart in UTC is 9am UK time in summer, 10am in winter.
      expect(new Date(at(date, '09:00')).getUTCHours(), date).toBe(
        date === '2027-03-25' || date === '2027-11-01' ? 9 : 8,
      );
    }
  });

  it('the public answer says free or not of each half-day, and reads back', () => {
    const days = availabilityBetween(
      input({ holds: [{ date: '2026-11-26', time: 'afternoon' }] }),
      '2026-11-25',
      '2026-11-30',
    );
    const answer = encodeAvailability(days);
    expect(answer).toEqual({ from: '2026-11-25', halves: 'ccfbffccccff' });
    expect(stateIn(answer, '2026-11-26', 'afternoon')).toBe('full');
    expect(stateIn(answer, '2026-11-30', 'morning')).toBe('free');
    expect(stateIn(answer, '2026-12-01', 'morning')).toBeUndefined();
    expect(stateIn(answer, '2026-11-24', 'morning')).toBeUndefined();
    expect(stateIn(answer, 'not a date', 'morning')).toBeUndefined();
  });

  it('refuses settings out of bounds with a sentence', () => {
    const bad = AvailabilitySettingsSchema.safeParse({
      ...DEFAULT_AVAILABILITY,
      daysOff: [{ from: '2026-12-05', to: '2026-12-01', note: '' }],
      dailyCap: 0,
      windowDays: 400,
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'daysOff.0.to: The last day off must be on or after the first',
        'dailyCap: The daily cap is at least one session',
        'windowDays: The booking window is at most 365 days (12 months)',
      ]),
    );
  });
});

describe('bank holidays of England and Wales', () => {
  it('are what the date-holidays library computes for every year of the file', () => {
    for (let year = bankHolidayFile.firstYear; year <= bankHolidayFile.lastYear; year += 1) {
      expect(
        bankHolidayFile.days.filter((d) => d.date.startsWith(`${year}-`)),
        String(year),
      ).toEqual(bankHolidaysOf(year));
    }
  });

  it('cover the booking window from today (else: node scripts/bank-holidays.mjs with a later LAST_YEAR)', () => {
    expect(bankHolidayFile.lastYear).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 1);
    expect(HOLIDAYS.has('2026-12-25') && HOLIDAYS.has('2027-03-26') && HOLIDAYS.has('2027-12-28')).toBe(true);
  });
});
