/**
 * Passwordless sign-in by e-mail (decision 020). The owner types an address; if it may sign in
 * (OWNER_EMAIL or OWNER_EMAILS), a single-use link valid 15 minutes goes out through the outbox,
 * and ends every link e-mailed to that address before it that is still unused (decision 031).
 * Every address gets the same answer, so the page tells nobody who the owner is. The link's
 * token is a signed token (src/server/kit/http/signed-tokens.ts) whose subject is a keyed hash
 * of the address: a link that leaks through a proxy log or a browser history names nobody.
 * `npm run owner:link` makes the same link on the server's machine. The sign-in routes
 * (`registerSignIn`: a link asked for and used, a passkey's challenge and answer) need no session;
 * each is rate-limited per client.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { site } from '~/content/site';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { LINK_INVALID, signInRoutes } from '~/contract/security';
import { audit } from '../kit/audit';
import type { Config } from '../kit/config';
import type { ConsoleServices, OpenRoutes, RouteOptions } from '../kit/http/owner-routes';
import type { Links } from '../kit/http/links';
import { Refusal } from '../kit/http/request-checks';
import { tokenIdOf } from '../kit/http/signed-tokens';
import { enqueueEmails, type OutgoingEmail } from '../kit/mail/outbox';
import { authenticate, authenticationOptions } from './passkeys';
import { startSession } from './sessions';
import { ownerSignInLinks } from './tables';

export const SIGN_IN_PURPOSE = 'owner-sign-in';
export const SIGN_IN_MINUTES = 15;
export const SIGN_IN_PATH = '/owner/sign-in';

export const SIGN_IN_SENT =
  'If that address belongs to the owner, a sign-in link is on its way. It works once, within 15 minutes.';
export const LINK_EXPIRED = 'This sign-in link has expired. Ask for a new one.';
export const LINK_USED = 'This sign-in link has been used already. Ask for a new one.';
export const LINK_SUPERSEDED =
  'A newer sign-in link has been sent to this address since this one. Use the newest, or ask for a new one.';
/** The claim of a link that was e-mailed (one made by `npm run owner:link` has none). */
const MAILED = 'm';

/** The keyed hash a sign-in token names its owner by. */
export function ownerKey(config: Pick<Config, 'appSecret'>, email: string): string {
  return createHmac('sha256', config.appSecret).update(`owner:${email.toLowerCase()}`).digest('base64url');
}

/** The console address of an owner key, if it still may sign in. */
export function ownerOfKey(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  key: string,
): string | undefined {
  return config.ownerEmails.find((email) => ownerKey(config, email) === key);
}

export function maySignIn(config: Pick<Config, 'ownerEmails'>, email: string): boolean {
  return config.ownerEmails.includes(email.trim().toLowerCase());
}

/** A fresh single-use sign-in link for `email` (which must be an owner's). */
export async function signInLink(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  links: Links,
  email: string,
  now = new Date(),
): Promise<string> {
  return (await newSignInLink(config, links, email, now)).url;
}

/** A sign-in link and its token's id; `mailed` marks it as one an e-mail carries. */
async function newSignInLink(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  links: Links,
  email: string,
  now: Date,
  mailed = false,
) {
  if (!maySignIn(config, email)) throw new Error('not an owner address');
  const token = await links.tokens.sign(SIGN_IN_PURPOSE, ownerKey(config, email), {
    expiresInSeconds: SIGN_IN_MINUTES * 60,
    singleUse: true,
    now,
    ...(mailed ? { claims: { [MAILED]: 1 } } : {}),
  });
  return {
    url: links.absolute(`${SIGN_IN_PATH}?token=${encodeURIComponent(token)}`),
    tokenId: tokenIdOf(token)!,
  };
}

export function signInEmail(to: string, url: string): OutgoingEmail {
  return {
    kind: 'owner.sign-in',
    to,
    subject: `Your sign-in link for ${site.brand}`,
    content: {
      preheader: `It works once, within ${SIGN_IN_MINUTES} minutes.`,
      heading: 'Sign in to the console',
      blocks: [
        { type: 'paragraph', text: 'Someone asked to sign in to the owner’s console with this address.' },
        { type: 'button', label: 'Sign in', url },
        {
          type: 'small',
          text: `The link works once, within ${SIGN_IN_MINUTES} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without it.`,
        },
      ],
    },
  };
}

/** The owner a sign-in token names, or the refusal for it (before it is consumed). */
export async function verifySignInToken(
  config: Pick<Config, 'appSecret' | 'ownerEmails'>,
  links: Links,
  token: string,
  now = new Date(),
) {
  const result = await links.tokens.verify(SIGN_IN_PURPOSE, token, { now });
  if (!result.ok) {
    if (result.reason === 'expired') throw new Refusal(410, { error: LINK_EXPIRED });
    throw new Refusal(400, { error: LINK_INVALID });
  }
  const email = ownerOfKey(config, result.subject);
  if (!email || !result.tokenId) throw new Refusal(400, { error: LINK_INVALID });
  return { email, verified: result };
}

