/**
 * Keyset paging of the console's lists, newest first: a page is read one row beyond its size,
 * and its `next` is the cursor of its last row (`cursorAfter` of src/contract/query.ts, read back
 * by `pageCursor`), so the millionth row costs what the first does.
 */
import { and, desc, eq, lt, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { PageCursor } from '~/contract/query';

/** The rows after the cursor's row: older, or as old with a smaller key; every row without one. */
export function olderThan(time: Column, key: Column, after: PageCursor | undefined): SQL | undefined {
  if (!after) return undefined;
  const at = sql`${after.at}::timestamptz`;
  return or(lt(time, at), and(eq(time, at), lt(key, after.key)));
}

/** Newest first, and by key among rows of the same time: the order `olderThan` pages. */
export function newestFirst(time: Column, key: Column): SQL[] {
  return [desc(time), desc(key)];
}

/**
 * A page of `size` from `rows`, read with a limit of `size + 1`: its items, and `next` (from the
 * last item's `nextOf`) only when a row beyond them was found.
 */
export function pageOf<R>(
  rows: R[],
  size: number,
  nextOf: (last: R) => string,
): { items: R[]; next: string | null } {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return { items, next: rows.length > size && last !== undefined ? nextOf(last) : null };
}
