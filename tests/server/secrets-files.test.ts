/**
 * What the server keeps in DATA_DIR: the generated secret when several processes start at once,
 * folders readable by their owner only, and no start-up notice about the embedded database's
 * durability now that it is PostgreSQL itself (decision 052). Real processes; the embedded
 * database where it is the subject, PostgreSQL elsewhere.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import { SECRET, createTestDatabase, postgresUnavailableReason } from './forms-support';

const pgUnavailable = await postgresUnavailableReason();
if (pgUnavailable) console.warn(`Skipping the notice test on Postgres: ${pgUnavailable}`);

/**
 * Bounds, not expectations (the tests' limits too): a server process starts in seconds, the
 * embedded database in a few more, and either takes minutes on a machine loaded by other work.
 */
const START_MS = 180_000;

const CONFIG_URL = pathToFileURL(join(process.cwd(), 'src/server/kit/config.ts')).href;
const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * A process that loads the configuration with no APP_SECRET at `startAt` (epoch ms), so that
 * processes started together all look for the secret file in the same instant; gives its secret.
 */
function loadSecretInProcess(
  dataDir: string,
  startAt: number,
  what: 'secret' | 'dkim' = 'secret',
): Promise<string> {
  const env = what === 'dkim' ? `, APP_SECRET: ${JSON.stringify(SECRET)}, DKIM_SELECTOR: 'mail'` : '';
  const read = what === 'dkim' ? '.dkim.privateKey' : '.appSecret';
  const code = `
    const { loadConfig } = await import(${JSON.stringify(CONFIG_URL)});
    while (Date.now() < ${startAt}) {}
    process.stdout.write(loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)}${env} })${read});
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (err += String(chunk)));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exited ${code}: ${err}`))));
  });
}

describe('the generated secret', () => {
  it('is the same for every process starting at once, and written whole with mode 0600', async () => {
    const dirs = [0, 1].map(() => join(mkdtempSync(join(tmpdir(), 'secret-race-')), 'data'));
    const startAt = Date.now() + 3000;
    const runs = dirs.map((dir) =>
      Promise.all(Array.from({ length: 6 }, () => loadSecretInProcess(dir, startAt))),
    );
    const results = await Promise.all(runs);
    for (const [i, secrets] of results.entries()) {
      const dir = dirs[i]!;
      const kept = readFileSync(join(dir, '.app-secret'), 'utf8');
      expect(Buffer.byteLength(kept)).toBeGreaterThanOrEqual(32);
      expect(new Set(secrets)).toEqual(new Set([kept]));
      expect(mode(join(dir, '.app-secret'))).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
      // No temporary file is left behind by the processes that lost the race.
      expect(readdirSync(dir)).toEqual(['.app-secret']);
    }
  });

  it('the DKIM key (decision 044) too: one key for every process starting at once, mode 0600', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'dkim-race-')), 'data');
    const startAt = Date.now() + 3000;
    const keys = await Promise.all(
      Array.from({ length: 4 }, () => loadSecretInProcess(dir, startAt, 'dkim')),
    );
    const kept = readFileSync(join(dir, '.dkim-private-key.pem'), 'utf8');
    expect(kept).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(new Set(keys)).toEqual(new Set([kept]));
    expect(mode(join(dir, '.dkim-private-key.pem'))).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['.dkim-private-key.pem']);
  });
});

