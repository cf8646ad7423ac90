/** The owner's calendar read as busy half-days (decision 037): recurrence, zones, clock changes. */
import { describe, expect, test } from 'vitest';
import { expandFeed, FeedTooLarge, NotACalendar } from './calendar-feed-expand';

const LONDON = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/London',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];
const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:20070311T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:20071104T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

let uid = 0;
function vevent(lines: string[]): string[] {
  uid += 1;
  return ['BEGIN:VEVENT', `UID:event-${uid}@example.com`, 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'];
}
const calendar = (...parts: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...parts.flat(), 'END:VCALENDAR', ''].join('\r\n');

const YEAR = { from: '2027-01-01', to: '2027-12-31' };
const busyOf = async (ics: string, range = YEAR) => (await expandFeed(ics, range)).busy;

describe('expandFeed', () => {
  test('a weekly series with an EXDATE, a moved occurrence (RECURRENCE-ID) and a cancelled one', async () => {
    const series = [
      'UID:series@example.com',
      'DTSTAMP:20261101T000000Z',
      'SUMMARY:Board meeting',
      'DTSTART;TZID=Europe/London:20270104T100000',
      'DTEND;TZID=Europe/London:20270104T110000',
      'RRULE:FREQ=WEEKLY;COUNT=5',
      'EXDATE;TZID=Europe/London:20270111T100000',
    ];
    const ics = calendar(
      LONDON,
      ['BEGIN:VEVENT', ...series, 'END:VEVENT'],
      [
        'BEGIN:VEVENT',
        'UID:series@example.com',
        'DTSTAMP:20261101T000000Z',
        'RECURRENCE-ID;TZID=Europe/London:20270118T100000',
        'DTSTART;TZID=Europe/London:20270119T140000',
        'DTEND;TZID=Europe/London:20270119T150000',
        'END:VEVENT',
      ],
      [
        'BEGIN:VEVENT',
        'UID:series@example.com',
        'DTSTAMP:20261101T000000Z',
        'RECURRENCE-ID;TZID=Europe/London:20270125T100000',
        'DTSTART;TZID=Europe/London:20270125T100000',
        'DTEND;TZID=Europe/London:20270125T110000',
        'STATUS:CANCELLED',
        'END:VEVENT',
      ],
    );
    const answer = await expandFeed(ics, YEAR);
    expect(answer.busy).toEqual(['2027-01-04 morning', '2027-01-19 afternoon', '2027-02-01 morning']);
    expect(answer.events).toBe(1);
  });

  test('an event in America/New_York, with its VTIMEZONE and without one', async () => {
    // 09:00 in New York in January is 14:00 in London; in July (EDT, BST) it is 14:00 too.
    const withZone = calendar(
      NEW_YORK,
      vevent([
        'DTSTART;TZID=America/New_York:20270106T090000',
        'DTEND;TZID=America/New_York:20270106T100000',
      ]),
    );
    expect(await busyOf(withZone)).toEqual(['2027-01-06 afternoon']);
    const withoutZone = calendar(
      vevent([
        'DTSTART;TZID=America/New_York:20270707T090000',
        'DTEND;TZID=America/New_York:20270707T100000',
      ]),
    );
    expect(await busyOf(withoutZone)).toEqual(['2027-07-07 afternoon']);
  });

  test('an all-day event takes both halves of each of its days, its DTEND excluded', async () => {
    const ics = calendar(
      vevent(['DTSTART;VALUE=DATE:20270201', 'DTEND;VALUE=DATE:20270203', 'SUMMARY:Away']),
    );
    expect(await busyOf(ics)).toEqual([
      '2027-02-01 afternoon',
      '2027-02-01 morning',
      '2027-02-02 afternoon',
      '2027-02-02 morning',
    ]);
  });

  test('cancelled and free (TRANSPARENT) events take nothing', async () => {
    const ics = calendar(
      vevent(['DTSTART:20270301T100000Z', 'DTEND:20270301T110000Z', 'STATUS:CANCELLED']),
      vevent(['DTSTART:20270302T100000Z', 'DTEND:20270302T110000Z', 'TRANSP:TRANSPARENT']),
      vevent(['DTSTART;VALUE=DATE:20270303', 'TRANSP:TRANSPARENT']),
      vevent(['DTSTART:20270304T100000Z', 'DTEND:20270304T110000Z', 'TRANSP:OPAQUE', 'STATUS:CONFIRMED']),
    );
    expect(await busyOf(ics)).toEqual(['2027-03-04 morning']);
  });

  test('the spring clock change: the same UTC hour falls in another UK half-day', async () => {
    // 16:30-17:00 UTC is 16:30 UK in GMT (afternoon) and 17:30 UK in BST (after the session hours).
    const utc = calendar(
      vevent(['DTSTART:20270322T163000Z', 'DTEND:20270322T170000Z', 'RRULE:FREQ=WEEKLY;COUNT=2']),
    );
    expect(await busyOf(utc)).toEqual(['2027-03-22 afternoon']);
    // A UK series keeps its UK hour across the change (the last Sunday of March 2027 is the 28th).
    const uk = calendar(
      LONDON,
      vevent([
        'DTSTART;TZID=Europe/London:20270322T113000',
        'DTEND;TZID=Europe/London:20270322T123000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
      ]),
    );
    expect(await busyOf(uk)).toEqual(['2027-03-22 morning', '2027-03-29 morning']);
  });

  test('the autumn clock change (the last Sunday of October 2027 is the 31st)', async () => {
    const utc = calendar(
      vevent(['DTSTART:20271025T163000Z', 'DTEND:20271025T170000Z', 'RRULE:FREQ=WEEKLY;COUNT=2']),
    );
    expect(await busyOf(utc)).toEqual(['2027-11-01 afternoon']);
    const floating = calendar(vevent(['DTSTART:20271101T085900', 'DTEND:20271101T090100']));
    expect(await busyOf(floating)).toEqual(['2027-11-01 morning']);
  });

  test('a series begun years ago still marks the range, and nothing outside the range is kept', async () => {
    const ics = calendar(
      LONDON,
      vevent([
        'DTSTART;TZID=Europe/London:20200106T140000',
        'DTEND;TZID=Europe/London:20200106T150000',
        'RRULE:FREQ=WEEKLY;BYDAY=MO',
      ]),
      vevent(['DTSTART:20261230T100000Z', 'DTEND:20261230T110000Z']),
    );
    const busy = await busyOf(ics, { from: '2027-01-01', to: '2027-01-31' });
    expect(busy).toEqual([
      '2027-01-04 afternoon',
      '2027-01-11 afternoon',
      '2027-01-18 afternoon',
      '2027-01-25 afternoon',
    ]);
  });

  test('an event spanning the lunch hour takes both halves; one inside the lunch hour takes neither', async () => {
    const ics = calendar(
      vevent(['DTSTART:20270105T113000Z', 'DTEND:20270105T133000Z']),
      vevent(['DTSTART:20270106T120000Z', 'DTEND:20270106T130000Z']),
    );
    expect(await busyOf(ics)).toEqual(['2027-01-05 afternoon', '2027-01-05 morning']);
  });

  test('text that is not a calendar is refused', async () => {
    await expect(expandFeed('<html>Sign in</html>', YEAR)).rejects.toBeInstanceOf(NotACalendar);
    await expect(expandFeed('BEGIN:VCARD\r\nEND:VCARD\r\n', YEAR)).rejects.toBeInstanceOf(NotACalendar);
  });

  test('an event that never ends is left out; the events after it are read', async () => {
    const ics = calendar(
      ['BEGIN:VEVENT', 'UID:cut@example.com', 'DTSTART:20270104T100000Z', 'DTEND:20270104T110000Z'],
      ['BEGIN:VEVENT', 'BEGIN:VEVENT'],
      vevent(['DTSTART:20270105T100000Z', 'DTEND:20270105T110000Z']),
      ['BEGIN:VEVENT', 'DTSTART:20270106T100000Z'],
    );
    expect(await busyOf(ics)).toEqual(['2027-01-05 morning']);
    // Lines ending in LF alone are read as CRLF ones are.
    expect(await busyOf(ics.replaceAll('\r\n', '\n'))).toEqual(['2027-01-05 morning']);
  });

  test('a feed whose series step through more occurrences than the limit is refused, naming it', async () => {
    const ics = calendar(
      ...Array.from({ length: 3 }, () =>
        vevent(['DTSTART:20200101T100000Z', 'DTEND:20200101T110000Z', 'RRULE:FREQ=DAILY']),
      ),
    );
    // Three daily series begun in 2020 step some 2,600 times each to reach 2027's end.
    expect((await expandFeed(ics, YEAR, { maxOccurrences: 10_000 })).busy).toHaveLength(365);
    const refused = expandFeed(ics, YEAR, { maxOccurrences: 5_000 });
    await expect(refused).rejects.toBeInstanceOf(FeedTooLarge);
    await expect(refused).rejects.toThrow(/more than 5,000 occurrences to go through/);
  });
});
