/**
 * The owner's session in the server tests, and calls to the API as the site's pages and the
 * console make them.
 *
 *   const cookie = await signInOwner(t.app);          // or signInOwner(t.app, 'partner@...')
 *   await apiCall(t.app, 'GET', '/api/owner/overview', { cookie });
 *   await apiCall(t.app, 'POST', '/api/events/registration', { body: { token } }); // no session
 *   const owner = asOwner(t.app, cookie);              // the same calls, that session bound
 *   await owner('POST', '/api/owner/events', { body: { ... } });
 *
 * Every call comes from the site's own origin (PUBLIC_URL: the console refuses any other), sends
 * a POST's body as JSON, and comes from its own client address (unless `remoteAddress` names one),
 * so that no test trips a rate limit by accident.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { signInLink } from '../../src/server/console/sign-in';
import { nextAddress, OWNER } from './forms-support';

export type Method = 'GET' | 'POST';
export type CallOptions = {
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client's address: a new one per call unless one is given. */
  remoteAddress?: string;
};
/** A call made with one session's cookie: `asOwner`'s answer. */
export type OwnerCall = (
  method: Method,
  url: string,
  options?: Omit<CallOptions, 'cookie'>,
) => Promise<LightMyRequestResponse>;

/** A call to the app's API from the site's origin, with the session `cookie` when one is given. */
export function apiCall(
  app: FastifyInstance,
  method: Method,
  url: string,
  { cookie, body, headers = {}, remoteAddress = nextAddress() }: CallOptions = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    remoteAddress,
    headers: {
      origin: new URL(app.config.publicUrl).origin,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    payload: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
}

/**
 * A fresh session for `email` (the owner unless another owner address is named), signed in
 * with a link as `npm run owner:link` makes it: its cookie, `name=value`.
 */
export async function signInOwner(app: FastifyInstance, email = OWNER): Promise<string> {
  const url = await signInLink(app.config, app.services.links, email);
  const res = await apiCall(app, 'POST', '/api/owner/sign-in/link', {
    body: { token: new URL(url).searchParams.get('token') },
  });
  expect(res.statusCode).toBe(200);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

/** `apiCall` with the session `cookie` on every call. */
export function asOwner(app: FastifyInstance, cookie: string): OwnerCall {
  return (method, url, options = {}) => apiCall(app, method, url, { ...options, cookie });
}