/** What the console needs of the rate limiter the forms use (memory, or Redis across instances). */
export type ConsoleLimiter = {
  hit(key: string, max: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
};

/** Sign-in requests: per client, and per owner address whoever asks (no flood of an owner's inbox). */
export const SIGN_IN_LIMITS = {
  perClient: { max: 5, windowMs: 15 * 60_000 },
  perAddress: { max: 5, windowMs: 60 * 60_000 },
  /** Link and passkey answers: guesses cost a token each, but a loop is still cut short. */
  attempts: { max: 20, windowMs: 15 * 60_000 },
};

export type SignInDeps = ConsoleServices & {
  limiter: ConsoleLimiter;
  /** The client's rate-limit key (a keyed hash of its address or IPv6 /64). */
  clientKey(request: FastifyRequest): string;
};

/** Runs `work` once the answer has been handed to the connection (or the client has gone). */
function afterAnswer(reply: FastifyReply, work: () => Promise<void>): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void work();
  };
  reply.raw.once('finish', start);
  reply.raw.once('close', start);
}

/** The sign-in routes, which need no session: an e-mailed link, or a passkey. */
export function registerSignIn(routes: OpenRoutes, deps: SignInDeps): void {
  const { config, db, links, limiter, clock, wakeOutbox } = deps;

  /**
   * A route's rate limit: each request of the client counts under `name`, before its body is read
   * (a malformed one counts too), and is refused with 429 past `rule`.
   */
  const rateLimit = (name: string, rule: { max: number; windowMs: number }): RouteOptions => ({
    async before(request: FastifyRequest) {
      const result = await limiter.hit(`owner-${name}:${deps.clientKey(request)}`, rule.max, rule.windowMs);
      if (!result.allowed) {
        const retryAfter = String(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
        throw new Refusal(429, { error: TOO_MANY_ATTEMPTS }, { 'retry-after': retryAfter });
      }
    },
  });
  const attempts = rateLimit('attempt', SIGN_IN_LIMITS.attempts);

  /** Queues an owner's sign-in link, unless the address has had its hour's links already. */
  async function sendSignInLink(email: string): Promise<void> {
    const { allowed } = await limiter.hit(
      `owner-sign-in-to:${links.hashAddress(email)}`,
      SIGN_IN_LIMITS.perAddress.max,
      SIGN_IN_LIMITS.perAddress.windowMs,
    );
    if (!allowed) return;
    const now = clock();
    const { url, tokenId } = await newSignInLink(config, links, email, now, true);
    await db.transaction(async (tx) => {
      // The newest link e-mailed to the address: every older one still unused ends with this.
      await tx
        .insert(ownerSignInLinks)
        .values({ ownerKey: ownerKey(config, email), tokenId, sentAt: now })
        .onConflictDoUpdate({ target: ownerSignInLinks.ownerKey, set: { tokenId, sentAt: now } });
      await enqueueEmails(tx, null, [signInEmail(email, url)]);
      await audit(tx, email, 'sign-in.link-sent');
    });
    wakeOutbox();
  }

  routes.on(
    signInRoutes.request,
    async ({ body: { email }, request, reply }) => {
      // Owner or stranger, the answer is the same and leaves before anything is looked up, counted
      // or written: how long it takes says nothing about the address (decision 031). An owner's
      // link is made, queued and audited once the answer has gone.
      if (maySignIn(config, email)) {
        afterAnswer(reply, () =>
          sendSignInLink(email).catch((error: unknown) => {
            request.log.warn({ code: (error as { code?: unknown }).code }, 'sign-in link not queued');
          }),
        );
      }
      return { message: SIGN_IN_SENT };
    },
    rateLimit('sign-in', SIGN_IN_LIMITS.perClient),
  );

  routes.on(
    signInRoutes.link,
    async ({ body, request, reply }) => {
      const now = clock();
      const { email, verified } = await verifySignInToken(config, links, body.token, now);
      const session = await db.transaction(async (tx) => {
        if (verified.claims[MAILED] === 1) {
          const [newest] = await tx
            .select({ tokenId: ownerSignInLinks.tokenId })
            .from(ownerSignInLinks)
            .where(eq(ownerSignInLinks.ownerKey, verified.subject));
          if (newest && newest.tokenId !== verified.tokenId) {
            throw new Refusal(410, { error: LINK_SUPERSEDED });
          }
        }
        if (!(await links.tokens.consume(tx, SIGN_IN_PURPOSE, verified)))
          throw new Refusal(409, { error: LINK_USED });
        await audit(tx, email, 'sign-in.link');
        return startSession(tx, config, reply, email, 'link', now);
      });
      request.log.info({ session: session.id.slice(0, 8) }, 'owner signed in');
      return { email };
    },
    attempts,
  );

  routes.on(signInRoutes.passkeyOptions, () => authenticationOptions(db, config, clock()), attempts);

  routes.on(
    signInRoutes.passkey,
    async ({ body, reply }) => {
      const now = clock();
      const email = await authenticate(db, config, body, now);
      await db.transaction(async (tx) => {
        await audit(tx, email, 'sign-in.passkey');
        await startSession(tx, config, reply, email, 'passkey', now);
      });
      return { email };
    },
    attempts,
  );
}
