/**
 * The checks and error answers every JSON endpoint of the API shares: same origin only, JSON
 * only, refusals a step throws, and errors turned into `{error}` with no internals.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { databaseOutage, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable';
import { errorCode, errorKind } from '../log-safe';

export const SERVER_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
/** A database out of reach (decision 031): nothing was stored, and trying again soon will do. */
export const UNAVAILABLE_MESSAGE =
  'The database cannot be reached just now. Please try again in a few seconds.';

export function send(reply: FastifyReply, status: number, payload: object) {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(payload);
}

/** The body of every refusal: a sentence a person can read, and whatever else the page needs. */
export type RefusalBody = { error: string } & Record<string, unknown>;

/**
 * A request refused with a 4xx answer meant for the person (a field to correct, a limit
 * reached, a link used already). A step of a route throws it and `apiErrorHandler` answers it,
 * so a route reads as its list of steps.
 */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: RefusalBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body.error);
  }
}

/** The development server's origin (`npm run dev`), allowed in development only. */
export const DEV_SERVER_ORIGIN = 'http://localhost:5173';

/**
 * Refuses a request another site's page made (CSRF): the browser saying cross-site, or an
 * Origin other than PUBLIC_URL's (and, in development only, the dev server's). The request's
 * own Host header is never trusted for this: a page on another name that resolves to this
 * server (DNS rebinding) sends an Origin and a Host that match each other.
 */
export function sameOriginOnly(config: Config) {
  const allowed = new Set([new URL(config.publicUrl).origin]);
  if (config.env === 'development') allowed.add(DEV_SERVER_ORIGIN);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (
      request.headers['sec-fetch-site'] === 'cross-site' ||
      (origin !== undefined && !allowed.has(origin))
    ) {
      return send(reply, 403, { error: 'Requests from other sites are not accepted.' });
    }
  };
}

/** Answers 415 before the body is read when it is not declared as JSON (text/plain included). */
export async function jsonOnly(request: FastifyRequest, reply: FastifyReply) {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !/^application\/json\s*(;|$)/i.test(type)) {
    return send(reply, 415, { error: 'Please send the form as JSON (Content-Type: application/json).' });
  }
}

/**
 * The one error handler, of the API and the app alike: a `Refusal` is answered as it says, the
 * framework's 4xx errors get a clear JSON sentence, and a 5xx hides every internal detail.
 * (Page requests that match nothing are not errors: the app's not-found handler answers them
 * with the site's HTML 404.)
 */
export function apiErrorHandler(
  error: { statusCode?: number; code?: unknown; name?: string; message?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof Refusal) {
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return send(reply, error.status, error.body);
  }
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 413) return send(reply, 413, { error: 'The form is too large to send. Please shorten it.' });
  if (status === 415)
    return send(reply, 415, { error: 'Please send the form as JSON (Content-Type: application/json).' });
  if (status === 400)
    return send(reply, 400, { error: 'The request could not be read. Please send valid JSON.' });
  if (status < 500) return send(reply, status, { error: 'The request could not be accepted.' });
  if (isDatabaseUnavailable(error)) {
    databaseOutage.refused(request.log, error.code);
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return send(reply, 503, { error: UNAVAILABLE_MESSAGE });
  }
  // The error itself may quote submitted values (a constraint's detail): log its kind only.
  request.log.error({ code: errorCode(error), name: errorKind(error) }, 'request failed');
  return send(reply, 500, { error: SERVER_ERROR_MESSAGE });
}
