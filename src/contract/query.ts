/**
 * The console's query strings (`?status=`, `?after=`) as schemas: a filter chosen from a list, and
 * keyset paging. A page's `next` is the cursor of its last row, base64url of `<its time as
 * PostgreSQL writes a timestamptz as text>|<its key>`, and the next page starts after that row. A
 * cursor is read back only when PostgreSQL can read its time (a real day, an offset it accepts)
 * and its key has the shape of the list's key, so a made-up one is a 400, never an error of the
 * database.
 */
import { z } from '~/lib/zod';

export type PageCursor = { at: string; key: string };

export const PAGE_REFUSED = 'The page is not valid.';

const CURSOR_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-](0\d|1[0-5])(:?[0-5]\d){0,2})?$/;

/** A day of the calendar from year 1 on (PostgreSQL's proleptic Gregorian one). */
export function isDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isCursorTime(value: string): boolean {
  const parts = CURSOR_TIME.exec(value);
  return Boolean(parts) && isDay(Number(parts![1]), Number(parts![2]), Number(parts![3]));
}

/** The text a cursor carries (ASCII: a time and a key), or undefined when it is not base64url. */
function decode(value: string): string | undefined {
  try {
    return atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
}

/** The cursor after a row: its time as text (to the microsecond) and its key. */
export function cursorAfter(at: string, key: string): string {
  return btoa(`${at}|${key}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * `?after=`: the cursor of the previous page's last row, its key matching `key`. Absent, empty or
 * given twice (an array): the first page. Anything else is refused with `refused`.
 */
export function pageCursor(key: RegExp = /./, refused = PAGE_REFUSED) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value !== '' ? value : undefined),
    z
      .string()
      .transform((value, ctx): PageCursor => {
        const [at, rowKey] = (decode(value) ?? '').split('|');
        if (!at || !rowKey || !key.test(rowKey) || !isCursorTime(at)) {
          ctx.addIssue({ code: 'custom', message: refused });
          return z.NEVER;
        }
        return { at, key: rowKey };
      })
      .optional(),
  );
}

/**
 * `?name=` choosing one of `values`; absent or empty: none. Anything else (a value given twice
 * included) is refused with `refused`.
 */
export function choiceOf<const T extends readonly [string, ...string[]]>(values: T, refused: string) {
  return z
    .enum(['', ...values], { error: refused })
    .optional()
    .transform((value) => (value || undefined) as T[number] | undefined);
}
