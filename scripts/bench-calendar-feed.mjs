/**
 * The owner's calendar the availability part reads (decision 037): 5,000 events as a Google
 * calendar's secret address serves them, over four years (three past, one ahead, as real feeds
 * keep their history): 4,800 single events and 200 weekly series, each series with an EXDATE and
 * a moved occurrence (RECURRENCE-ID), a quarter of them in America/New_York with its VTIMEZONE,
 * some free (TRANSPARENT) or cancelled. Deterministic: the same feed every run. Served over http
 * on 127.0.0.1 by the bench process itself.
 */
import { createServer } from 'node:http';

const DAY = 86_400_000;
const pad = (n) => String(n).padStart(2, '0');
const utc = (ms) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00Z`;
};
const local = (ms) => utc(ms).slice(0, -1);

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

export function benchCalendarFeed(now = Date.now()) {
  const today = Math.floor(now / DAY) * DAY;
  const start = today - 3 * 365 * DAY;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
    ...NEW_YORK,
  ];
  const event = (uid, body) =>
    lines.push(
      'BEGIN:VEVENT',
      `UID:${uid}@google.com`,
      'DTSTAMP:20261101T000000Z',
      ...body,
      'SUMMARY:Client meeting',
      'DESCRIPTION:Agenda to follow.',
      'LOCATION:Office',
      'END:VEVENT',
    );
  // 4,800 single events, about three a day over four years, between 08:00 and 17:00 UTC.
  for (let i = 0; i < 4800; i += 1) {
    const s = start + Math.floor((i * 4 * 365) / 4800) * DAY + (8 + ((i * 7) % 9)) * 3600_000;
    const extra = i % 20 === 0 ? ['TRANSP:TRANSPARENT'] : i % 25 === 0 ? ['STATUS:CANCELLED'] : [];
    event(`single-${i}`, [`DTSTART:${utc(s)}`, `DTEND:${utc(s + 3600_000)}`, ...extra]);
  }
  // 200 weekly series begun over the last three years, a year long each.
  for (let i = 0; i < 200; i += 1) {
    const s = start + Math.floor((i * 3 * 365) / 200) * DAY + (9 + (i % 8)) * 3600_000;
    const zone = i % 4 === 0 ? ';TZID=America/New_York' : '';
    const at = zone ? local : utc;
    event(`series-${i}`, [
      `DTSTART${zone}:${at(s)}`,
      `DTEND${zone}:${at(s + 1800_000)}`,
      'RRULE:FREQ=WEEKLY;COUNT=52',
      `EXDATE${zone}:${at(s + 14 * DAY)}`,
    ]);
    lines.push(
      'BEGIN:VEVENT',
      `UID:series-${i}@google.com`,
      'DTSTAMP:20261101T000000Z',
      `RECURRENCE-ID${zone}:${at(s + 21 * DAY)}`,
      `DTSTART${zone}:${at(s + 22 * DAY)}`,
      `DTEND${zone}:${at(s + 22 * DAY + 1800_000)}`,
      'SUMMARY:Client meeting (moved)',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

/** Serves the feed at a secret-looking path on 127.0.0.1; `close` stops it. */
export async function serveBenchFeed() {
  const body = benchCalendarFeed();
  const path = '/calendar/ical/bench%40example.com/private-0123456789abcdef/basic.ics';
  const server = createServer((req, res) => {
    if (req.url !== path) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/calendar; charset=UTF-8' });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}${path}`,
    bytes: Buffer.byteLength(body),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
