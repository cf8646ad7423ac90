/**
 * `npm run backup` and `npm run restore` as the owner runs them (decision 057), on PostgreSQL:
 * a backup; a damaged copy refused with a sentence naming the part; a restore into a new database
 * served in a sandbox that sends no e-mail; activation, refused while the server runs on the
 * database and then switching it, with every row count equal and the replaced database kept.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { listBackups } from '../../src/server/kit/backup/take';
import { readManifest } from '../../src/server/kit/backup/manifest';
import { onServer } from './database-server';
import { freePort } from './free-port';
import { bodies, createTestDatabase, makeFormsApp, SECRET, until } from './forms-support';

const folders: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  folders.push(dir);
  return dir;
};
const databases: string[] = [];
afterAll(async () => {
  for (const name of databases) await onServer(`drop database if exists "${name}" with (force)`);
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

type Run = { code: number | null; out: string; err: string };

/** Runs `npm run <script>` as the owner does (node with tsx), with the server's settings. */
function command(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    env: { ...process.env, APP_SECRET: SECRET, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<Run>((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
  return { child, done, output: () => out };
}

async function counts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string }>(
      `select format('%I.%I', n.nspname, c.relname) as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`,
    );
    const out: Record<string, number> = {};
    for (const { t } of rows)
      out[t] = Number((await client.query(`select count(*) from ${t}`)).rows[0].count);
    return out;
  } finally {
    await client.end();
  }
}

describe('npm run backup and npm run restore', () => {
  it('backs up, refuses a damaged copy, restores into a sandbox that sends nothing, and activates', async () => {
    const live = await createTestDatabase('restore_live');
    const liveName = new URL(live.url).pathname.slice(1);
    const dataDir = tempDir('restore-data');
    const backupsDir = tempDir('restore-backups');
    const env = { DATABASE_URL: live.url, DATA_DIR: dataDir, BACKUP_DIR: backupsDir };

    const t = await makeFormsApp({ DATABASE_URL: live.url }, { dataDir });
    expect((await t.post(bodies.contact())).statusCode).toBe(200);
    await t.app.close();
    // An e-mail still waiting when the backup is taken.
    const writer = new pg.Client({ connectionString: live.url });
    await writer.connect();
    await writer.query(
      `update outbox set status = 'pending', next_attempt_at = now() where id = (select min(id) from outbox)`,
    );
    await writer.end();
    const before = await counts(live.url);

    const backup = await command('backup', [], env).done;
    expect(backup.code).toBe(0);
    const [name] = listBackups(backupsDir);
    expect(backup.out).toContain(`Backup ${name} taken and verified`);
    // The backup's counts are the database's before it (the command then records its run).
    const backedUp = Object.fromEntries(
      readManifest(join(backupsDir, name!)).tables.map((table) => [
        `${table.schema}.${table.name}`,
        table.rows,
      ]),
    );
    expect(backedUp).toEqual(before);
    const liveAfter = await counts(live.url);

    // A damaged copy is refused before anything is made.
    const damaged = join(tempDir('damaged'), name!);
    cpSync(join(backupsDir, name!), damaged, { recursive: true });
    const part = join(damaged, 'tables', 'public.outbox.copy.gz');
    writeFileSync(part, Buffer.concat([readFileSync(part), Buffer.from('x')]));
    const refused = await command('restore', [damaged, '--no-sandbox'], env).done;
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toMatch(
      new RegExp(
        `^The backup ${name} is damaged: tables/public\\.outbox\\.copy\\.gz \\(the table public\\.outbox\\) is \\d+ bytes long where \\d+ were written\\. Nothing was restored from it; use another backup\\.$`,
      ),
    );

    // Restored and served in a sandbox: it answers, and the waiting e-mail stays waiting.
    const port = await freePort();
    const restore = command('restore', ['latest', '--port', String(port)], env);
    await until(async () => (restore.output().includes('Starting a sandbox') ? true : undefined), 120_000);
    const restored = /into a new database, (restored_\w+)/.exec(restore.output())![1]!;
    databases.push(restored);
    await until(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      return res?.ok ? true : undefined;
    }, 120_000);
    const restoredUrl = live.url.replace(`/${liveName}`, `/${restored}`);
    await new Promise((r) => setTimeout(r, 1500));
    const waiting = await counts(restoredUrl);
    expect(waiting).toEqual(before);
    const client = new pg.Client({ connectionString: restoredUrl });
    await client.connect();
    const pending = (await client.query(`select count(*)::int as n from outbox where status = 'pending'`))
      .rows[0].n;
    await client.end();
    expect(pending).toBeGreaterThan(0);
    restore.child.kill('SIGINT');
    const ended = await restore.done;
    expect(ended.out).toContain("every table's count equals the backup's");
    expect(ended.out).toContain(`npm run restore -- --activate ${restored}`);

    // Activation switches the databases and keeps the replaced one.
    const activated = await command('restore', ['--activate', restored], env).done;
    expect(activated.code).toBe(0);
    const kept = /kept as (\S+)\./.exec(activated.out)![1]!;
    databases.push(kept, liveName);
    expect(await counts(live.url)).toEqual(before);
    expect(await counts(live.url.replace(`/${liveName}`, `/${kept}`))).toEqual(liveAfter);

    // With a server connected to it, activation is refused and nothing is renamed.
    const again = await makeFormsApp({ DATABASE_URL: live.url }, { dataDir });
    try {
      const busy = await command('restore', ['--activate', kept], env).done;
      expect(busy.code).toBe(1);
      expect(busy.err).toMatch(/connection\(s\) are open to .*: stop the server \(and any sandbox\) first\./);
    } finally {
      await again.app.close();
    }
    await live.drop();
  });
});

describe('npm run backup and npm run restore on the embedded database', () => {
  it('backs up beside the running server, refuses to activate under it, and activates once it stopped', async () => {
    const dataDir = tempDir('restore-embedded');
    const env = { DATABASE_URL: '', DATA_DIR: dataDir };
    const t = await makeFormsApp({ DATABASE_URL: '' }, { dataDir });
    try {
      expect(t.app.services.database.driver).toBe('embedded');
      expect((await t.post(bodies.contact())).statusCode).toBe(200);
      // Beside the running server: through its socket.
      const backup = await command('backup', [], env).done;
      expect(backup.code).toBe(0);
      const restored = await command('restore', ['latest', '--no-sandbox'], env).done;
      expect(restored.code).toBe(0);
      const name = /into a new database, (restored_\w+)/.exec(restored.out)![1]!;
      const busy = await command('restore', ['--activate', name], env).done;
      expect(busy.code).toBe(1);
      expect(busy.err).toContain('The server is running on this database: stop it first');
      expect(await t.query(`select 1 from pg_database where datname = '${name}'`)).toHaveLength(1);
    } finally {
      await t.app.close();
    }
    const [restoredName] = /restored_\w+/.exec(
      (await command('restore', ['latest', '--no-sandbox'], env).done).out,
    )!;
    const switched = await command('restore', ['--activate', restoredName], env).done;
    expect(switched.code).toBe(0);
    expect(switched.out).toContain(`${restoredName} is now the live database (site).`);
    // The server starts on the restored database with the submission in it.
    const again = await makeFormsApp({ DATABASE_URL: '' }, { dataDir });
    try {
      expect(await again.query(`select id from submissions`)).toHaveLength(1);
      expect((await again.query<{ d: string }>(`select current_database() as d`))[0]!.d).toBe('site');
    } finally {
      await again.app.close();
    }
  });
});
