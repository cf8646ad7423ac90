/** The masterclass from content, as a calendar event for the build's .ics file. */
import { masterclass } from '../src/content/resources';
import { site } from '../src/content/site';
import type { CalendarEvent } from './ics';

export function masterclassEvent(publicUrl: string): CalendarEvent {
  return {
    uid: masterclass.calendar.uid,
    startsAt: masterclass.startsAt,
    endsAt: masterclass.endsAt,
    updatedAt: masterclass.calendar.updatedAt,
    title: masterclass.title,
    description: `${masterclass.description}\n\n${masterclass.formatLabel}, ${masterclass.timeLabel}. Details and joining link: ${publicUrl}/resources`,
    location: 'Online',
    url: `${publicUrl}/resources`,
    organizer: { name: site.brand, email: site.email },
  };
}
