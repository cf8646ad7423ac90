/**
 * The hardening suite of issue 6: the response headers every kind of answer carries, read over
 * real sockets so that both ways a request is answered (the static fast path and Node's HTTP
 * server, decision 012) are covered, in plain http and behind https.
 *
 * The rest of the hardening evidence lives with the code it guards:
 *  - cross-origin POSTs (a foreign or null Origin, `Sec-Fetch-Site: cross-site`) refused with
 *    403, and `text/plain`, form-encoded or missing content types with 415:
 *    forms-endpoint.test.ts, 'answers every wrong request with a 4xx JSON error and stores nothing';
 *  - a sentinel posted through every form never in the logs or the stored error fields:
 *    forms-delivery.test.ts;
 *  - the rate limit keyed on X-Forwarded-For only with TRUST_PROXY: forms-abuse.test.ts.
 */
import { request } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PATHS } from '~/content/routes';
import { makeTestApp } from './helpers';
import { expectDocumentHeaders, expectSubresourceHeaders } from './security-expectations';

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

function fetchHeaders(
  port: number,
  path: string,
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: body ? { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` } : {},
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function listen(env: Record<string, string> = {}) {
  const t = await makeTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  return { t, port: typeof address === 'object' && address ? address.port : 0 };
}

describe('security headers on every kind of answer', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listen());
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('pages (fast path), the 404 page and API answers (Node) carry the document policy', async () => {
    for (const path of PUBLIC_PATHS) {
      const res = await fetchHeaders(port, path);
      expect(res.status, path).toBe(200);
      expectDocumentHeaders(res.headers, path);
    }
    const missing = await fetchHeaders(port, '/no-such-page');
    expect(missing.status).toBe(404);
    expectDocumentHeaders(missing.headers, '404 page');
    for (const [path, method, body] of [
      ['/api/send-contact-email', 'POST', '{}'],
      ['/api/no-such-endpoint', 'GET', undefined],
      ['/readyz', 'GET', undefined],
    ] as const) {
      const res = await fetchHeaders(port, path, method, body);
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      expectDocumentHeaders(res.headers, `${method} ${path}`);
    }
    // No HSTS over plain http: it would pin a host to https that does not serve it.
    expect(missing.headers['strict-transport-security']).toBeUndefined();
  });

  it('scripts and styles carry nosniff, CORP and the referrer policy, and no document headers', async () => {
    const assets = readdirSync(join(t.config.buildDir, 'client/assets')).filter((f) => /\.(js|css)$/.test(f));
    for (const file of assets.slice(0, 5)) {
      const res = await fetchHeaders(port, `/assets/${file}`);
      expect(res.status, file).toBe(200);
      expectSubresourceHeaders(res.headers, file);
    }
  });
});

describe('over https', () => {
  it('every kind of answer carries HSTS of at least a year', async () => {
    const { t, port } = await listen({ PUBLIC_URL: 'https://www.sterling.test' });
    try {
      const asset = readdirSync(join(t.config.buildDir, 'client/assets')).find((f) => f.endsWith('.js'));
      for (const path of ['/', '/about', `/assets/${asset}`, '/no-such-page', '/readyz']) {
        const res = await fetchHeaders(port, path);
        const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['strict-transport-security']))?.[1]);
        expect(maxAge, path).toBeGreaterThanOrEqual(31_536_000);
      }
    } finally {
      await t.app.close();
    }
  });
});
