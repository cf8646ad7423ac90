/**
 * 'Add to calendar' links for people whose mail client does not read the .ics invite. Both
 * take UTC instants, so no zone can be misread.
 */
export type CalendarLinkEvent = {
  title: string;
  details: string;
  location: string;
  start: Date;
  end: Date;
};

function googleStamp(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function googleCalendarUrl(event: CalendarLinkEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${googleStamp(event.start)}/${googleStamp(event.end)}`,
    details: event.details,
    location: event.location,
    ctz: 'Europe/London',
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

export function outlookCalendarUrl(event: CalendarLinkEvent): string {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.start.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    enddt: event.end.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    body: event.details,
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}
