/**
 * The console's requests: GETs of its API and state-changing POSTs (JSON bodies, through the
 * site's one `postJson`). Neither throws. A 401 from any of them means the session is gone: the
 * console is told (`onSessionEnded`) and shows the sign-in page.
 */
import { postJson, type ApiResult } from '~/lib/api-client';
import { consoleCopy } from '~/content/console';
import { OWNER_API } from '~/contract/console';

let sessionEnded: () => void = () => {};

/** Registers what the console does when a request finds the session ended. */
export function onSessionEnded(handler: () => void): void {
  sessionEnded = handler;
}

function checked<T>(result: ApiResult<T>, path: string): ApiResult<T> {
  // The session's own check and the sign-in requests answer 401 as a plain answer, not an ending.
  if (!result.ok && result.status === 401 && !path.startsWith('/session') && !path.startsWith('/sign-in'))
    sessionEnded();
  return result;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(`${OWNER_API}${path}`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch {
    // An aborted request is answered too; its caller, which aborted it, ignores the answer.
    return { ok: false, status: 0, error: consoleCopy.networkError };
  }
  let payload: unknown = undefined;
  try {
    payload = await response.json();
  } catch {
    // An empty or non-JSON answer: the status says enough.
  }
  if (!response.ok) {
    const error =
      typeof payload === 'object' &&
      payload !== null &&
      typeof (payload as { error?: unknown }).error === 'string'
        ? (payload as { error: string }).error
        : `${consoleCopy.loadError} (${response.status})`;
    return checked({ ok: false, status: response.status, error }, path);
  }
  return { ok: true, data: payload as T };
}

/** POST `body` as JSON to the console API (`path` is under /api/owner). */
export async function post<T = { ok: true }>(path: string, body: unknown = {}): Promise<ApiResult<T>> {
  return checked(await postJson<T>(`${OWNER_API}${path}`, body), path);
}

/** A path with its query: empty values are left out. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
