/**
 * The hardening suite of issue 6: the response headers every kind of answer carries, read over
 * real sockets so that both ways a request is answered (the static fast path and Node's HTTP
 * server, decision 012) are covered, in plain http and behind https, with the fast path on and
 * off (`STATIC_FAST_PATH`); and the API's same-origin check, which trusts PUBLIC_URL only.
 *
 * The rest of the hardening evidence lives with the code it guards:
 *  - cross-origin POSTs (a foreign or null Origin, `Sec-Fetch-Site: cross-site`) refused with
 *    403, and `text/plain`, form-encoded or missing content types with 415:
 *    forms-endpoint.test.ts, 'answers every wrong request with a 4xx JSON error and stores nothing';
 *  - a sentinel posted through every form never in the logs or the stored error fields:
 *    forms-delivery.test.ts;
 *  - the rate limit keyed on X-Forwarded-For only with TRUST_PROXY: forms-abuse.test.ts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_PATHS, PUBLIC_PATHS } from '~/content/routes';
import { sameOriginOnly } from '../../src/server/kit/http/request-checks';
import { loadConfig } from '../../src/server/kit/config';
import { listenTestApp, SERVER_MODES } from './over-http';
import { expectDocumentHeaders, expectSubresourceHeaders } from './security-expectations';

type TestApp = Awaited<ReturnType<typeof listenTestApp>>;
const isAiPage = (path: string) => (AI_PATHS as readonly string[]).includes(path);

describe.each(SERVER_MODES)('security headers on every kind of answer, $mode', ({ env }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await listenTestApp(env);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('pages, the 404 page and API answers carry the document policy', async () => {
    for (const path of PUBLIC_PATHS) {
      const res = await t.call({ url: path });
      expect(res.statusCode, path).toBe(200);
      expectDocumentHeaders(res.headers, path, { voice: isAiPage(path) });
    }
    const missing = await t.call({ url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expectDocumentHeaders(missing.headers, '404 page');
    for (const [url, method, body, status] of [
      // An object with no form type: refused as an unknown form.
      ['/api/send-contact-email', 'POST', '{}', 400],
      ['/api/no-such-endpoint', 'GET', undefined, 404],
      ['/readyz', 'GET', undefined, 200],
    ] as const) {
      const res = await t.call({
        url,
        method,
        body,
        headers: body ? { 'content-type': 'application/json', origin: t.config.publicUrl } : {},
      });
      expect(res.statusCode, url).toBe(status);
      expectDocumentHeaders(res.headers, `${method} ${url}`);
    }
    // No HSTS over plain http: it would pin a host to https that does not serve it.
    expect(missing.headers['strict-transport-security']).toBeUndefined();
  });

  it('lets only the AI pages, with or without a trailing slash, use the microphone', async () => {
    for (const path of AI_PATHS) {
      for (const url of [path, `${path}/`]) {
        const res = await t.call({ url });
        expect(res.statusCode, url).toBe(200);
        expect(String(res.headers['permissions-policy']), url).toMatch(/(^|, )microphone=\(self\)(,|$)/);
      }
    }
    for (const url of ['/', '/about', '/about/', '/contact', '/no-such-page', '/favicon.svg', '/readyz']) {
      const res = await t.call({ url });
      expect(String(res.headers['permissions-policy']), url).toMatch(/(^|, )microphone=\(\)(,|$)/);
    }
  });

  it('scripts and styles carry nosniff, CORP and the referrer policy, and no document headers', async () => {
    const assets = readdirSync(join(t.config.buildDir, 'client/assets')).filter((f) => /\.(js|css)$/.test(f));
    for (const file of assets.slice(0, 5)) {
      const res = await t.call({ url: `/assets/${file}` });
      expect(res.statusCode, file).toBe(200);
      expectSubresourceHeaders(res.headers, file);
    }
  });
});

describe.each(SERVER_MODES)('over https, $mode', ({ env }) => {
  it('every kind of answer carries HSTS of at least a year', async () => {
    const t = await listenTestApp({ ...env, PUBLIC_URL: 'https://www.sterling.test' });
    try {
      const asset = readdirSync(join(t.config.buildDir, 'client/assets')).find((f) => f.endsWith('.js'));
      for (const url of ['/', '/about', `/assets/${asset}`, '/no-such-page', '/readyz']) {
        const res = await t.call({ url });
        const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['strict-transport-security']))?.[1]);
        expect(maxAge, url).toBeGreaterThanOrEqual(31_536_000);
      }
    } finally {
      await t.app.close();
    }
  });
});

describe('the same-origin check of the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await listenTestApp({ PUBLIC_URL: 'https://www.sterling.test' });
  });
  afterAll(async () => {
    await t.app.close();
  });
  const post = (headers: Record<string, string>) =>
    t.call({
      url: '/api/send-contact-email',
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it('refuses an Origin that matches a forged Host header but not PUBLIC_URL', async () => {
    for (const [origin, host] of [
      ['https://evil.test', 'evil.test'],
      ['http://127.0.0.1:8080', '127.0.0.1:8080'],
      ['http://www.sterling.test', 'www.sterling.test'],
      // The dev server's origin counts only in development.
      ['http://localhost:5173', 'localhost:5173'],
    ] as const) {
      const res = await post({ origin, host, 'sec-fetch-site': 'same-origin' });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual({ error: 'Requests from other sites are not accepted.' });
    }
  });

  it("accepts PUBLIC_URL's origin whatever Host the request came on, and a request with no Origin", async () => {
    for (const headers of [
      { origin: 'https://www.sterling.test', host: 'internal:3000' } as Record<string, string>,
      { origin: 'https://www.sterling.test' },
      {},
    ]) {
      const res = await post(headers);
      // Past the origin check: the empty form is refused for what it is.
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
    }
  });
});

describe('the same-origin check in development', () => {
  const check = (env: string) => {
    const config = loadConfig({
      NODE_ENV: env,
      PUBLIC_URL: 'https://www.sterling.test',
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    });
    const app = Fastify();
    app.post('/check', { onRequest: sameOriginOnly(config) }, async () => ({ ok: true }));
    return app;
  };

  it('also accepts the dev server, only in development', async () => {
    for (const [env, status] of [
      ['development', 200],
      ['production', 403],
      ['test', 403],
    ] as const) {
      const app = check(env);
      const res = await app.inject({
        method: 'POST',
        url: '/check',
        headers: { origin: 'http://localhost:5173', host: 'localhost:5173' },
      });
      expect(res.statusCode, env).toBe(status);
      const own = await app.inject({
        method: 'POST',
        url: '/check',
        headers: { origin: 'https://www.sterling.test' },
      });
      expect(own.statusCode, env).toBe(200);
      await app.close();
    }
  });
});
