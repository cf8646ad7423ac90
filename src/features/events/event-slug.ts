/**
 * A masterclass's page address under /masterclasses/ (decision 047): its title in lower-case words
 * joined by hyphens (at most 80 characters), then the first eight characters of its id, so two
 * events of the same title never share one. Made once, when the event is created, and kept (the
 * same rule as migration 0024 applied to the events before it).
 */
export function eventSlug(title: string, id: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return `${words || 'masterclass'}-${id.slice(0, 8)}`;
}

/** A slug as `eventSlug` makes them (what a request's path is checked against before any query). */
export const EVENT_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
