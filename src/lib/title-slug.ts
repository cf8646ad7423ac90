/**
 * A page address made from a title and a record's id: the title in lower-case words joined by
 * hyphens (at most 80 characters), then the first eight characters of the id, so two records of
 * the same title never share one. Made once, when the page is first made, and kept. A masterclass's
 * page (`/masterclasses/<slug>`, the same rule as migration 0024) and a newsletter issue's on the
 * archive (`/newsletter/<slug>`) are named so.
 */
export function titleSlug(title: string, id: string, fallback: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return `${words || fallback}-${id.slice(0, 8)}`;
}

/** A slug as `titleSlug` makes them (what a request's path is checked against before any query). */
export const TITLE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
