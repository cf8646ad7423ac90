/**
 * The counting of page views (decision 042): `POST /api/views` from the beacon a page sends once
 * it is shown, and the form starts the fill-time token marks. A view is answered 204 once the
 * statement holding it has committed (views that arrive together are written together, as the
 * form endpoint's submissions are), or at once, storing nothing, when it is not to be counted:
 * a bot, a prefetch, a browser with Global Privacy Control or Do Not Track, the console's own
 * signed-in browser, or more than `VIEWS_PER_MINUTE` views from one address in a minute. The
 * answer never says which, and never differs for a page that was not counted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { VIEWS_API } from '~/content/analytics';
import { withoutBidiControls } from '~/lib/bidi';
import { z } from '~/lib/zod';
import type { Config } from '~/server/kit/config';
import type { Database, NamedStatement } from '~/server/kit/db/client';
import { sameOriginOnly, send } from '~/server/kit/http/request-checks';
import { errorCode } from '~/server/kit/log-safe';
import { agentOf, notCounted, saltKeeper, ukDayAndHour, visitorOf, type SaltKeeper } from './counting.server';

/** More views than this from one client address in one minute are not counted (answered alike). */
export const VIEWS_PER_MINUTE = 120;

/** At most this many client addresses are counted in one minute (the cap's map stays bounded). */
export const ADDRESSES_PER_MINUTE = 100_000;

/** The path of a page not on the site, so that mistyped addresses are counted once, not each. */
export const NOT_FOUND_VIEW = '/404';

const tag = z.string().max(500).nullish();

/** The beacon's body: the page's path, the referrer (the first page of a visit only), the UTM tags. */
export const beaconBody = z.object({
  p: z.string().min(1).max(500).startsWith('/'),
  r: z.string().max(2000).nullish(),
  s: tag,
  m: tag,
  c: tag,
});

export type ViewRow = {
  day: string;
  hour: number;
  visitor: string;
  path: string;
  referrer: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  device: string;
};

/** A UTM tag as stored: trimmed, lower case, without control characters, at most 100 characters. */
export function cleanTag(value: string | null | undefined): string {
  if (!value) return '';
  return (
    withoutBidiControls(value)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .trim()
      .toLowerCase()
      .slice(0, 100)
  );
}

/** The referring site's host alone ('' for none, for this site itself, or for anything unreadable). */
export function referrerHost(referrer: string | null | undefined, siteHost: string): string {
  if (!referrer) return '';
  let host: string;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    host = url.hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
  if (host === siteHost.replace(/^www\./, '') || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return '';
  return host;
}

/** The page's path as counted: no trailing slash (but the home page's), a known page or `/404`. */
export function countedPath(path: string, isPage: (path: string) => boolean): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return isPage(trimmed) ? trimmed : NOT_FOUND_VIEW;
}

const insertViews = (batch: string) => sql`
  insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
  select day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device
  from jsonb_to_recordset(${batch}::jsonb) as b(day date, hour smallint, visitor bigint, path text,
    referrer text, utm_source text, utm_medium text, utm_campaign text, device text)`;

const INSERT_VIEWS: NamedStatement = {
  name: 'insert_views',
  text: new PgDialect().sqlToQuery(insertViews('')).sql,
};

/** At most this many views in one statement. */
const MAX_BATCH = 2000;

/**
 * Group commit: views that arrive while a statement is in flight go together into the next one;
 * each is answered once its statement has committed. A failed statement fails its views (the
 * beacon's 500; a view is not worth retrying one by one).
 */
export function viewWriter(database: Database) {
  const queue: { row: ViewRow; done: (error?: unknown) => void }[] = [];
  let busy = false;
  let scheduled = false;

  function schedule() {
    if (scheduled || busy || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  }

  async function flush() {
    if (busy || queue.length === 0) return;
    busy = true;
    const batch = queue.splice(0, MAX_BATCH);
    let failure: unknown;
    try {
      await database.run(INSERT_VIEWS, [JSON.stringify(batch.map((b) => b.row))]);
    } catch (error) {
      failure = error ?? new Error('views not written');
    } finally {
      busy = false;
    }
    schedule();
    for (const b of batch) b.done(failure);
  }

  return {
    write(row: ViewRow): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ row, done: (error) => (error ? reject(error) : resolve()) });
        schedule();
      });
    },
  };
}

