import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { masterclass } from '../src/content/resources';
import { escapeText, foldLine } from '../src/lib/ics';
import { buildPublishedEventIcs, icsUtc } from './ics';
import { masterclassEvent } from './masterclass-event';

describe('the calendar file writer', () => {
  it('writes times in UTC', () => {
    expect(icsUtc('2025-07-10T19:00:00+01:00')).toBe('20250710T180000Z');
    expect(() => icsUtc('not a date')).toThrow();
  });

  it('escapes TEXT values', () => {
    expect(escapeText('a, b; c\\d\ne')).toBe('a\\, b\\; c\\\\d\\ne');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const folded = foldLine('DESCRIPTION:' + '£'.repeat(100));
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe('DESCRIPTION:' + '£'.repeat(100));
  });
});

describe('the masterclass calendar file', () => {
  const ics = buildPublishedEventIcs(masterclassEvent('https://www.example.com'), '-//Test//EN');

  it('uses CRLF line endings throughout', () => {
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('parses as one event with the content times, a stable UID and the details', () => {
    const component = new ICAL.Component(ICAL.parse(ics));
    const events = component.getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]);
    expect(event.uid).toBe(masterclass.calendar.uid);
    expect(event.summary).toBe(masterclass.title);
    expect(event.startDate.toJSDate().toISOString()).toBe(new Date(masterclass.startsAt).toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe(new Date(masterclass.endsAt).toISOString());
    // 19:00-20:30 BST is 18:00-19:30 UTC.
    expect(event.startDate.toString()).toBe('2025-07-10T18:00:00Z');
    expect(event.endDate.toString()).toBe('2025-07-10T19:30:00Z');
    expect(event.description).toContain('Q&A');
    expect(events[0]?.getFirstPropertyValue('url')).toBe('https://www.example.com/resources');
  });

  it('is the same file on every build', () => {
    expect(buildPublishedEventIcs(masterclassEvent('https://www.example.com'), '-//Test//EN')).toBe(ics);
  });
});
