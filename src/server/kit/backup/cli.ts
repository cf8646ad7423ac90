/**
 * `npm run backup` and `npm run restore` (decision 057), run on the server's machine with the
 * server's settings, as the server's user. The database is the server's: through its socket when
 * the server runs on the embedded one, or started for the command when it does not; or the
 * PostgreSQL at DATABASE_URL.
 *
 * - `npm run backup` takes, verifies and records a backup, prunes, and copies it off the machine.
 *   `npm run backup -- --new-key` prints a new age key pair for encrypted backups.
 * - `npm run restore -- <backup>` restores into a new database (never over the live one), counts
 *   every table against the manifest, and starts a sandbox server on it (another port; no e-mail,
 *   calendar or alert) until Ctrl-C. `npm run restore -- --activate <database>` makes a restored
 *   database the live one, with the server stopped, and keeps the one it replaces.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import pg from 'pg';
import type { Config } from '../config';
import { adminConnection, MIGRATIONS_DIR } from '../db/client';
import { EMBEDDED_DATABASE, reachEmbeddedPostgres } from '../db/embedded-postgres';
import { currentRelease } from '../release';
import { BackupDamaged, BACKUP_NAME, backupBytes, readManifest } from './manifest';
import { readKeptFile, restoreBackup, RestoreRefused } from './restore';
import { pruneBackups, runCopy, sameServer } from './service';
import { listBackups, takeBackup } from './take';

type Reached = {
  driver: 'embedded' | 'postgres';
  connection: pg.ClientConfig;
  admin: pg.ClientConfig;
  /** The live database's name. */
  live: string;
  /** The server is known to be running on it (the embedded cluster is up). */
  serverRunning: boolean;
  stop(): Promise<void>;
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The server's database, for a command beside it. */
export async function reachDatabase(
  config: Config,
  say: (line: string) => void = () => {},
): Promise<Reached> {
  if (config.databaseUrl) {
    return {
      driver: 'postgres',
      connection: { connectionString: config.databaseUrl },
      admin: adminConnection(config.databaseUrl),
      live: decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1)),
      serverRunning: false,
      stop: async () => {},
    };
  }
  const reached = await reachEmbeddedPostgres(config.dataDir, { log: (message) => say(message) });
  return {
    driver: 'embedded',
    connection: reached.connection(),
    admin: reached.connection('postgres'),
    live: EMBEDDED_DATABASE,
    serverRunning: reached.serverRunning,
    stop: reached.stop,
  };
}

