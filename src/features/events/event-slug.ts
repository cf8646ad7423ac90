/**
 * A masterclass's page address under /masterclasses/ (decision 047): its title and the first
 * eight characters of its id (`titleSlug`). Made once, when the event is created, and kept (the
 * same rule as migration 0024 applied to the events before it).
 */
import { titleSlug, TITLE_SLUG } from '~/lib/title-slug';

export function eventSlug(title: string, id: string): string {
  return titleSlug(title, id, 'masterclass');
}

/** A slug as `eventSlug` makes them (what a request's path is checked against before any query). */
export const EVENT_SLUG = TITLE_SLUG;
