/**
 * The console's addresses. It matches its own pages from the path under /owner and reads its
 * query with URLSearchParams: React Router's descendant <Routes>, useParams and useSearchParams
 * would add their code to the router chunk that every public page loads.
 */
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CONSOLE_PATH } from '~/content/routes';

/** The address of a console page: `page('inbox')` is `/owner/inbox`. */
export const page = (path: string) => (path ? `${CONSOLE_PATH}/${path}` : CONSOLE_PATH);

/** The path under /owner without its slashes: `/owner/inbox/` is `inbox`, `/owner` is ``. */
export function useSubPath(): string {
  const { pathname } = useLocation();
  return pathname.startsWith(CONSOLE_PATH)
    ? pathname.slice(CONSOLE_PATH.length).replace(/^\/+|\/+$/g, '')
    : '';
}

/** The address's query, and a way to replace it (a navigation, so Back returns to the last one). */
export function useQuery(): [URLSearchParams, (next: URLSearchParams) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = (next: URLSearchParams) => {
    const query = next.toString();
    void navigate({ search: query ? `?${query}` : '' });
  };
  return [params, setParams];
}
