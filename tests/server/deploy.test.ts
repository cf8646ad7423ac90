/**
 * The production recipe (deploy/, README "Going live"), checked with the tools it names:
 * - the systemd unit verifies with `systemd-analyze verify` (no warning at all) and rates "OK" or
 *   better in `systemd-analyze security`, with the hardening the recipe promises;
 * - the Caddy site file validates with `caddy validate`, and a real Caddy run from it (its
 *   internal certificate authority standing in for Let's Encrypt, the domain renamed) serves the
 *   site over HTTPS from the server on loopback with TRUST_PROXY=127.0.0.1: each visitor
 *   (connecting from 127.0.0.2 and .3) gets a rate-limit window of their own, a forged
 *   X-Forwarded-For gets none, and www redirects to the domain;
 * - the environment file made by scripts/deploy-env.mjs is one the server accepts as a live
 *   site's, and bad answers are refused with a sentence;
 * - `ensure-build.mjs --check` (the unit's ExecStartPre) refuses a build made for another
 *   PUBLIC_URL and builds nothing.
 * `npm test` installs caddy first (scripts/ensure-tools.mjs).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployEnv } from '../../scripts/deploy-env.mjs';
import { createLinks } from '../../src/server/kit/http/links';
import { loadConfig } from '../../src/server/kit/config';
import { SECRET, bodies, makeFormsApp, type FormsTestApp } from './forms-support';
import { freePort } from './free-port';

const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';
const UNIT = 'deploy/sterling-sats.service';
const CADDYFILE = 'deploy/Caddyfile';
const CONTACT_LIMIT = 3; // contact messages per client per 5 minutes
const DOMAIN = 'sterling.test';

if (!existsSync(CADDY)) {
  throw new Error(
    `caddy is missing at ${CADDY}: run node scripts/ensure-tools.mjs (npm test does), or set CADDY_PATH.`,
  );
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { encoding: 'utf8', env, timeout: 60_000 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

describe('the systemd unit', () => {
  it('verifies without a single warning', () => {
    const { status, output } = run('systemd-analyze', ['verify', UNIT]);
    expect(output).toBe('');
    expect(status).toBe(0);
  });

  it('is hardened as the recipe says, and systemd rates its exposure OK', () => {
    const unit = readFileSync(UNIT, 'utf8');
    for (const line of [
      'User=sterling',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/sterling-sats',
      'StateDirectoryMode=0700',
      'Restart=on-failure',
      'KillMode=mixed',
      'ExecStartPre=/usr/bin/node scripts/ensure-build.mjs --check',
    ]) {
      expect(unit.split('\n'), line).toContain(line);
    }
    const { output } = run('systemd-analyze', ['security', '--offline=yes', '--no-pager', UNIT]);
    const level = /Overall exposure level for \S+: ([\d.]+) (\w+)/.exec(output);
    expect(level, output.slice(-400)).not.toBeNull();
    expect(Number(level![1])).toBeLessThanOrEqual(3.0);
  });

  it('fails verification when a key is misspelt (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deploy-unit-'));
    try {
      const bad = join(dir, 'sterling-sats.service');
      writeFileSync(bad, readFileSync(UNIT, 'utf8').replace('NoNewPrivileges=yes', 'NoNewPrivilege=yes'));
      expect(run('systemd-analyze', ['verify', bad]).output).toContain("Unknown key 'NoNewPrivilege'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** An HTTPS request to Caddy on 127.0.0.1:`port` for `host`, from `localAddress`, trusting `ca`. */
