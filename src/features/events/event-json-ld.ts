/**
 * The schema.org Event of a masterclass: on the Resources page for the next one (its card, with
 * its places left once asked), and on its own page (`/masterclasses/<slug>`, rendered at
 * publication, when its places are not known). An online event's location is the page that
 * shows it: the joining link is never public.
 */
import { site } from '~/content/site';
import { absoluteUrl } from '~/lib/seo';
import type { PublicEvent } from './events-api';

const SCHEMA = 'https://schema.org';
export const EVENT_PAGE_PATH = '/resources';

/** What the structured data says of an event, whichever page shows it. */
export type EventFacts = Pick<PublicEvent, 'title' | 'summary' | 'startsAt' | 'endsAt' | 'mode' | 'place' | 'cancelled'> & {
  /** Its registration, when the page knows it (the card asks after hydration; a rendered page does not). */
  registration?: Pick<PublicEvent['registration'], 'placesLeft' | 'opensAt'>;
};

/** The Event, shown on the page at `pagePath` (where its registration form is, `#register`). */
export function eventJsonLd(event: EventFacts, pagePath: string = EVENT_PAGE_PATH): Record<string, unknown> {
  const page = absoluteUrl(pagePath);
  const online = event.mode === 'online';
  const registration = event.registration;
  return {
    '@context': SCHEMA,
    '@type': 'Event',
    name: event.title,
    description: event.summary,
    startDate: event.startsAt,
    endDate: event.endsAt,
    eventStatus: `${SCHEMA}/${event.cancelled ? 'EventCancelled' : 'EventScheduled'}`,
    eventAttendanceMode: `${SCHEMA}/${online ? 'OnlineEventAttendanceMode' : 'OfflineEventAttendanceMode'}`,
    location: online
      ? { '@type': 'VirtualLocation', url: page }
      : { '@type': 'Place', name: event.place ?? '', address: event.place ?? '' },
    image: absoluteUrl('/og-image.png'),
    organizer: { '@type': 'Organization', name: site.brand, url: absoluteUrl('/') },
    offers: {
      '@type': 'Offer',
      price: 0,
      priceCurrency: 'GBP',
      ...(registration
        ? {
            availability: `${SCHEMA}/${registration.placesLeft > 0 ? 'InStock' : 'SoldOut'}`,
            validFrom: registration.opensAt,
          }
        : {}),
      url: `${page}#register`,
    },
    url: page,
  };
}

/** JSON for an inline script: `<` written as `\u003c`, so no text can close the element. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
