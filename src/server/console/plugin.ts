/**
 * The owner's console API, `/api/owner/...` (contract: src/contract). Every request is
 * same-origin only (Origin checked as the forms do); every state change is a JSON POST; every
 * answer is `no-store` (the app's API headers). Sign-in routes are open; everything else needs
 * a live session and answers 401 without one. Every owner action is written to the audit log.
 * Logs carry record ids and counts, never an address or a visitor's words.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withoutBidiControls } from '~/lib/bidi';
import type { ConsoleRole } from '~/contract/roles';
import { consoleUserOf, type Config } from '../kit/config';
import type { Db } from '../kit/db/client';
import type { Links } from '../kit/http/links';
import { jsonOnly, sameOriginOnly, send } from '../kit/http/request-checks';
import type { GiveWay } from '../kit/http/give-way';
import type { Diary } from '../kit/diary';
import { openRoutes, ownerRoutes, type ConsoleArea } from '../kit/http/owner-routes';
import { currentSession } from './sessions';
import { registerSignIn, type ConsoleLimiter } from './sign-in';

export type ConsoleOptions = {
  config: Config;
  db: Db;
  links: Links;
  limiter: ConsoleLimiter;
  /** The client's rate-limit key (a keyed hash of its address or IPv6 /64). */
  clientKey(request: FastifyRequest): string;
  wakeOutbox(): void;
  /** The requests in flight, which downloads give way to (src/server/kit/http/give-way.ts). */
  giveWay: GiveWay;
  /** The owner's diary (src/server/kit/diary.ts). */
  diary: Diary;
  /** The time; tests move it. */
  clock?: () => Date;
  /** The console's areas, registered inside the session scope (the composition root's list). */
  areas: readonly ConsoleArea[];
  /** Filled with every route registered under /api/owner, as Fastify registers it, with its role. */
  routeList?: ConsoleRouteInfo[];
};

/** A route of the console as registered: its method, its URL, and the role it needs (none: open). */
export type ConsoleRouteInfo = { method: string; url: string; role: ConsoleRole | undefined };

export const UNAUTHORISED = 'Please sign in to the console.';

/** `value` with the bidirectional controls taken out of every string in it (the same value if none). */
function withoutControls(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutBidiControls(value);
  if (typeof value !== 'object' || value === null || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => withoutControls(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withoutControls(item, depth + 1)]),
  );
}

export async function consoleApi(app: FastifyInstance, options: ConsoleOptions) {
  const { config, db, links, wakeOutbox, giveWay, diary } = options;
  const clock = options.clock ?? (() => new Date());
  const services = { config, db, links, clock, wakeOutbox, giveWay, diary };

  // Every console request: same origin (a GET too: nothing of the console is for another site).
  app.addHook('onRequest', sameOriginOnly(config));
  // Every answer shows what visitors typed without bidirectional controls: a name or a subject
  // cannot turn the text around it on the owner's screen (decision 031). Files are not answers.
  app.addHook('preSerialization', async (_request, _reply, payload) => withoutControls(payload));
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        options.routeList?.push({ method, url: route.url, role: route.config?.consoleRole });
      }
    }
  });

  // --- Signing in (no session needed) -----------------------------------------------------------
  await app.register(async (open) => {
    open.addHook('onRequest', jsonOnly);
    registerSignIn(openRoutes(open, giveWay), {
      ...services,
      limiter: options.limiter,
      clientKey: options.clientKey,
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
      const user = session && consoleUserOf(config, session.email);
      if (!session || !user) return send(reply, 401, { error: UNAUTHORISED });
      request.owner = { ...session, role: user.role, name: user.name };
    });
    const routes = ownerRoutes(owned, giveWay);
    for (const area of options.areas) area(routes, services);
  });
}
