/**
 * The owner's diary: a calendar subscription (webcal) the owner adds to their own calendar once,
 * after which every confirmed session and every published masterclass appears there, updated as
 * they change, and a cancelled one turns cancelled instead of vanishing (decision 035).
 *
 * - **Its address is a secret.** `GET /calendar/diary.ics?key=<token>`: the token is a signed
 *   token (the one signed-link module) of purpose `owner-diary` naming the feed's current id
 *   (`owner_diary`). It never expires: a calendar cannot renew a subscription. Replacing it in the
 *   console gives a new id, and every address made before answers 404, as does any other key. The
 *   key travels in the query, which request logs leave out (src/server/root/app.ts). The token is
 *   signed at the feed's creation time, so the console shows the same address every time.
 * - **What is in it** comes from the features (`Diary`, src/server/kit/diary.ts, made from the
 *   sources the composition root lists): sessions and masterclasses from DIARY_PAST_DAYS ago on.
 * - **Served** as text/calendar, private and cacheable for a few minutes, with an ETag (a calendar
 *   asking again for an unchanged feed gets 304), `noindex`, and rate limited per client.
 * - **The console** (the owner's role alone: the feed names every applicant) shows the address and
 *   replaces it; each making or replacing is audited in its own transaction.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { diaryRoutes, type DiaryAnswer } from '~/contract/diary';
import { site } from '~/content/site';
import { buildLondonFeed } from '~/lib/ics';
import { audit } from '../kit/audit';
import type { Db, Queryable } from '../kit/db/client';
import { diaryStart, type Diary } from '../kit/diary';
import type { Links } from '../kit/http/links';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import { MAX_TOKEN_LENGTH } from '../kit/http/signed-tokens';
import type { ConsoleLimiter } from './sign-in';
import { ownerDiary } from './tables';

/** The feed's public path; its key is the query's `key`. */
export const DIARY_FEED_PATH = '/calendar/diary.ics';
const PURPOSE = 'owner-diary';
const ROW = 'diary';
/**
 * Requests of the feed with its valid key, an hour, counted for the key (not the client): a
 * calendar asks every few minutes to every few hours, a phone and a laptop each; far above what
 * they ask. Wrong keys are counted apart, per client (DIARY_GUESS_LIMIT), so someone guessing
 * from the owner's network never locks the owner's own calendar out.
 */
export const DIARY_RATE_LIMIT = { max: 60, windowMs: 60 * 60_000 };
/** Wrong or missing keys, an hour, per client: far below what guessing a key would need. */
export const DIARY_GUESS_LIMIT = { max: 20, windowMs: 60 * 60_000 };
/** How long a calendar may keep the feed before asking again (it revalidates with its ETag). */
const MAX_AGE_S = 300;
const NOT_FOUND = 'Not found.';

type FeedRow = { feedId: string; createdAt: Date };

async function currentFeed(db: Queryable): Promise<FeedRow | undefined> {
  const [row] = await db
    .select({ feedId: ownerDiary.feedId, createdAt: ownerDiary.createdAt })
    .from(ownerDiary)
    .where(eq(ownerDiary.name, ROW));
  return row;
}

/** The feed's address: the same every time for one feed (its token is signed at the feed's creation). */
async function addressOf(links: Links, feed: FeedRow): Promise<NonNullable<DiaryAnswer['address']>> {
  const key = await links.tokens.sign(PURPOSE, feed.feedId, { now: feed.createdAt });
  const https = links.absolute(`${DIARY_FEED_PATH}?key=${key}`);
  return { https, webcal: https.replace(/^https?:/, 'webcal:'), createdAt: feed.createdAt.toISOString() };
}

export const diaryArea: ConsoleArea = (routes, { db, links, clock }) => {
  routes.on(diaryRoutes.view, async () => {
    const feed = await currentFeed(db);
    return { address: feed ? await addressOf(links, feed) : null };
  });

  routes.on(diaryRoutes.replace, async ({ owner }) => {
    const feed = await db.transaction(async (tx) => {
      const had = await currentFeed(tx);
      // Whole seconds: the token's issue time is in seconds, and the address is signed at this time.
      const createdAt = new Date(Math.floor(clock().getTime() / 1000) * 1000);
      const feed = { feedId: randomBytes(18).toString('base64url'), createdAt };
      await tx
        .insert(ownerDiary)
        .values({ name: ROW, ...feed })
        .onConflictDoUpdate({ target: ownerDiary.name, set: feed });
      await audit(tx, owner.email, had ? 'diary.replace' : 'diary.create');
      return feed;
    });
    return { address: await addressOf(links, feed) };
  });
};

export type DiaryFeedOptions = {
  db: Db;
  links: Links;
  limiter: ConsoleLimiter;
  /** The client's rate-limit key (a keyed hash of its address or IPv6 /64). */
  clientKey(request: FastifyRequest): string;
  /** What the feed shows: the features' entries (src/server/root/diary-sources.ts). */
  diary: Diary;
  clock?: () => Date;
};

/** The feed's public route, `GET` (and `HEAD`) `/calendar/diary.ics?key=`. */
export function registerDiaryFeed(app: FastifyInstance, options: DiaryFeedOptions): void {
  const { db, links, limiter, diary } = options;
  const clock = options.clock ?? (() => new Date());

  const limit = async (bucket: string, rule: { max: number; windowMs: number }) => {
    const hit = await limiter.hit(bucket, rule.max, rule.windowMs);
    if (hit.allowed) return;
    const retryAfter = String(Math.max(1, Math.ceil(hit.retryAfterMs / 1000)));
    throw new Refusal(
      429,
      { error: 'Too many requests. Please try again later.' },
      { 'retry-after': retryAfter },
    );
  };

  app.get(DIARY_FEED_PATH, async (request, reply) => {
    const key = (request.query as Record<string, unknown>).key;
    // A key is checked by its signature before anything is read: a forged one costs one HMAC.
    const verified =
      typeof key === 'string' && key.length <= MAX_TOKEN_LENGTH
        ? await links.tokens.verify(PURPOSE, key)
        : undefined;
    const feed = verified?.ok ? await currentFeed(db) : undefined;
    if (!verified?.ok || !feed || feed.feedId !== verified.subject) {
      await limit(`diary-guess:${options.clientKey(request)}`, DIARY_GUESS_LIMIT);
      throw new Refusal(404, { error: NOT_FOUND });
    }
    await limit(`diary:${feed.feedId}`, DIARY_RATE_LIMIT);

    const entries = await diary.entries(db, diaryStart(clock()));
    const body = buildLondonFeed({
      productId: `-//${site.brand}//Owner diary//EN`,
      name: `${site.brand}: sessions and masterclasses`,
      entries,
    });
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    void reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('cache-control', `private, max-age=${MAX_AGE_S}`)
      .header('etag', etag)
      .header('x-robots-tag', 'noindex')
      .header('referrer-policy', 'no-referrer');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(body);
  });
}