describe('the embedded database folder', () => {
  // As root, the postgres user's group may pass through DATA_DIR (0710), never list or read it.
  const dataDirMode = process.getuid?.() === 0 ? 0o710 : 0o700;

  it('creates DATA_DIR and DATA_DIR/postgres readable by their owner only', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'private-dirs-'));
    // A parent the postgres user may pass through (as root), so the cluster is made in DATA_DIR;
    // behind a closed parent it goes outside it (embedded-postgres.test.ts).
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'data');
    const database = await openDatabase({ dataDir });
    try {
      expect(mode(dataDir)).toBe(dataDirMode);
      expect(mode(join(dataDir, 'postgres'))).toBe(0o700);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('tightens folders of its own that others may read', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'private-dirs-'));
    mkdirSync(join(dataDir, 'postgres'), { mode: 0o755 });
    chmodSync(join(dataDir, 'postgres'), 0o755);
    chmodSync(dataDir, 0o755);
    const database = await openDatabase({ dataDir });
    try {
      expect(mode(dataDir)).toBe(dataDirMode);
      expect(mode(join(dataDir, 'postgres'))).toBe(0o700);
    } finally {
      await database.close();
    }
  }, 240_000);
});

/** Starts src/server/root/main.ts and gives everything it wrote up to "Site ready", then stops it. */
async function startupOutput(env: Record<string, string>): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/root/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      APP_SECRET: SECRET,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'startup-notice-')),
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), START_MS);
      const read = (chunk: Buffer) => {
        out += String(chunk);
        // Fastify's own "listening" line comes after every start-up log line has been written.
        if (out.includes('Site ready at') && out.includes('Server listening at')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
    });
  } finally {
    // A child that has exited already (a failed start) is not waited for again.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
  return out;
}

const NOTICE = /never forces its writes to disk/;

describe('the start-up notice about the embedded database', () => {
  it('is not logged in production on the embedded PostgreSQL, which is durable', async () => {
    const out = await startupOutput({ NODE_ENV: 'production' });
    expect(out).toContain('Site ready at');
    expect(out).not.toMatch(NOTICE);
  }, 240_000);

  it('is not logged outside production', async () => {
    const out = await startupOutput({ NODE_ENV: 'test' });
    expect(out).toContain('Site ready at');
    expect(out).not.toMatch(NOTICE);
  }, 240_000);

  it.skipIf(pgUnavailable)(
    'is not logged on PostgreSQL',
    async () => {
      const database = await createTestDatabase('notice');
      try {
        const out = await startupOutput({ NODE_ENV: 'production', DATABASE_URL: database.url });
        expect(out).toContain('Site ready at');
        expect(out).not.toMatch(NOTICE);
      } finally {
        await database.drop();
      }
    },
    180_000,
  );
});

describe('the start-up warnings about settings left at their defaults', () => {
  const ESSENTIALS = ['SMTP_URL', 'OWNER_EMAIL', 'MAIL_FROM', 'PUBLIC_URL'];
  const warnings = (out: string) =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter(
        (entry) => entry.level === 40 && ESSENTIALS.some((name) => entry.msg.startsWith(`${name} is `)),
      );

  it('names each of SMTP_URL, OWNER_EMAIL, MAIL_FROM and PUBLIC_URL left unset in production, once', async () => {
    const out = await startupOutput({
      NODE_ENV: 'production',
      DATABASE_URL: (await createTestDatabase('warnings')).url,
      SMTP_URL: '',
      OWNER_EMAIL: '',
      MAIL_FROM: '',
      PUBLIC_URL: '',
    });
    expect(warnings(out).map((w) => w.msg.split(' ')[0])).toEqual(ESSENTIALS);
  }, 180_000);

  it('is silent when they are set, and outside production', async () => {
    const set = await startupOutput({
      NODE_ENV: 'production',
      DATABASE_URL: (await createTestDatabase('warnings')).url,
      SMTP_URL: 'smtp://127.0.0.1:2525',
      OWNER_EMAIL: 'owner@sterling.test',
      MAIL_FROM: 'hello@sterling.test',
      PUBLIC_URL: 'https://www.sterling.test',
    });
    expect(set).toContain('Site ready at');
    expect(warnings(set)).toEqual([]);
    const test = await startupOutput({
      NODE_ENV: 'test',
      DATABASE_URL: (await createTestDatabase('warnings')).url,
      SMTP_URL: '',
      OWNER_EMAIL: '',
    });
    expect(warnings(test)).toEqual([]);
  }, 540_000);
});
