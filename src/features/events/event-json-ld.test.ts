import { describe, expect, it } from 'vitest';
import { eventJsonLd, jsonForScript } from './event-json-ld';
import { fixtureEvent as event } from './event-fixture';

describe('the Event structured data', () => {
  it('describes an online masterclass: scheduled, a virtual location on the Resources page, a free offer', () => {
    const data = eventJsonLd(event);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: event.title,
      description: event.summary,
      startDate: event.startsAt,
      endDate: event.endsAt,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      location: { '@type': 'VirtualLocation', url: expect.stringMatching(/\/resources$/) },
      organizer: { '@type': 'Organization', name: 'Sterling Sats' },
      offers: {
        '@type': 'Offer',
        price: 0,
        priceCurrency: 'GBP',
        availability: 'https://schema.org/InStock',
        url: expect.stringMatching(/\/resources#register$/),
      },
    });
  });

  it('says cancelled, sold out, and in person at a place', () => {
    const data = eventJsonLd({
      ...event,
      mode: 'in-person',
      place: 'The Library, London',
      cancelled: true,
      registration: { ...event.registration, placesLeft: 0 },
    });
    expect(data.eventStatus).toBe('https://schema.org/EventCancelled');
    expect(data.eventAttendanceMode).toBe('https://schema.org/OfflineEventAttendanceMode');
    expect(data.location).toEqual({
      '@type': 'Place',
      name: 'The Library, London',
      address: 'The Library, London',
    });
    expect(data.offers).toMatchObject({ availability: 'https://schema.org/SoldOut' });
  });

  it('cannot close its script element', () => {
    const json = jsonForScript(eventJsonLd({ ...event, title: '</script><script>alert(1)</script>' }));
    expect(json).not.toContain('<');
    expect((JSON.parse(json) as { name: string }).name).toBe('</script><script>alert(1)</script>');
  });

  it('on a masterclass’s own page: located there, with no availability it cannot know', () => {
    const { registration: _known, ...facts } = event;
    const data = eventJsonLd(facts, '/masterclasses/first-class-aaaaaaaa');
    expect(data).toMatchObject({
      location: { '@type': 'VirtualLocation', url: expect.stringMatching(/\/masterclasses\/first-class-aaaaaaaa$/) },
      url: expect.stringMatching(/\/masterclasses\/first-class-aaaaaaaa$/),
      offers: { url: expect.stringMatching(/\/masterclasses\/first-class-aaaaaaaa#register$/) },
    });
    expect(data.offers).not.toHaveProperty('availability');
    expect(data.offers).not.toHaveProperty('validFrom');
  });
});
