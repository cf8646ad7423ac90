/**
 * A list's views as tabs: links that set one value of the address's query (`?status=failed`), the
 * one shown marked as the current page. The empty value is the list without the parameter.
 */
import { Link } from 'react-router';
import { useQuery } from './paths';

/** The value of `?name=` when it is one of `values`; otherwise (absent, or any other) `fallback`. */
export function useQueryChoice<const V extends string>(name: string, values: readonly V[], fallback: V): V {
  const [params] = useQuery();
  return values.find((value) => value === params.get(name)) ?? fallback;
}

export function QueryTabs<V extends string>({
  label,
  name,
  values,
  words,
  current,
  className = 'mt-4',
}: {
  /** The navigation's accessible name. */
  label: string;
  /** The query parameter the tabs set. */
  name: string;
  /** The tabs' values, in order, and their words. */
  values: readonly V[];
  words: Readonly<Record<string, string>>;
  current: string;
  className?: string;
}) {
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex flex-wrap gap-2">
        {values.map((value) => (
          <li key={value}>
            <Link
              to={value ? { search: `?${name}=${value}` } : { search: '' }}
              aria-current={value === current ? 'page' : undefined}
              className={
                'block rounded-full border px-3 py-1.5 text-sm font-medium ' +
                (value === current
                  ? 'border-ink-900 bg-ink-900 text-white'
                  : 'border-ink-300 bg-white text-ink-800 hover:bg-ink-100')
              }
            >
              {words[value]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
