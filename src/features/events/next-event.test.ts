import { describe, expect, it } from 'vitest';
import { fixtureEvent } from './event-fixture';
import { stateOf } from './next-event';

/** The example with registration not open (the server says whether it is) and no calendar file. */
const event = {
  ...fixtureEvent,
  registration: { ...fixtureEvent.registration, open: false },
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