async function withClient<T>(config: pg.ClientConfig, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** `npm run backup`: one backup now; the lines it says. */
export async function backupCommand(config: Config, say: (line: string) => void): Promise<void> {
  const db = await reachDatabase(config, say);
  try {
    const { dir, manifest } = await takeBackup({
      connection: db.connection,
      driver: db.driver,
      backupsDir: config.backup.dir,
      dataDir: config.dataDir,
      reason: 'on demand',
      release: currentRelease(),
      migrationsFolder: MIGRATIONS_DIR,
      recipient: config.backup.recipient,
    });
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    // Recorded as the console's are, so the schedule and the System page count it.
    await withClient(db.connection, (client) =>
      client.query(
        `insert into backup_runs (kind, reason, finished_at, ok, backup, bytes) values ('backup', 'on demand', now(), true, $1, $2)`,
        [manifest.name, backupBytes(manifest)],
      ),
    ).catch(() => {});
    say(
      `Backup ${manifest.name} taken and verified in ${manifest.seconds.toFixed(1)} s: ${manifest.tables.length} tables, ${rows} rows, ${megabytes(backupBytes(manifest))}${manifest.encryptedTo ? ', encrypted' : ''}, in ${dir}.`,
    );
    for (const name of pruneBackups(config.backup)) say(`Removed ${name} (the keep rules let it go).`);
    if (config.backup.copyCommand) {
      const copy = await runCopy(config.backup.copyCommand, config.backup.copyEnv, dir, manifest.name);
      await withClient(db.connection, (client) =>
        client.query(
          `insert into backup_runs (kind, finished_at, ok, backup, detail) values ('copy', now(), $1, $2, $3)`,
          [copy.ok, manifest.name, copy.detail],
        ),
      ).catch(() => {});
      say(
        copy.ok
          ? 'Copied off the machine by BACKUP_COPY_COMMAND.'
          : `Not copied off the machine: ${copy.detail}`,
      );
      if (!copy.ok) process.exitCode = 1;
    }
  } finally {
    await db.stop();
  }
}

/** A new age key pair, with what to do with each half. */
export async function newKeyCommand(say: (line: string) => void): Promise<void> {
  const { generateX25519Identity, identityToRecipient } = await import('age-encryption');
  const identity = await generateX25519Identity();
  say('# The secret key of your backups. Keep it OFF this server (a password manager, a printed copy):');
  say('# without it no encrypted backup can be restored.');
  say(identity);
  say('# Put this line in the environment file (/etc/sterling-sats/env) and restart the server:');
  say(`BACKUP_AGE_RECIPIENT=${await identityToRecipient(identity)}`);
}

/** The backup a restore names: a folder, a name in BACKUP_DIR, or `latest`. */
export function findBackup(config: Config, which: string): string {
  if (which === 'latest') {
    const newest = listBackups(config.backup.dir)[0];
    if (!newest) throw new RestoreRefused(`There is no backup in ${config.backup.dir}.`);
    return join(config.backup.dir, newest);
  }
  if (BACKUP_NAME.test(which) && existsSync(join(config.backup.dir, which)))
    return join(config.backup.dir, which);
  const path = isAbsolute(which) ? which : resolve(which);
  if (!existsSync(path)) {
    throw new RestoreRefused(
      `No backup named ${which}: give its folder, its name in ${config.backup.dir}, or latest.`,
    );
  }
  return path;
}

/** The age secret key in `file` (the `age-keygen` format: comments, then the key). */
export function readIdentity(file: string): string {
  const key = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('AGE-SECRET-KEY-'));
  if (!key) throw new RestoreRefused(`${file} holds no age secret key (a line AGE-SECRET-KEY-1…).`);
  return key;
}

export type RestoreArgs = { backup: string; identityFile?: string; port: number; sandbox: boolean };

/**
 * `npm run restore -- <backup>`: restores into a new database and, unless told not to, serves it
 * in a sandbox until Ctrl-C. Returns the new database's name.
 */
export async function restoreCommand(
  config: Config,
  args: RestoreArgs,
  say: (line: string) => void,
): Promise<string> {
  const dir = findBackup(config, args.backup);
  const identityFile = args.identityFile ?? config.backup.identityFile;
  const identity = identityFile ? readIdentity(identityFile) : undefined;
  const manifest = readManifest(dir);
  const name = `restored_${manifest.name.slice('backup-'.length, 'backup-'.length + 19).replace(/[^0-9]/g, '')}_${Date.now() % 100000}`;
  const db = await reachDatabase(config, say);
  try {
    const target = db.driver === 'embedded' ? { ...db.admin, database: name } : sameServer(db.admin, name);
    say(`Verifying ${manifest.name} and restoring it into a new database, ${name}…`);
    const result = await restoreBackup({
      backupDir: dir,
      admin: db.admin,
      target,
      migrationsFolder: MIGRATIONS_DIR,
      identity,
    });
    await withClient(db.admin, (client) =>
      client.query(
        `comment on database ${ident(name)} is ${pg.escapeLiteral(`restored from ${manifest.name}`)}`,
      ),
    );
    for (const count of result.counts)
      say(`  ${count.table}: ${count.found} rows (the backup: ${count.expected})`);
    say(
      `Restored in ${result.seconds.toFixed(1)} s; every table's count equals the backup's. The live database was not touched.`,
    );
    if (args.sandbox) await serveSandbox(config, db, target, args.port, say);
    say(`To make it the live database: stop the server, then run  npm run restore -- --activate ${name}`);
    return name;
  } finally {
    await db.stop();
  }
}

/** The connection string of a database of the embedded cluster (its socket) or of the server. */
function urlOf(target: pg.ClientConfig & { database: string }): string {
  if (target.connectionString) return target.connectionString;
  const params = new URLSearchParams({ host: String(target.host) });
  return `postgres://${encodeURIComponent(String(target.user))}@localhost:${target.port}/${encodeURIComponent(target.database)}?${params}`;
}

