/**
 * Behind a real reverse proxy: Debian's nginx on loopback, in front of the app listening on
 * 127.0.0.1 with TRUST_PROXY=127.0.0.1. Two visitors (connecting to nginx from 127.0.0.2 and
 * 127.0.0.3, so nginx's $remote_addr differs) get a rate-limit window each, and X-Forwarded-For
 * forged by a client the app does not trust (127.0.0.9 straight to the app, or a visitor through
 * nginx) gives it no fresh window. `npm test` installs nginx first (scripts/ensure-tools.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinks } from '../../src/server/kit/http/links';
import { loadConfig } from '../../src/server/kit/config';
import { SECRET, bodies, makeFormsApp, type FormsTestApp } from './forms-support';
import { freePort } from './free-port';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const CONTACT_LIMIT = 3; // contact messages per client per 5 minutes

/** POSTs a contact message from `localAddress` to 127.0.0.1:`port`; resolves with the status. */
function postContact(
  port: number,
  localAddress: string,
  headers: Record<string, string> = {},
  body: unknown = bodies.contact(),
): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/api/send-contact-email',
        agent: false,
        timeout: 10_000,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from 127.0.0.1:${port} within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function postMany(count: number, send: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push(await send(i));
  return statuses;
}

type Nginx = { child: ChildProcess; dir: string; port: number; exited: Promise<void> };

/**
 * nginx on a free port. Between the probe and nginx's bind another process may take the port
 * (files run side by side): nginx then stops at once, and starts again on another.
 */
async function startNginx(upstreamPort: number): Promise<Nginx> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startNginxOnce(upstreamPort);
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
}

/** nginx in the foreground with its own prefix, config, pid file and error log in `dir`. */
async function startNginxOnce(upstreamPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-test-nginx-'));
  mkdirSync(join(dir, 'logs'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nginx = { child, dir, port, exited };
  // Ready once it accepts a connection; bounded, and an early exit says why.
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
      throw new Error(`nginx exited at start (${child.exitCode ?? child.signalCode}): ${stderr}${log}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return nginx;
    if (Date.now() > until) {
      await stopNginx(nginx);
      throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Graceful stop, then SIGKILL after 5 s; its folder goes too. */
async function stopNginx(nginx: Nginx): Promise<void> {
  if (nginx.child.exitCode === null && nginx.child.signalCode === null) {
    nginx.child.kill('SIGQUIT');
    const killed = setTimeout(() => nginx.child.kill('SIGKILL'), 5_000);
    await nginx.exited;
    clearTimeout(killed);
  }
  rmSync(nginx.dir, { recursive: true, force: true });
}

if (!existsSync(NGINX)) {
  throw new Error(
    `nginx is missing at ${NGINX}: run node scripts/ensure-tools.mjs (npm test does), or set NGINX_PATH.`,
  );
}

describe('behind nginx, with TRUST_PROXY=127.0.0.1', () => {
  let t: FormsTestApp | undefined;
  let nginx: Nginx | undefined;
  let appPort = 0;

  beforeAll(async () => {
    // Only the rate limit is exercised here, not the minimum fill time.
    t = await makeFormsApp({ TRUST_PROXY: '127.0.0.1', BENCH_DISABLE_FILL_TIME: 'true' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    appPort = (t.app.server.address() as AddressInfo).port;
    nginx = await startNginx(appPort);
  });

  afterAll(async () => {
    await Promise.allSettled([nginx && stopNginx(nginx), t?.app.close()]);
  });

  it('gives each visitor its own window: one using up the contact limit does not block another', async () => {
    const a = await postMany(CONTACT_LIMIT + 1, (i) =>
      postContact(nginx!.port, '127.0.0.2', {}, bodies.contact({ email: `a${i}@example.org` })),
    );
    expect(a).toEqual([200, 200, 200, 429]);
    const b = await postMany(CONTACT_LIMIT, () => postContact(nginx!.port, '127.0.0.3'));
    expect(b).toEqual([200, 200, 200]);
    expect(await postContact(nginx!.port, '127.0.0.3')).toBe(429);

    // What was stored is each visitor's own address (hashed), not the proxy's.
    const links = createLinks('https://www.sterling.test', SECRET);
    const rows = await t!.query<{ ip_hash: string }>('select ip_hash from submissions');
    const hashes = rows.map((r) => r.ip_hash);
    expect(hashes.filter((h) => h === links.hashAddress('127.0.0.2'))).toHaveLength(3);
    expect(hashes.filter((h) => h === links.hashAddress('127.0.0.3'))).toHaveLength(3);
    expect(hashes).not.toContain(links.hashAddress('127.0.0.1'));
  });

  it('ignores X-Forwarded-For from a client that is not the proxy, sent straight to the app', async () => {
    const statuses = await postMany(CONTACT_LIMIT + 1, (i) =>
      postContact(appPort, '127.0.0.9', { 'x-forwarded-for': `192.0.2.${i + 10}` }),
    );
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A longer forged chain fares no better.
    expect(await postContact(appPort, '127.0.0.9', { 'x-forwarded-for': '198.51.100.1, 127.0.0.1' })).toBe(
      429,
    );
  });

  it('counts a visitor who forges X-Forwarded-For through nginx by the address nginx saw', async () => {
    const statuses = await postMany(CONTACT_LIMIT + 1, (i) =>
      postContact(nginx!.port, '127.0.0.4', { 'x-forwarded-for': `192.0.2.${i + 20}, 127.0.0.1` }),
    );
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('TRUST_PROXY values as Fastify applies them', () => {
  const clientIp = async (trustProxy: string, remoteAddress: string, forwardedFor: string) => {
    const app = Fastify({
      trustProxy: loadConfig({ TRUST_PROXY: trustProxy, APP_SECRET: SECRET }).trustProxy,
    });
    app.get('/', async (request) => request.ip);
    try {
      const res = await app.inject({ url: '/', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
      return res.body;
    } finally {
      await app.close();
    }
  };

  it.each([
    ['10.0.0.0/8', '10.1.2.3', '203.0.113.1'],
    ['10.0.0.0/8', '::ffff:10.1.2.3', '203.0.113.1'],
    ['127.0.0.1, fd00::/8', 'fd00::5', '2001:db8::1'],
    ['2001:db8:ff::1', '2001:db8:ff::1', '203.0.113.1'],
  ])('TRUST_PROXY=%s: a request from the proxy %s counts as its client %s', async (trust, proxy, client) => {
    expect(await clientIp(trust, proxy, client)).toBe(client);
  });

  it('a request from outside the list counts as its own address', async () => {
    expect(await clientIp('10.0.0.0/8', '192.0.2.7', '203.0.113.1')).toBe('192.0.2.7');
    expect(await clientIp('127.0.0.1', '127.0.0.9', '203.0.113.1')).toBe('127.0.0.9');
  });
});
