import { describe, expect, it } from 'vitest';
import { bookingMessages as msg } from '~/content/booking';
import { canContinue, createBookingSchema, createStep1Schema, dateIssue } from './booking-schema';

// Monday 2 March 2026, noon in London (GMT): tomorrow is Tuesday 3 March.
const NOW = new Date('2026-03-02T12:00:00Z');
const schema = createBookingSchema(() => NOW);

const valid = {
  sessionType: 'zoom',
  firstChoiceDate: '2026-03-03',
  firstChoiceTime: 'morning',
  secondChoiceDate: '',
  secondChoiceTime: '',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 7700 900123',
  company: 'Analytical Ltd',
  role: 'Director',
  notes: '',
};

/** The messages the schema gives for one field of an otherwise valid request. */
function messagesFor(field: string, value: unknown): string[] {
  const result = schema.safeParse({ ...valid, [field]: value });
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path[0] === field).map((i) => i.message);
}

describe('BookingSchema: the spec validation table, row by row', () => {
  it('accepts a complete request and cleans it', () => {
    const parsed = schema.parse({ ...valid, firstName: '  Ada ', email: ' ada@example.com ' });
    expect(parsed.firstName).toBe('Ada');
    expect(parsed.email).toBe('ada@example.com');
  });

  it.each([
    ['sessionType', undefined, msg.sessionType],
    ['sessionType', '', msg.sessionType],
    ['sessionType', 'webinar', msg.sessionType],
    ['firstChoiceDate', '', msg.date],
    ['firstChoiceDate', undefined, msg.date],
    ['firstChoiceTime', '', msg.time],
    ['firstChoiceTime', undefined, msg.time],
    ['firstChoiceTime', 'evening', msg.time],
    ['firstName', 'A', msg.firstName],
    ['firstName', '  A  ', msg.firstName],
    ['firstName', undefined, msg.firstName],
    ['lastName', 'L', msg.lastName],
    ['lastName', '', msg.lastName],
    ['email', 'not-an-email', msg.email],
    ['email', 'ada@example', msg.email],
    ['email', 'ada @example.com', msg.email],
    ['email', '', msg.email],
    ['phone', '+44 7700 abc123', msg.phoneFormat],
    ['phone', '44-7700-900123', msg.phoneFormat],
    ['phone', '+44 7700+900123', msg.phoneFormat],
    ['phone', '+44 770', msg.phoneLength],
    ['phone', '', msg.phoneLength],
    ['company', 'X', msg.company],
    ['company', '', msg.company],
    ['role', 'Q', msg.role],
    ['role', '', msg.role],
  ])('%s = %j gives "%s"', (field, value, message) => {
    expect(messagesFor(field, value)[0]).toBe(message);
  });

  it.each([
    ['firstName', 'Al'],
    ['lastName', 'Li'],
    ['phone', '07700900123'],
    ['phone', '+447700900123'],
    ['phone', '+44 20 7946 0321'],
    ['company', 'BP'],
    ['role', 'VP'],
  ])('%s = %j is valid (the minimum is inclusive)', (field, value) => {
    expect(messagesFor(field, value)).toEqual([]);
  });

  it('leaves the second choice and the notes optional', () => {
    const { secondChoiceDate: _d, secondChoiceTime: _t, notes: _n, ...rest } = valid;
    expect(schema.safeParse(rest).success).toBe(true);
  });

  it('caps lengths so a request stays small', () => {
    expect(messagesFor('firstName', 'a'.repeat(51))).toEqual([msg.tooLong(50)]);
    expect(messagesFor('notes', 'a'.repeat(5001))).toEqual([msg.tooLong(5000)]);
    expect(messagesFor('notes', 'a'.repeat(5000))).toEqual([]);
  });

  it('turns control characters of single-line fields into spaces (nothing reaches a header)', () => {
    const parsed = schema.parse({ ...valid, firstName: 'Ada\r\nBcc: x@evil.test', company: 'A\tB' });
    expect(parsed.firstName).toBe('Ada  Bcc: x@evil.test');
    expect(parsed.company).toBe('A B');
  });
});

