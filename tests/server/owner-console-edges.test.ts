/**
 * Every console route refuses what it cannot read at the edge, on PostgreSQL. The
 * routes are read back from the server (`printRoutes`), so a route added later is sent the same
 * things without this file changing; each must be declared in a console contract (a
 * `route()` of src/contract or of a feature's `*-console-contract.ts`), whose schemas say what
 * the answer must be. Signed in, each route is sent malformed, oversized, wrong-typed and missing
 * values in its path, its query and its body. Nothing may answer 5xx; what its schema refuses
 * is a 400 (or the route's 404 for an id that cannot be) with a sentence a person can read, never
 * a validator's default message; what the schema accepts may succeed or be refused, with a
 * sentence.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/contract/route';
import { SERVER_ERROR_MESSAGE } from '../../src/server/kit/http/request-checks';
import { type FormsTestApp, makeFormsApp, nextAddress, testDrivers } from './forms-support';
import { signInOwner } from './owner-session';

type Zod = {
  _zod: { def: Record<string, unknown> & { type: string } };
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } };
};
type Declared = Route & { params?: Zod; query?: Zod; body?: Zod };

/** Every route of every console contract, by `METHOD path`. */
const contracts = new Map<string, Declared>();
const modules = import.meta.glob<Record<string, unknown>>(
  ['../../src/contract/*.ts', '../../src/features/*/*-console-contract.ts'],
  { eager: true },
);
for (const exported of Object.values(modules)) {
  for (const group of Object.values(exported)) {
    if (typeof group !== 'object' || group === null) continue;
    for (const candidate of Object.values(group as Record<string, unknown>)) {
      const r = candidate as Partial<Declared> | null;
      if (r && typeof r.method === 'string' && typeof r.path === 'string' && r.path.startsWith('/')) {
        contracts.set(`${r.method} /api/owner${r.path}`, r as Declared);
      }
    }
  }
}

/** The routes of the server under /api/owner, read from its route tree (`printRoutes`). */
function consoleRoutes(app: FastifyInstance): { method: 'GET' | 'POST'; url: string }[] {
  const found: { method: 'GET' | 'POST'; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const [, segment, methods] = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 3)) ?? [];
    if (!segment) continue;
    stack.length = depth;
    stack.push(segment);
    const url = stack.join('');
    if (!methods || !url.startsWith('/api/owner/')) continue;
    for (const method of methods.split(', ')) {
      if (method === 'GET' || method === 'POST') found.push({ method, url });
    }
  }
  return found;
}

/** The names of an object schema's fields, through its wrappers (optional, preprocess, pipe...). */
function keysOf(schema: Zod | undefined, depth = 0): string[] {
  if (!schema || depth > 10) return [];
  const def = schema._zod.def;
  if (def.type === 'object') return Object.keys(def.shape as object);
  const inner = (def.innerType ?? def.in ?? def.schema) as Zod | undefined;
  const out = def.type === 'pipe' ? (def.out as Zod) : undefined;
  return [...new Set([...keysOf(inner, depth + 1), ...keysOf(out, depth + 1)])];
}

const LONG = 'x'.repeat(20_000);
const QUERY_VALUES: (string | string[])[] = [
  '',
  ' ',
  'x',
  LONG.slice(0, 5000),
  '0000-01-01',
  '2025-02-30',
  '9999-99-99',
  '-1',
  '0',
  '1e999',
  'null',
  '[object Object]',
  '\u202e',
  '\u0000',
  '%',
  'Zm9v',
  ['a', 'b'],
];
const PARAM_VALUES = [
  'x',
  '0',
  '-1',
  '1.5',
  '99999999999999999999',
  'a'.repeat(300),
  '%E2%80%AE',
  '%00',
  '%25',
  '..',
  '%20',
  'BK-%27%3B',
  '00000000-0000-4000-8000-00000000000g',
];
const WRONG_TYPES: unknown[] = [5, -1, 1e308, true, null, [], {}, [1, 2], { a: 1 }, '', ' ', LONG, '\u0000'];
const NOT_OBJECTS: unknown[] = [[], 'text', 5, null, true];
/** An id of each shape the routes take, to reach the body of a route with a path parameter. */
const ID_CANDIDATES = ['00000000-0000-4000-8000-000000000000', '123456', 'BK-AAAAAA', 'abc'];

