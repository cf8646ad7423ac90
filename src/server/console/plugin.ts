/**
 * The owner's console API, `/api/owner/...` (contract: src/contract). Every request is
 * same-origin only (Origin checked as the forms do); every state change is a JSON POST; every
 * answer is `no-store` (the app's API headers). Sign-in routes are open; everything else needs
 * a live session and answers 401 without one. Every owner action is written to the audit log.
 * Logs carry record ids and counts, never an address or a visitor's words.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { OWNER_API } from '~/contract/console';
import type { Config } from '../kit/config';
import type { Db } from '../kit/db/client';
import type { FormHandler } from '../kit/http/form-handler';
import type { Links } from '../kit/http/links';
import { jsonOnly, Refusal, sameOriginOnly, send } from '../kit/http/request-checks';
import { enqueueEmails } from '../kit/mail/outbox';
import { audit } from '../kit/audit';
import { type RetentionRunner } from './retention';
import { ownerRoutes, type ConsoleArea } from '../kit/http/owner-routes';
import { legacyRoutes } from './legacy-routes';
import { authenticate, authenticationOptions } from './passkeys';
import { currentSession, startSession } from './sessions';
import {
  maySignIn,
  SIGN_IN_PURPOSE,
  SIGN_IN_SENT,
  signInEmail,
  signInLink,
  verifySignInToken,
  LINK_USED,
} from './sign-in';

/** What the console needs of the rate limiter the forms use (memory, or Redis across instances). */
export type ConsoleLimiter = {
  hit(key: string, max: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
};

export type ConsoleOptions = {
  config: Config;
  db: Db;
  links: Links;
  limiter: ConsoleLimiter;
  handlers: Readonly<Record<string, FormHandler>>;
  /** The client's rate-limit key (a keyed hash of its address or IPv6 /64). */
  clientKey(request: FastifyRequest): string;
  wakeOutbox(): void;
  /** The time; tests move it. */
  clock?: () => Date;
  /** The process's one retention run at a time (shared with the daily job). */
  retentionRuns: RetentionRunner;
  /** The console's areas, registered inside the session scope (the composition root's list). */
  areas: readonly ConsoleArea[];
};

/** Sign-in requests: per client, and per owner address whoever asks (no flood of an owner's inbox). */
export const SIGN_IN_LIMITS = {
  perClient: { max: 5, windowMs: 15 * 60_000 },
  perAddress: { max: 5, windowMs: 60 * 60_000 },
  /** Link and passkey answers: guesses cost a token each, but a loop is still cut short. */
  attempts: { max: 20, windowMs: 15 * 60_000 },
};

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Body)
    : {};

export const UNAUTHORISED = 'Please sign in to the console.';

export async function consoleApi(app: FastifyInstance, options: ConsoleOptions) {
  const { config, db, links, limiter, wakeOutbox } = options;
  const clock = options.clock ?? (() => new Date());
  const sameOrigin = sameOriginOnly(config);

  async function limit(
    request: FastifyRequest,
    name: string,
    rule: { max: number; windowMs: number },
    key?: string,
  ) {
    const result = await limiter.hit(
      `owner-${name}:${key ?? options.clientKey(request)}`,
      rule.max,
      rule.windowMs,
    );
    if (!result.allowed) {
      const retryAfter = String(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
      throw new Refusal(429, { error: TOO_MANY_ATTEMPTS }, { 'retry-after': retryAfter });
    }
    return result.allowed;
  }

  // Every console request: same origin (a GET too: nothing of the console is for another site).
  app.addHook('onRequest', sameOrigin);

  // --- Signing in (no session needed) -----------------------------------------------------------
  await app.register(async (open) => {
    open.addHook('onRequest', jsonOnly);

    open.post(`${OWNER_API}/sign-in`, async (request, reply) => {
      await limit(request, 'sign-in', SIGN_IN_LIMITS.perClient);
      const email = bodyOf(request).email;
      if (
        typeof email !== 'string' ||
        email.length > 254 ||
        !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())
      ) {
        throw new Refusal(400, {
          error: 'Please enter a valid email address.',
          fieldErrors: { email: 'Please enter a valid email address.' },
        });
      }
      const address = email.trim().toLowerCase();
      if (maySignIn(config, address)) {
        // Past the per-address limit nothing more is sent, and the answer stays the same.
        const { allowed } = await limiter.hit(
          `owner-sign-in-to:${links.hashAddress(address)}`,
          SIGN_IN_LIMITS.perAddress.max,
          SIGN_IN_LIMITS.perAddress.windowMs,
        );
        if (allowed) {
          const url = await signInLink(config, links, address, clock());
          await db.transaction(async (tx) => {
            await enqueueEmails(tx, null, [signInEmail(address, url)]);
            await audit(tx, address, 'sign-in.link-sent');
          });
          wakeOutbox();
        }
      }
      return send(reply, 202, { message: SIGN_IN_SENT });
    });

    open.post(`${OWNER_API}/sign-in/link`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      const now = clock();
      const { email, verified } = await verifySignInToken(config, links, bodyOf(request).token, now);
      const session = await db.transaction(async (tx) => {
        if (!(await links.tokens.consume(tx, SIGN_IN_PURPOSE, verified)))
          throw new Refusal(409, { error: LINK_USED });
        await audit(tx, email, 'sign-in.link');
        return startSession(tx, config, reply, email, 'link', now);
      });
      request.log.info({ session: session.id.slice(0, 8) }, 'owner signed in');
      return send(reply, 200, { email });
    });

    open.post(`${OWNER_API}/passkeys/authenticate/options`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      return send(reply, 200, await authenticationOptions(db, config, clock()));
    });

    open.post(`${OWNER_API}/passkeys/authenticate`, async (request, reply) => {
      await limit(request, 'attempt', SIGN_IN_LIMITS.attempts);
      const now = clock();
      const email = await authenticate(db, config, bodyOf(request), now);
      await audit(db, email, 'sign-in.passkey');
      await startSession(db, config, reply, email, 'passkey', now);
      return send(reply, 200, { email });
    });
  });

  // --- Everything else: a live session ---------------------------------------------------------
  await app.register(async (owned) => {
    owned.addHook('onRequest', async (request, reply) => {
      if (request.method === 'POST') {
        const refused = await jsonOnly(request, reply);
        if (reply.sent) return refused;
      }
      const session = await currentSession(db, config, request, clock());
      if (!session) return send(reply, 401, { error: UNAUTHORISED });
      request.owner = session;
    });
    const services = { config, db, links, clock, wakeOutbox };
    const routes = ownerRoutes(owned);
    for (const area of options.areas) area(routes, services);
    await legacyRoutes(owned, options);
  });
}
