import { describe, expect, it } from 'vitest';
import type { z } from '~/lib/zod';
import { EventInputSchema, EventMessageSchema } from './event-input-schema';

/** The first message of each field, as the console's route answers them. */
function fieldErrors(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path[0];
    if (typeof key === 'string' && !(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

const valid = {
  title: 'Bitcoin for High Earners',
  summary: 'Allocation sizing, UK tax and custody,\nthen questions.',
  startsAt: '2099-07-10T19:00',
  endsAt: '2099-07-10T20:30',
  mode: 'online',
  place: '',
  joinUrl: ' https://meet.example.net/j/1 ',
  capacity: '12',
  registrationOpensAt: '',
  registrationClosesAt: '',
};

describe('the event input schema', () => {
  it('reads UK wall-clock times as instants, and keeps only the place or link of its mode', () => {
    const event = EventInputSchema.parse({ ...valid, place: 'ignored online' });
    expect(event.startsAt.toISOString()).toBe('2099-07-10T18:00:00.000Z');
    expect(event).toMatchObject({
      place: null,
      joinUrl: 'https://meet.example.net/j/1',
      capacity: 12,
      registrationOpensAt: null,
    });
    expect(
      EventInputSchema.parse({ ...valid, mode: 'in-person', place: '1 Poultry, London', joinUrl: 'x' }),
    ).toMatchObject({ place: '1 Poultry, London', joinUrl: null });
  });

  it('gives every field its sentence at once, the rules across fields on the field they concern', () => {
    const result = EventInputSchema.safeParse({
      title: '',
      summary: 'x',
      startsAt: '2020-01-01T10:00',
      endsAt: 'soon',
      mode: 'online',
      joinUrl: 'http://x',
      capacity: 0,
    });
    expect(fieldErrors(result)).toEqual({
      title: 'Please give the event a title.',
      startsAt: 'The start must be in the future.',
      endsAt: 'Please give the end date and time.',
      joinUrl: 'Please give a joining link that starts with https://.',
      capacity: 'Please give a number of places from 1 to 10000.',
    });
  });

  it('checks the end, the place in person and the registration window', () => {
    const result = EventInputSchema.safeParse({
      ...valid,
      endsAt: '2099-07-11T20:30',
      mode: 'in-person',
      place: ' ',
      registrationOpensAt: '2099-07-01T10:00',
      registrationClosesAt: '2099-06-01T10:00',
    });
    expect(fieldErrors(result)).toEqual({
      endsAt: 'A masterclass lasts at most 24 hours.',
      place: 'Please give the address.',
      registrationClosesAt: 'Registration must close after it opens.',
    });
    const late = EventInputSchema.safeParse({
      ...valid,
      endsAt: '2099-07-10T19:00',
      registrationOpensAt: 'not a time',
      registrationClosesAt: '2099-07-10T19:30',
    });
    expect(fieldErrors(late)).toEqual({
      endsAt: 'The end must be after the start.',
      registrationOpensAt: 'Please give a valid date and time, or leave it empty.',
      registrationClosesAt: 'Registration must close by the start.',
    });
  });

  it('refuses long text, line breaks in one-line fields and control characters, and reads a non-object as empty', () => {
    const result = EventInputSchema.safeParse({
      ...valid,
      title: 'Two\nlines',
      summary: 'x'.repeat(601),
      startsAt: '2099-02-30T10:00',
      mode: 'hybrid',
    });
    expect(fieldErrors(result)).toEqual({
      title: 'Please remove line breaks and unusual characters.',
      summary: 'Please keep this under 600 characters.',
      startsAt: 'Please give the start date and time.',
      mode: 'Please choose online or in person.',
    });
    expect(Object.keys(fieldErrors(EventInputSchema.safeParse([])))).toEqual([
      'title',
      'summary',
      'startsAt',
      'endsAt',
      'mode',
      'capacity',
    ]);
    expect(fieldErrors(EventMessageSchema.safeParse({ subject: ' ', message: 'Hello\u0007' }))).toEqual({
      subject: 'Please write a subject.',
      message: 'Please remove line breaks and unusual characters.',
    });
  });
});
