import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, foldLine } from '~/lib/ics';
import { buildSessionIcs, type IcsEvent } from './booking-ics';
import { googleCalendarUrl, outlookCalendarUrl } from './booking-calendar-links';

const base: IcsEvent = {
  method: 'REQUEST',
  uid: 'booking-123@example.com',
  sequence: 0,
  date: '2026-07-15',
  start: '09:30',
  end: '10:15',
  summary: 'Strategy session: Live Zoom Workshop',
  description:
    'Reference BK-7F3K2Q.\nLine two; with, punctuation \\ and a very long sentence that must be folded over several lines by the builder.',
  location: 'Online',
  organizer: { name: 'Sterling Sats', email: 'owner@example.com' },
  attendee: { name: 'Ada "The Countess" Lovelace', email: 'ada@example.com' },
  stamp: new Date('2026-06-01T10:00:00Z'),
  productId: '-//Sterling Sats//Booking//EN',
};

function parse(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = cal.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { cal, vevent, event: new ICAL.Event(vevent) };
}

describe('buildSessionIcs', () => {
  it('makes a valid REQUEST in Europe/London: a summer date is BST', () => {
    const ics = buildSessionIcs(base);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.split('\r\n').every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
    const { cal, event, vevent } = parse(ics);
    expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.uid).toBe('booking-123@example.com');
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/London');
    expect(event.startDate.zone?.tzid).toBe('Europe/London');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-07-15T08:30:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-07-15T09:15:00.000Z');
    expect(event.description).toBe(base.description);
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(String(vevent.getFirstPropertyValue('attendee'))).toBe('mailto:ada@example.com');
    expect(vevent.getFirstProperty('attendee')?.getParameter('cn')).toBe('Ada The Countess Lovelace');
  });

  it('a winter date is GMT', () => {
    const { event } = parse(buildSessionIcs({ ...base, date: '2026-12-01', start: '13:00', end: '13:45' }));
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-01T13:00:00.000Z');
  });

  it('makes a CANCEL for the same UID with a higher sequence', () => {
    const { cal, event, vevent } = parse(buildSessionIcs({ ...base, method: 'CANCEL', sequence: 1 }));
    expect(cal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(event.uid).toBe(base.uid);
    expect(event.sequence).toBe(1);
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('escapes text and folds long lines without splitting characters', () => {
    expect(escapeText('a;b,c\\d\r\ne')).toBe('a\\;b\\,c\\\\d\\ne');
    const folded = foldLine(`SUMMARY:${'é'.repeat(60)}`);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(`SUMMARY:${'é'.repeat(60)}`);
  });
});

describe('calendar links', () => {
  const event = {
    title: 'Strategy session',
    details: 'Reference BK-7F3K2Q',
    location: 'Online',
    start: new Date('2026-07-15T08:30:00Z'),
    end: new Date('2026-07-15T09:15:00Z'),
  };

  it('Google Calendar gets UTC dates', () => {
    const url = new URL(googleCalendarUrl(event));
    expect(url.host).toBe('calendar.google.com');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('dates')).toBe('20260715T083000Z/20260715T091500Z');
    expect(url.searchParams.get('text')).toBe('Strategy session');
  });

  it('Outlook gets ISO instants', () => {
    const url = new URL(outlookCalendarUrl(event));
    expect(url.host).toBe('outlook.live.com');
    expect(url.searchParams.get('startdt')).toBe('2026-07-15T08:30:00Z');
    expect(url.searchParams.get('enddt')).toBe('2026-07-15T09:15:00Z');
    expect(url.searchParams.get('subject')).toBe('Strategy session');
  });
});
