/**
 * The owner's sessions, stored server-side (decision 020). The cookie carries 32 random bytes;
 * the table keeps their SHA-256, so a copy of the table opens nothing. A session ends on sign-out,
 * after 12 hours without a request (idle), or 7 days after it began (absolute), whichever is first.
 * The cookie is HttpOnly, SameSite=Strict, and `Secure` with the `__Host-` prefix when PUBLIC_URL
 * is https.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parse, serialize } from 'cookie';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../kit/config';
import type { Queryable } from '../kit/db/client';
import { ownerSessions } from './tables';

export const IDLE_HOURS = 12;
export const ABSOLUTE_DAYS = 7;
/** A session's last-seen time is written at most this often (one write a minute, not one a request). */
const TOUCH_EVERY_MS = 60_000;
const HOUR_MS = 60 * 60_000;

export type OwnerSession = { id: string; email: string };

export function cookieName(config: Pick<Config, 'https'>): string {
  return config.https ? '__Host-owner_session' : 'owner_session';
}

const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');

/** Starts a session for `email` and sets its cookie on the reply. */
export async function startSession(
  db: Queryable,
  config: Pick<Config, 'https'>,
  reply: FastifyReply,
  email: string,
  method: 'link' | 'passkey',
  now = new Date(),
): Promise<OwnerSession> {
  const value = randomBytes(32).toString('base64url');
  const id = hashOf(value);
  await db.insert(ownerSessions).values({ id, email, method, createdAt: now, lastSeenAt: now });
  reply.header(
    'set-cookie',
    serialize(cookieName(config), value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.https,
      path: '/',
      maxAge: ABSOLUTE_DAYS * 24 * 3600,
    }),
  );
  return { id, email };
}

/** Removes the cookie from the browser. */
export function clearCookie(config: Pick<Config, 'https'>, reply: FastifyReply): void {
  reply.header(
    'set-cookie',
    serialize(cookieName(config), '', {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.https,
      path: '/',
      maxAge: 0,
    }),
  );
}

/**
 * The live session the request's cookie names, or undefined (no cookie, unknown, ended, idle
 * for 12 hours, older than 7 days, or an address that may no longer sign in).
 */
export async function currentSession(
  db: Queryable,
  config: Pick<Config, 'https' | 'ownerEmails'>,
  request: FastifyRequest,
  now = new Date(),
  /** false: only look (a public page's view asks, and must not keep the session alive). */
  touch = true,
): Promise<OwnerSession | undefined> {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return undefined;
  const value = parse(header)[cookieName(config)];
  if (!value || value.length > 100) return undefined;
  const id = hashOf(value);
  const [row] = await db
    .select({ id: ownerSessions.id, email: ownerSessions.email, lastSeenAt: ownerSessions.lastSeenAt })
    .from(ownerSessions)
    .where(
      and(
        eq(ownerSessions.id, id),
        isNull(ownerSessions.endedAt),
        gt(ownerSessions.createdAt, new Date(now.getTime() - ABSOLUTE_DAYS * 24 * HOUR_MS)),
        gt(ownerSessions.lastSeenAt, new Date(now.getTime() - IDLE_HOURS * HOUR_MS)),
      ),
    );
  if (!row || !config.ownerEmails.includes(row.email)) return undefined;
  if (touch && now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(ownerSessions).set({ lastSeenAt: now }).where(eq(ownerSessions.id, id));
  }
  return { id: row.id, email: row.email };
}

export async function endSession(db: Queryable, id: string, now = new Date()): Promise<void> {
  await db
    .update(ownerSessions)
    .set({ endedAt: now })
    .where(and(eq(ownerSessions.id, id), isNull(ownerSessions.endedAt)));
}

/** Ends every live session of `email` (this one included); returns how many. */
export async function endAllSessions(db: Queryable, email: string, now = new Date()): Promise<number> {
  const ended = await db
    .update(ownerSessions)
    .set({ endedAt: now })
    .where(and(eq(ownerSessions.email, email), isNull(ownerSessions.endedAt)))
    .returning({ id: ownerSessions.id });
  return ended.length;
}

/** Deletes sessions that can no longer be used (ended, idle or too old) once a day has passed. */
export async function pruneSessions(db: Queryable, now = new Date()): Promise<void> {
  const dayAgo = new Date(now.getTime() - 24 * HOUR_MS);
  await db
    .delete(ownerSessions)
    .where(
      or(
        lt(ownerSessions.endedAt, dayAgo),
        lt(ownerSessions.createdAt, new Date(now.getTime() - (ABSOLUTE_DAYS + 1) * 24 * HOUR_MS)),
        lt(ownerSessions.lastSeenAt, new Date(dayAgo.getTime() - IDLE_HOURS * HOUR_MS)),
      ),
    );
  await db.execute(sql`delete from owner_challenges where expires_at < ${now}`);
}
