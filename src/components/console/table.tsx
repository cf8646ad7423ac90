/**
 * The console's tables: in a box that scrolls sideways inside itself when a wide table meets a
 * narrower screen (the page never does), named for screen readers, with their cell classes. On
 * a phone a DataTable's rows reflow into cards, each cell under its column's heading
 * (console.css), so a column is never squeezed to a letter a line.
 */
import type { CSSProperties, ReactNode } from 'react';
import { DateTime } from './dates';

/**
 * A table that scrolls sideways inside its own box on a narrow screen (the page never does);
 * the box is focusable so the keyboard can scroll it, and named by the table's caption.
 */
export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // Focusable so the keyboard can scroll it sideways (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="mt-4 max-w-full overflow-x-auto rounded-lg border border-ink-200 bg-white"
    >
      {children}
    </div>
  );
}

export const th = 'border-b border-ink-200 bg-ink-50 px-3 py-2 text-left text-sm font-semibold text-ink-700';
export const td = 'border-b border-ink-100 px-3 py-2 align-top text-sm text-ink-900';

/** A column heading of a DataTable: its words, or its words and classes beside `th` (e.g. `text-right`). */
export type ColumnHeading = string | { label: string; className: string };

/** The heading of a column of numbers, set right as its cells are. */
export const numeric = (label: string): ColumnHeading => ({ label, className: 'text-right' });

const labelOf = (column: ColumnHeading) => (typeof column === 'string' ? column : column.label);

/** `text` as a CSS string, for `content`. */
const cssString = (text: string) => `"${text.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;

/**
 * The column headings as custom properties of the table (`--column-1`, `--column-2`...): on a
 * phone each cell shows its column's heading above its value (console.css, `.card-table`).
 */
function columnLabels(columns: readonly ColumnHeading[]): CSSProperties {
  return Object.fromEntries(
    columns.map((column, index) => [`--column-${index + 1}`, cssString(labelOf(column))]),
  ) as CSSProperties;
}

/**
 * A list's table: in its own scrolling box (TableBox), named by a caption for screen readers,
 * one row of column headings, and the rows given as children. On a phone each row is a card.
 */
export function DataTable({
  label,
  caption = label,
  minWidth,
  columns,
  children,
}: {
  /** Names the scrolling box, and the table too unless `caption` says more. */
  label: string;
  caption?: string;
  /**
   * The table's least width, as a class (`min-w-[44rem]`): a narrower screen scrolls the box,
   * until a phone's, where the rows are cards.
   */
  minWidth: string;
  columns: readonly ColumnHeading[];
  children: ReactNode;
}) {
  return (
    <TableBox label={label}>
      <table className={`card-table w-full ${minWidth} border-collapse`} style={columnLabels(columns)}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) =>
              typeof column === 'string' ? (
                <th key={index} scope="col" className={th}>
                  {column}
                </th>
              ) : (
                <th key={index} scope="col" className={`${th} ${column.className}`}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableBox>
  );
}

/** The classes of a row's heading cell (the row's name, e.g. a person or a passkey). */
export const rowTh = `${td} text-left font-medium wrap-anywhere`;

/** A table cell holding a moment in UK time, kept on one line. */
export function DateCell({ iso }: { iso: string | null }) {
  return (
    <td className={`${td} whitespace-nowrap`}>
      <DateTime iso={iso} />
    </td>
  );
}
