/**
 * Lists: the status line that says how many are shown (read out when it changes), the pages of
 * a long list ("Older", "Newest"), and a list page's body made of both.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { consoleCopy } from '~/content/console';
import { useQuery } from './paths';
import { Loaded, type Resource } from './data';

/** What a list's status line says: `empty` when there is nothing, else `count`'s words (if any). */
export type ListWords = { empty?: string; count?: (n: number, more: boolean) => string };

/** The list's status line: how many are shown (or that it is loading), read out when it changes. */
export function ListStatus<T extends { items: unknown[]; next?: string | null }>({
  resource,
  empty,
  count,
}: ListWords & { resource: Resource<T> }) {
  let text = '';
  if (resource.state === 'ready') {
    const n = resource.data.items.length;
    text = n === 0 && empty !== undefined ? empty : (count?.(n, !!resource.data.next) ?? '');
  }
  return (
    <p role="status" className="mt-4 text-sm text-ink-700">
      {text}
    </p>
  );
}

/** The words of a Pager's links. */
export type PagerLabels = { older: string; newest: string };

/**
 * "Older" (the next page by the cursor) and "Newest" (back to the first page), as links that
 * change the `after` of the address's query.
 */
export function Pager({ next, labels }: { next: string | null; labels: PagerLabels }) {
  const [params] = useQuery();
  const first = new URLSearchParams(params);
  first.delete('after');
  const older = new URLSearchParams(params);
  if (next) older.set('after', next);
  if (!next && !params.get('after')) return null;
  return (
    <nav aria-label={consoleCopy.pagesLabel} className="mt-4 flex flex-wrap gap-3">
      {params.get('after') ? (
        <Link to={{ search: first.toString() }} className="btn btn-secondary">
          {labels.newest}
        </Link>
      ) : null}
      {next ? (
        <Link to={{ search: older.toString() }} className="btn btn-secondary">
          {labels.older}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * A list page's body: its status line (ListStatus), then, once loaded, the items as `children`
 * draws them (nothing when there are none) and, for a list in pages, the Pager.
 */
export function LoadedList<T extends { items: unknown[]; next?: string | null }>({
  resource,
  reload,
  empty,
  count,
  pager,
  children,
}: ListWords & {
  resource: Resource<T>;
  reload: () => void;
  /** A list in pages: the Pager's words. */
  pager?: PagerLabels;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <ListStatus resource={resource} empty={empty} count={count} />
      <Loaded resource={resource} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              {children(data)}
              {pager ? <Pager next={data.next ?? null} labels={pager} /> : null}
            </>
          )
        }
      </Loaded>
    </>
  );
}