/** Values tried, field by field, to make a body the route's schema accepts. */
const PLAUSIBLE: unknown[] = [
  'A title',
  '2030-03-04T10:00',
  '2030-03-04T12:00',
  '2030-03-04',
  '10:00',
  'online',
  'https://example.org/join',
  'someone@example.org',
  'a'.repeat(43),
  1,
  2,
  20,
  true,
  null,
];
/** What a field the schema takes as text is then sent, one at a time, in a body that is otherwise valid. */
const NASTY = [
  'a\u0000b',
  '\ud800',
  'A\u202Etitle',
  ' ',
  'x'.repeat(20_000),
  "'; drop table outbox; --",
  '\n\r',
];

/** The routes a valid body was found for (the events', bookings', people's, sign-in's...). */
const withValidBody = new Set<string>();

/** A body the schema accepts, found field by field from PLAUSIBLE, or undefined. */
function validBody(schema: Zod, keys: string[]): Record<string, unknown> | undefined {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    for (const value of PLAUSIBLE) {
      const result = schema.safeParse({ ...body, [key]: value });
      if (result.success || !result.error?.issues.some((issue) => issue.path[0] === key)) {
        body[key] = value;
        break;
      }
    }
  }
  return schema.safeParse(body).success ? body : undefined;
}

type Case = {
  what: string;
  path: string;
  query: string;
  body?: unknown;
  raw?: string;
  expect: 'refused' | 'notFound' | 'any';
};

function casesOf(method: 'GET' | 'POST', url: string, route: Declared): Case[] {
  const names = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const validId = ID_CANDIDATES.find((id) =>
    route.params ? route.params.safeParse(Object.fromEntries(names.map((n) => [n, id]))).success : true,
  );
  const pathWith = (value: string) => url.replace(/:\w+/g, value);
  const basePath = pathWith(validId ?? ID_CANDIDATES[0]!);
  const baseBody = method === 'POST' ? {} : undefined;
  const cases: Case[] = [];

  // The path: ids that cannot be.
  for (const value of names.length ? PARAM_VALUES : []) {
    const decoded = (() => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    })();
    const parses =
      route.params?.safeParse(Object.fromEntries(names.map((n) => [n, decoded]))).success ?? true;
    cases.push({
      what: `path ${value}`,
      path: pathWith(value),
      query: '',
      body: baseBody,
      expect: parses ? 'any' : route.notFound ? 'notFound' : 'refused',
    });
  }

  // The query: each field given each value, an unknown field, and a malformed query string.
  const queryKeys = keysOf(route.query);
  for (const key of [...queryKeys, 'unknown']) {
    for (const value of QUERY_VALUES) {
      const search = new URLSearchParams();
      for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
      const parsed = Object.fromEntries([[key, Array.isArray(value) ? value : value]]);
      const parses = route.query ? route.query.safeParse(parsed).success : true;
      cases.push({
        what: `query ${key}=${JSON.stringify(value).slice(0, 40)}`,
        path: basePath,
        query: `?${search.toString()}`,
        body: baseBody,
        expect: parses ? 'any' : 'refused',
      });
    }
  }
  cases.push({
    what: 'query malformed',
    path: basePath,
    query: '?%=%&a=%ZZ&&=',
    body: baseBody,
    expect: 'any',
  });

  if (method === 'POST') {
    const bodyKeys = keysOf(route.body);
    const expectOf = (body: unknown): Case['expect'] =>
      !route.body || route.body.safeParse(body ?? {}).success ? 'any' : 'refused';
    // Missing: no field at all; not an object; each field wrong-typed or oversized; unknown.
    cases.push({ what: 'body {}', path: basePath, query: '', body: {}, expect: expectOf({}) });
    for (const body of NOT_OBJECTS) {
      cases.push({
        what: `body ${JSON.stringify(body)}`,
        path: basePath,
        query: '',
        body,
        expect: expectOf(body),
      });
    }
    for (const key of [...bodyKeys, 'unknown']) {
      for (const value of WRONG_TYPES) {
        const body = { [key]: value };
        cases.push({
          what: `body ${key}=${JSON.stringify(value).slice(0, 40)}`,
          path: basePath,
          query: '',
          body,
          expect: expectOf(body),
        });
      }
    }
    // A body the schema accepts, with each of its text fields given something nasty in turn.
    const valid = route.body ? validBody(route.body, bodyKeys) : undefined;
    if (valid) withValidBody.add(`${method} ${url}`);
    for (const key of valid ? Object.keys(valid) : []) {
      if (typeof valid![key] !== 'string') continue;
      for (const value of NASTY) {
        const body = { ...valid, [key]: value };
        cases.push({
          what: `valid body but ${key}=${JSON.stringify(value).slice(0, 40)}`,
          path: basePath,
          query: '',
          body,
          expect: expectOf(body),
        });
      }
    }
    cases.push({ what: 'body not JSON', path: basePath, query: '', raw: '{"a":', expect: 'refused' });
    cases.push({
      what: 'body too large',
      path: basePath,
      query: '',
      raw: JSON.stringify({ a: 'x'.repeat(40_000) }),
      expect: 'any',
    });
  }
  return cases;
}

