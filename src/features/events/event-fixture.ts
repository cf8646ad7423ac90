/** A published online masterclass with registration open and places left: the events tests' example. */
import type { PublicEvent } from './events-api';

export const fixtureEvent: PublicEvent = {
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
    open: true,
    placesLeft: 4,
  },
  calendarPath: '/api/events/6f1c2a52-96a3-4d5e-9f43-0b8d8e5b7a10/calendar.ics',
};