function httpsCall(
  o: { port: number; ca: string; host: string; localAddress: string },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: o.port,
        servername: o.host,
        ca: o.ca,
        localAddress: o.localAddress,
        method,
        path,
        agent: false,
        timeout: 10_000,
        headers: {
          host: o.host,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from Caddy on ${o.port} within 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

describe('caddy validate', () => {
  it('accepts the site file as shipped', () => {
    const { status, output } = run(CADDY, ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile']);
    expect(output).toContain('Valid configuration');
    expect(status).toBe(0);
  });
});

describe('HTTPS through Caddy to the server on loopback, TRUST_PROXY=127.0.0.1', () => {
  let t: FormsTestApp | undefined;
  let caddy: ChildProcess | undefined;
  let exited: Promise<void> | undefined;
  let dir = '';
  let ca = '';
  let httpsPort = 0;

  beforeAll(async () => {
    // Only the rate limit is exercised here, not the minimum fill time.
    t = await makeFormsApp({ TRUST_PROXY: '127.0.0.1', BENCH_DISABLE_FILL_TIME: 'true' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const appPort = (t.app.server.address() as AddressInfo).port;

    // The shipped site file, with the test's domain and ports, Caddy's own certificate
    // authority instead of Let's Encrypt, and its state and logs in a folder of the test's.
    dir = mkdtempSync(join(tmpdir(), 'deploy-caddy-'));
    mkdirSync(join(dir, 'data'));
    httpsPort = await freePort();
    const httpPort = await freePort();
    const site = readFileSync(CADDYFILE, 'utf8')
      .replaceAll('example.co.uk', DOMAIN)
      .replace('reverse_proxy 127.0.0.1:3000', `reverse_proxy 127.0.0.1:${appPort}`)
      .replace('/var/log/caddy/sterling-sats.log', join(dir, 'access.log'));
    expect(site).not.toContain('example.co.uk');
    expect(site).toContain(`reverse_proxy 127.0.0.1:${appPort} {`);
    writeFileSync(
      join(dir, 'Caddyfile'),
      `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n\tstorage file_system ${join(dir, 'data')}\n}\n\n${site}`,
    );
    caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'xdg'), XDG_CONFIG_HOME: join(dir, 'xdg') },
    });
    let stderr = '';
    caddy.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    exited = new Promise((resolve) => caddy!.once('exit', () => resolve()));
    // Ready once its certificate authority has issued the site's certificate and it answers.
    const rootCert = join(dir, 'data', 'pki', 'authorities', 'local', 'root.crt');
    const until = Date.now() + 30_000;
    for (;;) {
      if (caddy.exitCode !== null) throw new Error(`caddy exited at start: ${stderr.slice(-2000)}`);
      if (existsSync(rootCert)) {
        ca = readFileSync(rootCert, 'utf8');
        const ok = await httpsCall(
          { port: httpsPort, ca, host: DOMAIN, localAddress: '127.0.0.1' },
          'GET',
          '/healthz',
        )
          .then((a) => a.status === 200)
          .catch(() => false);
        if (ok) break;
      }
      if (Date.now() > until)
        throw new Error(`caddy did not serve ${DOMAIN} within 30 s: ${stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      caddy.kill('SIGTERM');
      const killed = setTimeout(() => caddy!.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killed);
    }
    await t?.app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const from = (localAddress: string) => ({ port: httpsPort, ca, host: DOMAIN, localAddress });

  it('serves the site over HTTPS with a certificate for the domain', async () => {
    const home = await httpsCall(from('127.0.0.2'), 'GET', '/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('<html');
    const ready = await httpsCall(from('127.0.0.2'), 'GET', '/readyz');
    expect(ready.status).toBe(200);
  });

  it('redirects www to the domain', async () => {
    const www = await httpsCall({ ...from('127.0.0.2'), host: `www.${DOMAIN}` }, 'GET', '/about?x=1');
    expect(www.status).toBe(301);
    expect(www.headers.location).toBe(`https://${DOMAIN}/about?x=1`);
  });

  it('gives each visitor a rate-limit window of their own, by the address Caddy saw', async () => {
    const send = (address: string, i: number, headers: Record<string, string> = {}) =>
      httpsCall(
        from(address),
        'POST',
        '/api/send-contact-email',
        headers,
        bodies.contact({ email: `c${i}@example.org` }),
      ).then((a) => a.status);
    const a: number[] = [];
    for (let i = 0; i < CONTACT_LIMIT + 1; i += 1) a.push(await send('127.0.0.2', i));
    expect(a).toEqual([200, 200, 200, 429]);
    // Another visitor is not held back, and one forging X-Forwarded-For is counted as itself.
    const b: number[] = [];
    for (let i = 0; i < CONTACT_LIMIT + 1; i += 1)
      b.push(await send('127.0.0.3', 10 + i, { 'x-forwarded-for': `192.0.2.${i + 1}` }));
    expect(b).toEqual([200, 200, 200, 429]);

    const links = createLinks('https://www.sterling.test', SECRET);
    const hashes = (await t!.query<{ ip_hash: string }>('select ip_hash from submissions')).map(
      (r) => r.ip_hash,
    );
    expect(hashes.filter((h) => h === links.hashAddress('127.0.0.2'))).toHaveLength(3);
    expect(hashes.filter((h) => h === links.hashAddress('127.0.0.3'))).toHaveLength(3);
    expect(hashes).not.toContain(links.hashAddress('127.0.0.1'));
    expect(hashes).not.toContain(links.hashAddress('192.0.2.1'));
  });

  it('logs no visitor address or query string', async () => {
    await httpsCall(from('127.0.0.2'), 'GET', '/?email=someone%40example.org');
    const log = existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : '';
    expect(log).toContain('"uri":"/"');
    expect(log).not.toContain('127.0.0.2');
    expect(log).not.toContain('someone');
  });
});

describe('the live environment file (scripts/deploy-env.mjs)', () => {
  it('is one the server accepts as a live site’s, with a secret of its own', () => {
    const made = deployEnv(
      {
        domain: 'Example.co.uk',
        owner: 'sam@example.co.uk',
        name: 'Sam Smith',
        smtp: 'smtps://u:p@relay.example:465',
      },
      'x'.repeat(64),
    );
    expect(made.error).toBeUndefined();
    const env = Object.fromEntries(
      made
        .text!.split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const config = loadConfig({ ...env, DATA_DIR: tmpdir() });
    expect(config).toMatchObject({
      env: 'production',
      publicUrl: 'https://example.co.uk',
      https: true,
      host: '127.0.0.1',
      port: 3000,
      mailFrom: 'hello@example.co.uk',
      ownerEmail: 'sam@example.co.uk',
      essentialsAtDefault: [],
    });
    // Two files, two secrets.
    const secretOf = (text: string) => /^APP_SECRET=(.+)$/m.exec(text)![1]!;
    const one = deployEnv({ domain: 'example.co.uk', owner: 'sam@example.co.uk' }).text!;
    const two = deployEnv({ domain: 'example.co.uk', owner: 'sam@example.co.uk' }).text!;
    expect(secretOf(one).length).toBeGreaterThanOrEqual(64);
    expect(secretOf(one)).not.toBe(secretOf(two));
  });

  it.each([
    [{ domain: 'localhost', owner: 'a@b.co' }, 'is not a domain name'],
    [{ domain: 'example.co.uk', owner: '' }, 'owner’s e-mail address'],
    [{ domain: 'example.co.uk', owner: 'a@b.co', smtp: 'http://relay' }, 'smtp://'],
    [{ domain: 'example.co.uk', owner: 'a@b.co', name: 'Sam\nNODE_ENV=development' }, 'one line'],
    [{ domain: 'example.co.uk\nNODE_ENV=development', owner: 'a@b.co' }, 'is not a domain name'],
  ])('refuses %j with a sentence', (answers, words) => {
    const made = deployEnv(answers);
    expect(made.text).toBeUndefined();
    expect(made.error).toContain(words);
  });
});

describe('ensure-build --check, before the service starts', () => {
  it('refuses a build made for another PUBLIC_URL, and builds nothing', () => {
    const stampFile = join(process.cwd(), 'build', 'build-stamp.json');
    expect(existsSync(stampFile), 'the tests run after the build').toBe(true);
    const before = readFileSync(stampFile, 'utf8');
    const { status, output } = run(process.execPath, ['scripts/ensure-build.mjs', '--check'], {
      ...process.env,
      PUBLIC_URL: 'https://another.example',
    });
    expect(status).toBe(1);
    expect(output).toContain('The build is out of date (build settings changed)');
    expect(readFileSync(stampFile, 'utf8')).toBe(before);
  });
});