const drivers = await testDrivers('console_edges');

describe.each(drivers)('every console route refuses at the edge, on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env);
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('reads the routes from the server, each declared in a contract', () => {
    const routes = consoleRoutes(t.app);
    expect(routes.length).toBeGreaterThan(40);
    const undeclared = routes.filter(({ method, url }) => !contracts.has(`${method} ${url}`));
    expect(undeclared, 'a console route with no contract').toEqual([]);
  });

  it('answers every malformed, oversized, wrong-typed or missing value with 400 or 404 and a sentence, never 5xx', async () => {
    let cookie = await signInOwner(t.app);
    const origin = new URL(t.app.config.publicUrl).origin;
    const send = (method: 'GET' | 'POST', c: Case): Promise<LightMyRequestResponse> =>
      t.app.inject({
        method,
        url: `${c.path}${c.query}`,
        remoteAddress: nextAddress(),
        headers: { origin, cookie, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        payload: method === 'POST' ? (c.raw ?? JSON.stringify(c.body ?? {})) : undefined,
      });
    const failures: string[] = [];
    let sent = 0;
    for (const { method, url } of consoleRoutes(t.app)) {
      const route = contracts.get(`${method} ${url}`);
      if (!route) continue;
      for (const c of casesOf(method, url, route)) {
        let res: LightMyRequestResponse;
        try {
          res = await send(method, c);
        } catch (error) {
          failures.push(`${method} ${url} ${c.what} -> ${(error as Error).message}`);
          continue;
        }
        // A route that ends sessions (signing out) ended this one: sign in again and resend.
        if (res.statusCode === 401) {
          cookie = await signInOwner(t.app);
          res = await send(method, c);
        }
        sent += 1;
        const label = `${method} ${url} ${c.what} -> ${res.statusCode} ${res.body.slice(0, 120)}`;
        const status = res.statusCode;
        const error = status >= 400 ? (res.json() as { error?: unknown }).error : undefined;
        if (status >= 500) failures.push(label);
        else if (c.expect === 'refused' && status !== 400 && status !== 413)
          failures.push(`expected 400: ${label}`);
        else if (c.expect === 'notFound' && status !== 404) failures.push(`expected 404: ${label}`);
        else if (status >= 400 && (typeof error !== 'string' || !/^[A-Z].*[.!?]$/.test(error)))
          failures.push(`no sentence: ${label}`);
        else if (
          typeof error === 'string' &&
          (error === SERVER_ERROR_MESSAGE || /^Invalid|expected|received/.test(error))
        )
          failures.push(`not a clear sentence: ${label}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect(withValidBody.size, [...withValidBody].join(', ')).toBeGreaterThanOrEqual(8);
  }, 240_000);
});