export type CountingOptions = {
  config: Config;
  database: Database;
  /** Whether the request comes from a signed-in console browser (the owner's own visits). */
  isConsoleBrowser(request: FastifyRequest): Promise<boolean>;
  /** Whether a path is a page of the site. */
  isPage(path: string): boolean;
  /** The per-address cap's key of a client address (an IPv6 address by its /64). */
  addressKey(ip: string): string;
  /** Whether a path is the console's (never counted: the owner's own pages). */
  isConsole(path: string): boolean;
  now?: () => Date;
};

export type Counting = {
  salts: SaltKeeper;
  /** Marks a visitor starting a form (the fill-time token's first request); never throws. */
  formStarted(request: FastifyRequest, formType: string): Promise<void>;
};

/** Registers `POST /api/views` and returns what the form endpoint and the jobs use. */
export function registerCounting(app: FastifyInstance, options: CountingOptions): Counting {
  const { config, database, isConsoleBrowser, isPage, isConsole, addressKey } = options;
  const now = options.now ?? (() => new Date());
  const site = new URL(config.publicUrl).host;
  const siteHost = new URL(config.publicUrl).hostname.toLowerCase();
  const salts = saltKeeper(database.db, now);
  const writer = viewWriter(database);

  // The per-address cap: one map a minute, dropped whole when the minute turns.
  let minute = -1;
  let hits = new Map<string, number>();
  const overCap = (address: string, at: Date) => {
    const m = Math.floor(at.getTime() / 60_000);
    if (m !== minute) {
      minute = m;
      hits = new Map();
    }
    const key = addressKey(address);
    const held = hits.get(key);
    // A flood of new addresses in one minute is not counted past the map's size.
    if (held === undefined && hits.size >= ADDRESSES_PER_MINUTE) return true;
    const n = (held ?? 0) + 1;
    hits.set(key, n);
    return n > VIEWS_PER_MINUTE;
  };

  /** The day, hour and visitor of a request to be counted, or undefined when it is not counted. */
  async function visit(request: FastifyRequest) {
    if (notCounted(request.headers)) return undefined;
    const at = now();
    const ip = request.ip;
    if (overCap(ip, at)) return undefined;
    if (request.headers.cookie && (await isConsoleBrowser(request))) return undefined;
    const { day, hour } = ukDayAndHour(at);
    const ua = request.headers['user-agent'] ?? '';
    const salt = await salts.forDay(day);
    return { day, hour, visitor: visitorOf(site, salt, addressKey(ip), ua), device: agentOf(ua).device };
  }

  app.post(VIEWS_API, { onRequest: [sameOriginOnly(config)], bodyLimit: 4096 }, async (request, reply) => {
    // sendBeacon posts its JSON as text/plain; a test or a script may say application/json.
    let raw: unknown = request.body;
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw);
      } catch {
        raw = undefined;
      }
    }
    const parsed = beaconBody.safeParse(raw);
    if (!parsed.success) return send(reply, 400, { error: 'This page view could not be read.' });
    const path = parsed.data.p.split(/[?#]/)[0] ?? '/';
    const seen = isConsole(path) ? undefined : await visit(request);
    if (seen) {
      const body = parsed.data;
      await writer.write({
        day: seen.day,
        hour: seen.hour,
        visitor: seen.visitor.toString(),
        path: countedPath(path, isPage),
        referrer: referrerHost(body.r, siteHost),
        utm_source: cleanTag(body.s),
        utm_medium: cleanTag(body.m),
        utm_campaign: cleanTag(body.c),
        device: seen.device,
      });
    }
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  return {
    salts,
    async formStarted(request, formType) {
      try {
        const seen = await visit(request);
        if (!seen) return;
        await database.db.execute(
          sql`insert into analytics_form_starts (day, form_type, visitor) values (${seen.day}::date, ${formType}, ${seen.visitor.toString()}::bigint)`,
        );
      } catch (error) {
        request.log.warn({ err: { code: errorCode(error) } }, 'form start not counted');
      }
    },
  };
}
