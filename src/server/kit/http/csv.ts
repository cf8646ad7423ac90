/**
 * CSV downloads, written by `csv-stringify`: RFC 4180 (CRLF rows, quotes doubled, quoted where a
 * cell needs it, and every cell holding a line feed or a carriage return quoted, since a bare LF
 * or CR ends a row for a spreadsheet that reads it unquoted), UTF-8 with a byte-order mark so
 * Excel reads it as UTF-8. No line of the file starts with a formula (CSV injection, decision
 * 033): a cell that starts with =, +, -, @, a tab or a carriage return is prefixed with ', and so
 * is every line inside a cell, after each line break, for a program that splits a quoted cell's
 * lines into rows. Rows arrive in batches and are streamed with back pressure: a
 * million rows never sit in memory. Rows are written a group of GROUP at a time, each group one
 * piece of text (the library's synchronous form): a stream of one small chunk per row spent more
 * on the chunks than on the rows (a million socket writes for a million rows), and a whole batch
 * of 500 rows at once kept some 10,000 cells alive across the young generation's collections,
 * which the server keeps small (decision 015): on a 200,000-row Postgres seed the submissions
 * export ran at about 42,000 rows/s with 500-row pieces and twice that with 25-row ones, the
 * difference almost all time spent copying live cells in minor collections.
 */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import { downloadCopy } from '~/content/console';
import { errorCode } from '../log-safe';
import type { GiveWay } from './give-way';

/** Rows turned into cells and CSV text at a time (see above). */
export const GROUP = 25;
/** Text handed to the socket at a time: a write per group was a fifth of an export's time. */
const CHUNK_CHARS = 64 * 1024;
/**
 * Line breaks as any reader may split lines: CR and LF, and the vertical tab, form feed, NEL and
 * the Unicode line and paragraph separators, which line-splitting tools treat as breaks too.
 */
const BREAKS = '\\r\\n\\v\\f\\u0085\\u2028\\u2029';
/** A formula character, after any blanks an importer that trims would drop. */
const FORMULA = '[ \\u00a0]*[=+\\-@\\t\\r]';
const FORMULA_START = new RegExp(`^${FORMULA}`);
/** A position after a line break, before a formula character: where a ' goes inside a cell. */
const FORMULA_AFTER_BREAK = new RegExp(`(?<=[${BREAKS}])(?=${FORMULA})`, 'g');
const LINE_BREAK = new RegExp(`[${BREAKS}]`);

/** The type of every CSV download. */
export const CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * A cell as text, neutralised where a spreadsheet would read a formula: at its start, and at the
 * start of each of its lines.
 */
export function safeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  const lines = LINE_BREAK.test(text) ? text.replace(FORMULA_AFTER_BREAK, "'") : text;
  return FORMULA_START.test(lines) ? `'${lines}` : lines;
}

/** CRLF rows; a cell with a line break quoted, whatever else it holds. */
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: LINE_BREAK } as const;

/**
 * The last row of a file whose rows stopped coming (decision 033), so that a file kept from a cut
 * download says so when it is opened; the response is also cut, so no client takes it for whole.
 */
export const CSV_CUT_ROW = downloadCopy.cutRow;

/**
 * An export whose rows stopped coming: its cause's code (SQLSTATE) and how many rows went, never
 * the cause's message, which quotes the SQL's parameters.
 */
export class ExportFailed extends Error {
  override readonly name = 'ExportFailed';
  constructor(
    readonly code: string | undefined,
    readonly rows: number,
  ) {
    super('The export stopped before its last row.');
  }
}

/**
 * A CSV stream of `batches` of rows, each an array of cells in the order of `headers`: the
 * byte-order mark and the header first. The rows are neutralised in place (safeCell). It is read
 * as the response is written (Readable.from: the next piece is made only when the socket has
 * taken the last), and each piece waits for the event loop's next turn, so requests that arrive
 * meanwhile are answered between pieces, not after the export. With `giveWay` (give-way.ts), after
 * each group of rows it waits while a visitor's request is in flight, having first handed on what
 * it had made: the next rows (and the next batch the rows ask the database for) wait too. If the
 * rows stop (a database error), the file ends with CSV_CUT_ROW and the stream fails with
 * ExportFailed: the response is then cut, not ended.
 */
export function csvStream(
  headers: readonly string[],
  batches: AsyncIterable<unknown[][]>,
  giveWay?: Pick<GiveWay, 'turn'>,
): Readable {
  return Readable.from(
    (async function* () {
      yield stringify([headers], { ...CSV_OPTIONS, bom: true });
      let pieces: string[] = [];
      let size = 0;
      let rowsWritten = 0;
      try {
        for await (const batch of batches) {
          for (let start = 0; start < batch.length; start += GROUP) {
            const rows = batch.length <= GROUP ? batch : batch.slice(start, start + GROUP);
            for (const row of rows) for (let i = 0; i < row.length; i += 1) row[i] = safeCell(row[i]);
            const text = stringify(rows, CSV_OPTIONS);
            pieces.push(text);
            size += text.length;
            rowsWritten += rows.length;
            const wait = giveWay?.turn();
            if (wait) {
              yield pieces.join('');
              pieces = [];
              size = 0;
              await wait;
            } else if (size >= CHUNK_CHARS) {
              yield pieces.join('');
              pieces = [];
              size = 0;
              await nextTurn();
            }
          }
        }
      } catch (error) {
        // The rows made so far, then the mark; the cause goes no further than its code.
        yield pieces.join('') + stringify([[CSV_CUT_ROW]], CSV_OPTIONS);
        throw new ExportFailed(errorCode(error), rowsWritten);
      }
      if (pieces.length > 0) yield pieces.join('');
    })(),
    { objectMode: false },
  );
}