/** A server on the restored database, on another port, sending nothing, until Ctrl-C. */
async function serveSandbox(
  config: Config,
  db: Reached,
  target: pg.ClientConfig & { database: string },
  port: number,
  say: (line: string) => void,
): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'restore-sandbox-'));
  const { serverArgs } = await import('../../../../scripts/start-command.mjs');
  const env: Record<string, string> = {
    PATH: config.backup.copyEnv.PATH ?? '/usr/bin:/bin',
    NODE_ENV: config.env,
    SANDBOX: 'true',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: config.publicUrl,
    BUILD_DIR: config.buildDir,
    DATA_DIR: scratch,
    DATABASE_URL: urlOf(target),
    APP_SECRET: config.appSecret,
    OWNER_EMAIL: config.ownerEmail,
    OWNER_EMAILS: config.ownerEmails.join(','),
    MAIL_FROM: config.mailFrom,
    BACKUP_HOUR: 'off',
    LOG_LEVEL: 'warn',
  };
  say(
    `Starting a sandbox on http://127.0.0.1:${port}: it sends no e-mail, fetches no calendar and pushes no alert.`,
  );
  say(
    `Sign in to its console with: npm run owner:link, then open the link with http://127.0.0.1:${port} in place of ${config.publicUrl}. Ctrl-C stops it.`,
  );
  const child = spawn(process.execPath, serverArgs(), { env, stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise<void>((done) => child.once('exit', () => done()));
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  rmSync(scratch, { recursive: true, force: true });
  void db;
}

/**
 * `npm run restore -- --activate <database>`: the restored database becomes the live one, and the
 * live one is kept under another name. Only with the server stopped.
 */
export async function activateCommand(
  config: Config,
  database: string,
  say: (line: string) => void,
): Promise<void> {
  const db = await reachDatabase(config, say);
  try {
    if (db.serverRunning) {
      throw new RestoreRefused(
        'The server is running on this database: stop it first (sudo systemctl stop sterling-sats), then activate, then start it.',
      );
    }
    const kept = `${db.live}_before_${new Date()
      .toISOString()
      .replace(/[^0-9]/g, '')
      .slice(0, 14)}`;
    await withClient(db.admin, async (client) => {
      const found = await client.query<{ comment: string | null }>(
        `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
        [database],
      );
      if (found.rowCount === 0) throw new RestoreRefused(`There is no database named ${database}.`);
      if (database === db.live) throw new RestoreRefused(`${database} is the live database already.`);
      const others = await client.query<{ n: string }>(
        `select count(*)::text as n from pg_stat_activity where datname = any($1) and pid <> pg_backend_pid()`,
        [[db.live, database]],
      );
      if (Number(others.rows[0]!.n) > 0) {
        throw new RestoreRefused(
          `${others.rows[0]!.n} connection(s) are open to ${db.live} or ${database}: stop the server (and any sandbox) first.`,
        );
      }
      await client.query(`alter database ${ident(db.live)} rename to ${ident(kept)}`);
      await client.query(`alter database ${ident(database)} rename to ${ident(db.live)}`);
      const from = /^restored from (backup-[\w-]+)$/.exec(found.rows[0]!.comment ?? '')?.[1];
      if (from) await restoreKeptFiles(config, from, say);
    });
    say(`${database} is now the live database (${db.live}). The one it replaced is kept as ${kept}.`);
    say(`To go back: stop the server, then run  npm run restore -- --activate ${kept}`);
  } finally {
    await db.stop();
  }
}

/** The secret and DKIM key of the backup, put back in DATA_DIR where none is there now. */
async function restoreKeptFiles(config: Config, backup: string, say: (line: string) => void): Promise<void> {
  const dir = join(config.backup.dir, backup);
  if (!existsSync(dir)) return;
  const manifest = readManifest(dir);
  const identity = config.backup.identityFile ? readIdentity(config.backup.identityFile) : undefined;
  for (const part of manifest.files) {
    const file = join(config.dataDir, part.name);
    if (existsSync(file) || (manifest.encryptedTo && !identity)) continue;
    writeFileSync(file, await readKeptFile(dir, part, identity), { mode: 0o600, flag: 'wx' });
    say(`Put back ${part.name} in ${config.dataDir} from the backup.`);
  }
}

/** The sentence of an error a command ends with, or undefined when it is not one of ours. */
export function commandRefusal(error: unknown): string | undefined {
  if (error instanceof BackupDamaged || error instanceof RestoreRefused) return error.message;
  return undefined;
}
