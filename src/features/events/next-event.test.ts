import { describe, expect, it } from 'vitest';
import type { PublicEvent } from './events-api';
import { stateOf } from './next-event';

const event: PublicEvent = {
  id: '6f1c2a52-96a3-4d5e-9f43-0b8d8e5b7a10',
  title: 'Bitcoin for High Earners',
  summary: 'Allocation, tax and custody.',
  startsAt: '2026-12-03T19:00:00.000Z',
  endsAt: '2026-12-03T20:30:00.000Z',
  mode: 'online',
  place: null,
  cancelled: false,
  registration: {
    opensAt: '2026-11-01T09:00:00.000Z',
    closesAt: '2026-12-03T19:00:00.000Z',
    open: false,
    placesLeft: 4,
  },
  calendarPath: null,
};
const at = (iso: string) => Date.parse(iso);

describe("the next masterclass on the visitor's clock", () => {
  it('is past from its end', () => {
    expect(stateOf(event, at('2026-12-03T20:29:59Z'))).toMatchObject({ past: false });
    expect(stateOf(event, at('2026-12-03T20:30:00Z'))).toMatchObject({ past: true });
  });

  it('takes whether registration is open from the server, and tells not yet open from closed', () => {
    const open = { ...event, registration: { ...event.registration, open: true } };
    expect(stateOf(open, at('2026-11-20T00:00:00Z'))).toMatchObject({ registration: 'open' });
    expect(stateOf(event, at('2026-10-20T00:00:00Z'))).toMatchObject({ registration: 'not-yet-open' });
    expect(stateOf(event, at('2026-12-03T19:30:00Z'))).toMatchObject({ registration: 'closed' });
  });

  it('never offers registration for a cancelled masterclass', () => {
    const cancelled = { ...event, cancelled: true, registration: { ...event.registration, open: true } };
    expect(stateOf(cancelled, at('2026-10-20T00:00:00Z'))).toMatchObject({ registration: 'closed' });
  });
});
