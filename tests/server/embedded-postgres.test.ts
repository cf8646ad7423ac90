/**
 * The embedded database (decision 052): a real PostgreSQL of the server's own in DATA_DIR, durable,
 * reachable only through its socket, and never left running by a server that died.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { closedAncestor, placeCluster, ROOT_FALLBACK_BASE } from '../../src/server/kit/db/embedded-cluster';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/server/kit/db/embedded-postgres';
import { ConfigError } from '../../src/server/kit/data-dir-files';
import { until } from './forms-support';

const isRoot = process.getuid?.() === 0;
const started: EmbeddedPostgres[] = [];
const folders: string[] = [];

function dataDirIn(parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, 'embedded-pg-'));
  folders.push(dir);
  return dir;
}

async function start(dataDir: string, options: Parameters<typeof startEmbeddedPostgres>[1] = {}) {
  const database = await startEmbeddedPostgres(dataDir, options);
  started.push(database);
  return database;
}

async function query<T extends pg.QueryResultRow>(
  database: EmbeddedPostgres,
  text: string,
  values: unknown[] = [],
) {
  const client = new pg.Client(database.connection());
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Whether a process runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid PostgreSQL's lock file names. */
const postmasterPid = (clusterDir: string) =>
  Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL', () => {
  it('is made in DATA_DIR, durable, on a socket only, and stopped on request', async () => {
    const dataDir = dataDirIn();
    const database = await start(dataDir);
    expect(database.clusterDir).toBe(join(dataDir, 'postgres'));
    expect(database.socketDir).toBe(database.clusterDir);
    const [settings] = await query<Record<string, string>>(
      database,
      `select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync,
              current_setting('full_page_writes') as fpw, current_setting('listen_addresses') as listen,
              current_setting('data_directory') as dir, current_setting('server_version_num') as version,
              current_database() as db`,
    );
    expect(settings).toEqual({
      fsync: 'on',
      sync: 'on',
      fpw: 'on',
      listen: '',
      dir: database.clusterDir,
      version: expect.stringMatching(/^17\d{4}$/),
      db: 'site',
    });
    // The cluster is its user's alone; DATA_DIR lets nobody else in (the postgres group passes through as root).
    expect(statSync(database.clusterDir).mode & 0o777).toBe(0o700);
    expect(statSync(dataDir).mode & 0o777).toBe(isRoot ? 0o710 : 0o700);
    const pid = database.pid;
    expect(alive(pid)).toBe(true);
    await database.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(database.clusterDir, 'postmaster.pid'))).toBe(false);
    // Started again on the same folder: the rows written before are there.
    const again = await start(dataDir);
    await query(again, 'create table kept (n int)');
    await query(again, 'insert into kept values (42)');
    await again.stop();
    const third = await start(dataDir);
    expect(await query(third, 'select n from kept')).toEqual([{ n: 42 }]);
    await third.stop();
  });

  it('stops within seconds when its server is killed with SIGKILL, and the next start recovers', async () => {
    const dataDir = dataDirIn();
    // A server of its own: a process that starts the database and waits to be killed.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(
          join(process.cwd(), 'src/server/kit/db/embedded-postgres.ts'),
        )});
         const d = await startEmbeddedPostgres(process.argv[1]);
         console.log('ready ' + d.pid);
         setInterval(() => {}, 1000);`,
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += String(chunk)));
    const pid = await until(() => Number(/ready (\d+)/.exec(out)?.[1]) || undefined, 60_000);
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    // The supervisor sees its pipe close and asks for a fast shutdown.
    await until(() => !alive(pid), 15_000);
    const database = await start(dataDir);
    expect(await query(database, 'select 1 as one')).toEqual([{ one: 1 }]);
    await database.stop();
  });

  it('is started again by the server when it dies by itself, and recovers a lock file left by a crash', async () => {
    const dataDir = dataDirIn();
    const warnings: string[] = [];
    const database = await start(dataDir, { warn: (message) => warnings.push(message) });
    await query(database, 'create table kept (n int)');
    await query(database, 'insert into kept values (7)');
    const first = database.pid;
    process.kill(first, 'SIGKILL');
    // Its lock file stays behind, naming a process that is gone: PostgreSQL recovers it.
    expect(existsSync(join(database.clusterDir, 'postmaster.pid'))).toBe(true);
    await until(() => database.pid !== first && alive(database.pid), 60_000);
    expect(warnings).toContain('the embedded database stopped by itself: starting it again');
    expect(await query(database, 'select n from kept')).toEqual([{ n: 7 }]);
    await database.stop();
  });

  it('refuses a folder whose database another server still uses, with a sentence', async () => {
    const dataDir = dataDirIn();
    const database = await start(dataDir);
    const error = await startEmbeddedPostgres(dataDir, { previousStopWaitMs: 500 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('Another server is using the database in');
    expect((error as Error).message).toContain('two servers cannot share one DATA_DIR');
    // The first is untouched.
    expect(alive(postmasterPid(database.clusterDir))).toBe(true);
    await database.stop();
  });

  it('makes the cluster again when a first start stopped in the middle of initdb', async () => {
    const dataDir = dataDirIn();
    mkdirSync(join(dataDir, 'postgres.initdb'), { recursive: true });
    writeFileSync(join(dataDir, 'postgres.initdb', 'PG_VERSION'), '17\n');
    const database = await start(dataDir);
    expect(await query(database, 'select 1 as one')).toEqual([{ one: 1 }]);
    expect(existsSync(join(dataDir, 'postgres.initdb'))).toBe(false);
    await database.stop();
  });

  it.runIf(isRoot)(
    'lives outside DATA_DIR, and says so, when the postgres user cannot reach it (root)',
    async () => {
      // A checkout under a folder only root may enter, as /root is.
      const closed = mkdtempSync(join(tmpdir(), 'closed-'));
      folders.push(closed);
      const dataDir = join(closed, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const messages: string[] = [];
      const database = await start(dataDir, { log: (message) => messages.push(message) });
      try {
        expect(database.clusterDir.startsWith(join(ROOT_FALLBACK_BASE, 'clusters'))).toBe(true);
        expect(messages).toContain(
          'The embedded database lives outside DATA_DIR: the postgres user cannot reach a folder above it',
        );
        expect(readFileSync(join(dataDir, 'postgres-location.txt'), 'utf8').split('\n')[0]).toBe(
          database.clusterDir,
        );
        expect(await query(database, 'select current_setting($1) as fsync', ['fsync'])).toEqual([
          { fsync: 'on' },
        ]);
        await query(database, 'create table kept (n int)');
        await database.stop();
        // The next start finds the same database.
        const again = await start(dataDir);
        expect(again.clusterDir).toBe(database.clusterDir);
        expect(await query(again, 'select count(*)::int as n from kept')).toEqual([{ n: 0 }]);
        await again.stop();
        // A DATA_DIR made again at the same path gets a new one, never the old rows.
        rmSync(dataDir, { recursive: true });
        mkdirSync(dataDir, { mode: 0o700 });
        const fresh = await start(dataDir);
        expect(fresh.clusterDir).not.toBe(database.clusterDir);
        await fresh.stop();
        rmSync(fresh.clusterDir, { recursive: true, force: true });
      } finally {
        await database.stop();
        rmSync(database.clusterDir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(isRoot)(
    'copies the binaries for the postgres user when they are installed where it cannot reach (root)',
    async () => {
      // An install under a folder only root may enter, as a checkout under /root is.
      const closed = mkdtempSync(join(tmpdir(), 'closed-install-'));
      folders.push(closed);
      const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
        postgres: string;
      };
      const installed = join(postgres, '..', '..', '..');
      const pkg = join(closed, 'pkg');
      cpSync(installed, pkg, { recursive: true, verbatimSymlinks: true });
      const binaries = {
        initdb: join(pkg, 'native', 'bin', 'initdb'),
        postgres: join(pkg, 'native', 'bin', 'postgres'),
        nativeDir: join(pkg, 'native'),
      };
      const placed = placeCluster(dataDirIn(), binaries, () => {});
      expect(placed.binaries.nativeDir.startsWith(ROOT_FALLBACK_BASE)).toBe(true);
      expect(existsSync(placed.binaries.postgres)).toBe(true);
      // The postgres user can run the copy.
      const version = execFileSync(
        'runuser',
        ['-u', 'postgres', '--', placed.binaries.postgres, '--version'],
        {
          encoding: 'utf8',
        },
      );
      expect(version).toMatch(/PostgreSQL\) 17\./);
    },
  );

  it('tells which folder on a path is closed to a user', () => {
    const parent = dataDirIn();
    const inner = join(parent, 'inner');
    mkdirSync(inner, { mode: 0o755 });
    const stranger = { uid: 65_000, gid: 65_000 };
    // mkdtemp makes its folder 0700: a stranger stops there.
    expect(closedAncestor(inner, stranger, new Set([65_000]))).toBe(parent);
    expect(closedAncestor(tmpdir(), stranger, new Set([65_000]))).toBeUndefined();
  });
});
