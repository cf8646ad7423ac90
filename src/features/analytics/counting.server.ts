/**
 * How a page view is told apart and what of it is kept (decision 042). A visitor is the first
 * 8 bytes of SHA-256 over the site, the UK day's random salt, the client address (an IPv6 /64)
 * and the kind of device: the same device on the same day is one visitor, and once the day's salt is destroyed
 * nobody (this server included) can work back from the hash to an address or link two days.
 * The address and the user agent are read, hashed and dropped; the device class is a coarse
 * word. Bots, prefetches and browsers that ask not to be tracked are not counted at all.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import { partsInLondon, ukDateOf } from '~/lib/uk-dates';
import type { Db } from '~/server/kit/db/client';
import { rowsOf } from '~/server/kit/db/rows';

export type Device = 'desktop' | 'mobile' | 'tablet';

/** A coarse class of the device from its user agent (never stored itself). */
export function deviceOf(userAgent: string): Device {
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobile)/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** What a user agent says, read once per distinct string (a handful serve most views). */
type Agent = { bot: boolean; device: Device };
const AGENTS_HELD = 1000;
const agents = new Map<string, Agent>();

/** Whether the user agent is a bot's (none, or one the `isbot` list knows), and its device class. */
export function agentOf(userAgent: string): Agent {
  // No browser sends a user agent this long: a bot's, and not worth remembering.
  if (userAgent.length > 512) return { bot: true, device: 'desktop' };
  let agent = agents.get(userAgent);
  if (!agent) {
    agent = { bot: userAgent.length === 0 || isbot(userAgent), device: deviceOf(userAgent) };
    // A crowd of distinct strings (a scan) empties the memo rather than growing it.
    if (agents.size >= AGENTS_HELD) agents.clear();
    agents.set(userAgent, agent);
  }
  return agent;
}

/**
 * Why a request is not counted, or undefined when it is: a browser asking not to be tracked
 * (Global Privacy Control or Do Not Track), a prefetch or prerender not (yet) shown, or a bot
 * (no user agent, or one the `isbot` list knows).
 */
export function notCounted(headers: Headers): 'private' | 'prefetch' | 'bot' | undefined {
  if (header(headers, 'sec-gpc').trim() === '1' || header(headers, 'dnt').trim() === '1') return 'private';
  if (
    headers['sec-purpose'] !== undefined ||
    headers.purpose !== undefined ||
    headers['x-moz'] !== undefined
  ) {
    const purpose = `${header(headers, 'sec-purpose')} ${header(headers, 'purpose')} ${header(headers, 'x-moz')}`;
    if (/prefetch|prerender/i.test(purpose)) return 'prefetch';
  }
  if (agentOf(header(headers, 'user-agent')).bot) return 'bot';
  return undefined;
}

/** The UK day and hour of an instant, worked out once a minute. */
let minuteHeld = -1;
let whenHeld = { day: '', hour: 0 };
export function ukDayAndHour(at: Date): { day: string; hour: number } {
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== minuteHeld) {
    minuteHeld = minute;
    whenHeld = { day: ukDateOf(at), hour: partsInLondon(at).hour ?? 0 };
  }
  return whenHeld;
}

/**
 * The day's visitor: a signed 64-bit integer from the keyed hash of the client's address (as the
 * caller gives it: an IPv6 /64 as one) and the kind of device (desktop, mobile, tablet), never the whole user agent:
 * a browser that changes its user agent, or a script that makes up one per request, stays one
 * visitor, while a phone and a computer on one office connection are two (decision 042, addendum).
 */
export function visitorOf(site: string, salt: string, address: string, userAgent: string): bigint {
  const digest = createHash('sha256')
    .update(`${site}\n${salt}\n${address}\n${deviceOf(userAgent)}`)
    .digest();
  return digest.readBigInt64BE(0);
}

export type SaltKeeper = {
  /** The salt of the UK day `day`, made (once among every instance) on its first use. */
  forDay(day: string): Promise<string>;
  /** Destroys every salt of a day before the current UK day, in memory and in the database. */
  rotate(): Promise<void>;
  /** The UK day of the salt held in memory (tests). */
  heldDay(): string | undefined;
};

/**
 * The day's salt, shared by every instance through `analytics_salts`: the first to need it
 * inserts 32 random bytes, the others read that row. At the turn of the UK day it is replaced
 * on first use, and `rotate` (run by the counting's job every minute) deletes the old one.
 */
export function saltKeeper(db: Db, now: () => Date = () => new Date()): SaltKeeper {
  let held: { day: string; salt: Promise<string> } | undefined;

  async function load(day: string): Promise<string> {
    await db.execute(
      sql`insert into analytics_salts (day, salt) values (${day}::date, ${randomBytes(32).toString('hex')})
          on conflict (day) do nothing`,
    );
    const [row] = rowsOf<{ salt: string }>(
      await db.execute(sql`select salt from analytics_salts where day = ${day}::date`),
    );
    if (!row) throw new Error('analytics salt missing');
    return row.salt;
  }

  return {
    forDay(day) {
      if (held?.day !== day) {
        const salt = load(day);
        held = { day, salt };
        // A failed read is tried again by the next view, not kept.
        salt.catch(() => {
          if (held?.salt === salt) held = undefined;
        });
      }
      return held.salt;
    },
    async rotate() {
      const today = ukDateOf(now());
      if (held && held.day < today) held = undefined;
      await db.execute(sql`delete from analytics_salts where day < ${today}::date`);
    },
    heldDay: () => held?.day,
  };
}
