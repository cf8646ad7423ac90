/**
 * The schema.org Event of the next masterclass, for the Resources page's structured data. An
 * online event's location is the Resources page: the joining link is never public.
 */
import { site } from '~/content/site';
import { absoluteUrl } from '~/lib/seo';
import type { PublicEvent } from './events-api';

const SCHEMA = 'https://schema.org';
export const EVENT_PAGE_PATH = '/resources';

export function eventJsonLd(event: PublicEvent): Record<string, unknown> {
  const page = absoluteUrl(EVENT_PAGE_PATH);
  const online = event.mode === 'online';
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
      availability: `${SCHEMA}/${event.registration.placesLeft > 0 ? 'InStock' : 'SoldOut'}`,
      validFrom: event.registration.opensAt,
      url: absoluteUrl(`${EVENT_PAGE_PATH}#register`),
    },
    url: page,
  };
}

/** JSON for an inline script: `<` written as `\u003c`, so no text can close the element. */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