describe('date rules', () => {
  it('the earliest date is tomorrow in UK time', () => {
    expect(dateIssue('2026-03-02', NOW)).toBe(msg.dateNotFuture);
    expect(dateIssue('2026-03-01', NOW)).toBe(msg.dateNotFuture);
    expect(dateIssue('2026-03-03', NOW)).toBeUndefined();
  });

  it('uses the UK date, not UTC: half past midnight BST is already the next day', () => {
    const lateEvening = new Date('2026-06-30T23:30:00Z'); // 00:30 on 1 July in London
    expect(dateIssue('2026-07-01', lateEvening)).toBe(msg.dateNotFuture);
    expect(dateIssue('2026-07-02', lateEvening)).toBeUndefined();
  });

  it('refuses dates more than a year ahead and impossible dates', () => {
    expect(dateIssue('2027-03-02', NOW)).toBeUndefined();
    expect(dateIssue('2027-03-03', NOW)).toBe(msg.dateTooFar);
    expect(dateIssue('2026-02-30', NOW)).toBe(msg.dateInvalid);
    expect(dateIssue('3/3/2026', NOW)).toBe(msg.dateInvalid);
  });

  it('applies to both choices', () => {
    expect(messagesFor('firstChoiceDate', '2026-03-02')).toEqual([msg.dateNotFuture]);
    const r = schema.safeParse({ ...valid, secondChoiceDate: '2020-01-01', secondChoiceTime: 'afternoon' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['secondChoiceDate', msg.dateNotFuture],
    ]);
  });

  it('a second choice must differ from the first', () => {
    const same = schema.safeParse({ ...valid, secondChoiceDate: '2026-03-03', secondChoiceTime: 'morning' });
    expect(same.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['secondChoiceDate', msg.secondSameAsFirst],
    ]);
    // Same day, other window: a different slot.
    expect(
      schema.safeParse({ ...valid, secondChoiceDate: '2026-03-03', secondChoiceTime: 'afternoon' }).success,
    ).toBe(true);
  });

  it('a second choice is a date and a time together', () => {
    const dateOnly = schema.safeParse({ ...valid, secondChoiceDate: '2026-03-04', secondChoiceTime: '' });
    expect(dateOnly.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['secondChoiceTime', msg.time],
    ]);
    const timeOnly = schema.safeParse({ ...valid, secondChoiceDate: '', secondChoiceTime: 'morning' });
    expect(timeOnly.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['secondChoiceDate', msg.date],
    ]);
  });

  it('reports the second-choice rule even while other fields are still empty', () => {
    const r = createBookingSchema(() => NOW).safeParse({
      ...valid,
      firstName: '',
      secondChoiceDate: '2026-03-03',
      secondChoiceTime: 'morning',
    });
    expect(r.error?.issues.map((i) => i.message)).toContain(msg.secondSameAsFirst);
  });
});

describe('step gating (Continue to Contact Details)', () => {
  const step1 = { sessionType: 'zoom', firstChoiceDate: '2026-03-03', firstChoiceTime: 'morning' };

  it('opens step 2 when session type, first date and time are filled and valid', () => {
    expect(canContinue(step1, NOW)).toBe(true);
    expect(
      canContinue(
        { ...step1, sessionType: 'team', secondChoiceDate: '2026-03-05', secondChoiceTime: 'afternoon' },
        NOW,
      ),
    ).toBe(true);
  });

  it.each([
    ['no session type', { ...step1, sessionType: '' }],
    ['no date', { ...step1, firstChoiceDate: '' }],
    ['no time', { ...step1, firstChoiceTime: '' }],
    ['a date today', { ...step1, firstChoiceDate: '2026-03-02' }],
    ['a second date without a time', { ...step1, secondChoiceDate: '2026-03-05' }],
    [
      'a second choice equal to the first',
      { ...step1, secondChoiceDate: '2026-03-03', secondChoiceTime: 'morning' },
    ],
  ])('stays on step 1 with %s', (_label, values) => {
    expect(canContinue(values, NOW)).toBe(false);
  });

  it('does not look at step 2 fields', () => {
    expect(createStep1Schema(() => NOW).safeParse({ ...step1, firstName: '' }).success).toBe(true);
  });
});
