/**
 * Loading a resource of the console API: the hook that GETs it (again on demand), and the
 * loading line, or the error with a way to try again, shown until it is there.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { ApiResult } from '~/lib/api-client';
import { consoleCopy } from '~/content/console';
import { getJson } from './http';

export type Resource<T> =
  { state: 'loading' } | { state: 'error'; error: string; status: number } | { state: 'ready'; data: T };

/** GETs `path` of the console API (again whenever it changes, or on `reload`). */
export function useResource<T>(path: string): [Resource<T>, () => void] {
  const [loaded, setLoaded] = useState<{ path: string; resource: Resource<T> }>({
    path,
    resource: { state: 'loading' },
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void getJson<T>(path, controller.signal).then((result: ApiResult<T>) => {
      if (controller.signal.aborted) return;
      setLoaded({
        path,
        resource: result.ok
          ? { state: 'ready', data: result.data }
          : { state: 'error', error: result.error, status: result.status },
      });
    });
    return () => controller.abort();
  }, [path, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  // A reload keeps what is shown until the new answer; another path starts from "loading".
  return [loaded.path === path ? loaded.resource : { state: 'loading' }, reload];
}

/** The loading line, or the error with a way to try again, or the page's content. */
export function Loaded<T>({
  resource,
  reload,
  children,
}: {
  resource: Resource<T>;
  reload: () => void;
  children: (data: T) => ReactNode;
}) {
  if (resource.state === 'ready') return children(resource.data);
  if (resource.state === 'loading') return <p className="mt-6 text-ink-600">{consoleCopy.loading}</p>;
  return (
    <div className="mt-6 rounded-lg border border-danger-700 bg-white p-4">
      <p className="text-danger-700">{resource.error}</p>
      <button type="button" className="btn btn-secondary mt-3" onClick={reload}>
        {consoleCopy.tryAgain}
      </button>
    </div>
  );
}
