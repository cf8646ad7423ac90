/**
 * The minimum fill time, measured by the server. When a visitor first uses a form (first
 * focus), the form asks `POST /api/form-token` for a signed token naming the form type and the
 * time (`st`, ms); the form sends it back with the submission, and the server compares that
 * time with its own clock. A script can no longer claim to have taken its time: a token it
 * fetches and uses at once is too young (stored as spam, answered as a success), and one it
 * makes itself does not verify (400).
 *
 * Tokens live 30 minutes, so a leaked one is of little use; a form left open longer renews its
 * token before sending, which keeps the original start time (the server signed it), for up to
 * a day after the start.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FORM_TOKEN_FIELD, type FormTokenAnswer } from '~/lib/spam-traps';
import { FORM_TOKEN_API } from '~/lib/form-token';
import { jsonOnly, sameOriginOnly, send } from '../../kit/http/request-checks';
import type { Config } from '../../kit/config';
import type { SignedTokens } from '../../kit/http/signed-tokens';

const PURPOSE = 'form-start';
export const FORM_TOKEN_TTL_SECONDS = 30 * 60;
/** A form may be renewed (and sent) up to a day after it was first used. */
const MAX_FORM_AGE_MS = 24 * 3600 * 1000;
/** Clocks and slow networks: a token that expired moments ago still counts. */
const EXPIRY_GRACE_MS = 5 * 60 * 1000;

export const FORM_TOKEN_REFUSED = 'This form could not be checked. Please reload the page and send it again.';

export type FormStart = { ok: true; startedAt: number } | { ok: false };

export function formStartTokens(tokens: SignedTokens, now: () => number = Date.now) {
  function issue(formType: string, startedAt: number = now()): Promise<string> {
    return tokens.sign(PURPOSE, formType, {
      expiresInSeconds: FORM_TOKEN_TTL_SECONDS,
      claims: { st: startedAt },
      now: new Date(now()),
    });
  }

  return {
    issue,

    /** A new token for the same start, from one that expired (or is about to). */
    async renew(formType: string, old: unknown): Promise<string | undefined> {
      const result = await tokens.verify(PURPOSE, old, { now: new Date(now()) });
      if (!result.ok && result.reason === 'invalid') return undefined;
      if (result.subject !== formType) return undefined;
      const st = result.claims.st;
      if (typeof st !== 'number' || now() - st > MAX_FORM_AGE_MS || st > now()) return undefined;
      return issue(formType, st);
    },

    /** When the visitor started this form, if the body carries a valid token for it. */
    async check(formType: string, body: Record<string, unknown>): Promise<FormStart> {
      const result = await tokens.verify(PURPOSE, body[FORM_TOKEN_FIELD], {
        now: new Date(now() - EXPIRY_GRACE_MS),
      });
      if (!result.ok || result.subject !== formType) return { ok: false };
      const st = result.claims.st;
      return typeof st === 'number' && Number.isFinite(st) ? { ok: true, startedAt: st } : { ok: false };
    },
  };
}

export type FormStartTokens = ReturnType<typeof formStartTokens>;

/** `POST /api/form-token {formType, renew?}` -> `{token, expiresInSeconds}`, for known form types. */
export function formTokenRoute(
  app: FastifyInstance,
  config: Config,
  starts: FormStartTokens,
  formTypes: ReadonlySet<string>,
  formStarted?: (request: FastifyRequest, formType: string) => Promise<void>,
) {
  app.post(FORM_TOKEN_API, { onRequest: [sameOriginOnly(config), jsonOnly] }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const formType = typeof body.formType === 'string' ? body.formType : '';
    if (!formTypes.has(formType)) {
      return send(reply, 400, { error: 'This form is not recognised.' });
    }
    reply.header('cache-control', 'no-store');
    const token =
      body.renew === undefined ? await starts.issue(formType) : await starts.renew(formType, body.renew);
    if (!token) return send(reply, 400, { error: FORM_TOKEN_REFUSED });
    // A first token (not a renewal) is a visitor starting the form: a step of its funnel.
    if (body.renew === undefined) await formStarted?.(request, formType);
    return send(reply, 200, { token, expiresInSeconds: FORM_TOKEN_TTL_SECONDS } satisfies FormTokenAnswer);
  });
}
