import { describe, expect, it } from 'vitest';
import { UTILITY_PATHS } from '~/content/routes';
import { calendarFileName, ukInstantLabel } from './event-labels';
import { REGISTRATION_CANCEL_PATH } from './events-api';

describe('the labels of a masterclass', () => {
  it('write an instant in UK time with its zone, summer and winter', () => {
    expect(ukInstantLabel('2025-07-10T18:00:00Z')).toBe('Thursday 10 July 2025 at 19:00 BST');
    expect(ukInstantLabel('2026-12-01T09:00:00.000Z')).toBe('Tuesday 1 December 2026 at 09:00 GMT');
    // Late in the evening UTC on the last day of BST is already the next day in the UK.
    expect(ukInstantLabel('2026-10-24T23:30:00Z')).toBe('Sunday 25 October 2026 at 00:30 BST');
  });

  it('name the calendar file by the UK date', () => {
    expect(calendarFileName('2025-07-10T18:00:00Z')).toBe('masterclass-2025-07-10.ics');
    expect(calendarFileName('2026-06-30T23:30:00Z')).toBe('masterclass-2026-07-01.ics');
  });
});

describe('the cancel page', () => {
  it('is a utility page at the path the e-mails link to', () => {
    expect(UTILITY_PATHS).toContain(REGISTRATION_CANCEL_PATH);
  });
});
