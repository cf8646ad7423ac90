/**
 * Two roles in the console (decision 032), on PostgreSQL: every route of the console,
 * read from the Fastify instance as it registered them, asked for by a helper, is refused with 403
 * and one clear sentence when it is the owner's and is not refused when it is a helper's; the
 * owner is refused none. A route that names no role is the owner's. The session says who is
 * signed in and their role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_REFUSED, roleOf } from '../../src/contract/roles';
import { route } from '../../src/contract/route';
import type { ConsoleRouteInfo } from '../../src/server/console/plugin';
import { type FormsTestApp, makeFormsApp, OWNER, testDrivers } from './forms-support';
import { apiCall, signInOwner } from './owner-session';

export const HELPER = 'ada@sterling.test';
const PARTNER = 'partner@sterling.test';

/** The routes of signing in, the only ones that need no session. */
const OPEN = [
  'POST /api/owner/sign-in',
  'POST /api/owner/sign-in/link',
  'POST /api/owner/passkeys/authenticate/options',
  'POST /api/owner/passkeys/authenticate',
];

/** The routes a helper may use: reading and answering leads and bookings, and their own security. */
const HELPERS = [
  'GET /api/owner/session',
  'POST /api/owner/sign-out',
  'POST /api/owner/sign-out-everywhere',
  'GET /api/owner/passkeys',
  'POST /api/owner/passkeys/register/options',
  'POST /api/owner/passkeys/register',
  'POST /api/owner/passkeys/:id/delete',
  'GET /api/owner/push',
  'POST /api/owner/push/devices',
  'POST /api/owner/push/devices/:id/delete',
  'POST /api/owner/push/test',
  'GET /api/owner/overview',
  'GET /api/owner/submissions',
  'GET /api/owner/submissions/:id',
  'POST /api/owner/submissions/:id/mark-spam',
  'POST /api/owner/submissions/:id/release',
  'POST /api/owner/submissions/:id/state',
  'POST /api/owner/submissions/:id/notes',
  'POST /api/owner/submissions/:id/reply',
  'GET /api/owner/bookings',
  'GET /api/owner/bookings/reschedule-options',
  'POST /api/owner/bookings/:id/confirm',
  'POST /api/owner/bookings/:id/confirm-move',
  'POST /api/owner/bookings/:id/decline',
  'POST /api/owner/bookings/:id/keep-time',
  'POST /api/owner/bookings/:id/release-hold',
  'POST /api/owner/bookings/:id/cancel',
  'POST /api/owner/bookings/:id/reschedule',
  'GET /api/owner/events',
  'GET /api/owner/events/:id',
  'GET /api/owner/audit',
].sort();

const key = (r: ConsoleRouteInfo) => `${r.method} ${r.url}`;

/** A URL for a route: each path parameter filled with an id of the right shape that names nothing. */
function urlOf(r: ConsoleRouteInfo): string {
  return r.url.replace(/:(\w+)/g, (_, name: string) =>
    r.url.includes('/passkeys/') && name === 'id'
      ? 'bm90LWEtcGFzc2tleQ'
      : '00000000-0000-4000-8000-000000000000',
  );
}

/** Signing out ends the session: those routes go last, each with a session of its own. */
const endsSession = (r: ConsoleRouteInfo) => r.url.includes('/sign-out');

it('a route that names no role is the owner’s alone', () => {
  expect(roleOf(route<never>()({ method: 'GET', path: '/new-thing' }))).toBe('owner');
  expect(roleOf(route<never>()({ method: 'GET', path: '/new-thing', role: 'helper' }))).toBe('helper');
});

describe.each(await testDrivers('roles'))('roles on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let routes: ConsoleRouteInfo[];

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp({
      OWNER_NAME: 'Sam Sterling',
      OWNER_EMAILS: `${PARTNER}`,
      HELPER_EMAILS: `Ada <${HELPER}>`,
      ...db.env,
    });
    routes = [...t.app.services.consoleRoutes].sort(
      (a, b) => Number(endsSession(a)) - Number(endsSession(b)),
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('knows every console route as Fastify registered it, each with its role or open for signing in', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(
      routes
        .filter((r) => r.role === undefined)
        .map(key)
        .sort(),
    ).toEqual([...OPEN].sort());
    expect(
      routes
        .filter((r) => r.role === 'helper')
        .map(key)
        .sort(),
    ).toEqual(HELPERS);
  });

  it('refuses a helper every owner’s route with 403 and a sentence, and none of a helper’s', async () => {
    let cookie = await signInOwner(t.app, HELPER);
    for (const r of routes.filter((r) => r.role !== undefined)) {
      if (endsSession(r)) cookie = await signInOwner(t.app, HELPER);
      const res = await apiCall(t.app, r.method as 'GET' | 'POST', urlOf(r), { cookie, body: {} });
      if (r.role === 'owner') {
        expect(res.statusCode, key(r)).toBe(403);
        expect(res.json(), key(r)).toEqual({ error: ROLE_REFUSED });
      } else {
        expect(res.statusCode, `${key(r)}: ${res.body}`).not.toBe(403);
        expect(res.statusCode, `${key(r)}: ${res.body}`).toBeLessThan(500);
        expect(res.statusCode, key(r)).not.toBe(401);
      }
    }
  });

  it('refuses the owners none of the console’s routes', async () => {
    for (const owner of [OWNER, PARTNER]) {
      let cookie = await signInOwner(t.app, owner);
      for (const r of routes.filter((r) => r.role !== undefined)) {
        if (endsSession(r)) cookie = await signInOwner(t.app, owner);
        const res = await apiCall(t.app, r.method as 'GET' | 'POST', urlOf(r), { cookie, body: {} });
        expect(res.statusCode, `${owner} ${key(r)}: ${res.body}`).not.toBe(403);
        expect(res.statusCode, key(r)).not.toBe(401);
      }
    }
  });

  it('says who is signed in and their role, by the configured name or the address', async () => {
    const session = async (email: string) =>
      (await apiCall(t.app, 'GET', '/api/owner/session', { cookie: await signInOwner(t.app, email) })).json();
    expect(await session(HELPER)).toMatchObject({ email: HELPER, name: 'Ada', role: 'helper' });
    expect(await session(OWNER)).toMatchObject({ email: OWNER, name: 'Sam Sterling', role: 'owner' });
    expect(await session(PARTNER)).toMatchObject({ email: PARTNER, name: 'Partner', role: 'owner' });
  });

  it('refuses a helper before reading the input: a malformed body to an owner’s route is still 403', async () => {
    const cookie = await signInOwner(t.app, HELPER);
    const res = await apiCall(t.app, 'POST', '/api/owner/people/erase', { cookie, body: { email: 'nope' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: ROLE_REFUSED });
  });
});
