/**
 * The backups the server runs by itself (decision 057), on PostgreSQL:
 * - a backup is taken when one is due and none succeeded since, once; the weekly drill restores
 *   the newest into a scratch database and records its counts;
 * - the copy command runs with the backup's folder and none of the site's secrets; a failed copy
 *   is a warning, e-mailed to the owner once;
 * - a server killed with SIGKILL in the middle of a backup leaves nothing that claims to be a
 *   backup, and the next look takes one;
 * - the System page and the overview say what needs the owner's eye; a helper has no System page.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemView } from '../../src/contract/system';
import type { Overview } from '../../src/contract/console';
import { listBackups, PARTIAL_PREFIX } from '../../src/server/kit/backup/take';
import { createTestDatabase, makeFormsApp, OWNER, SECRET, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner } from './owner-session';
import { exited, startServer } from './server-process';
import { signInLink } from '../../src/server/console/sign-in';
import { createLinks } from '../../src/server/kit/http/links';

const folders: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the backup schedule, its copy, its drill and its alerts', () => {
  let t: FormsTestApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let backupsDir: string;
  let copiedTo: string;
  const systemAlerts = async () =>
    (
      await t.query<{ subject: string }>(
        `select message->>'subject' as subject from outbox where kind = 'owner.system-alert' order by id`,
      )
    ).map((row) => row.subject);

  beforeAll(async () => {
    db = await createTestDatabase('backup_schedule');
    backupsDir = tempDir('scheduled-backups');
    copiedTo = tempDir('copied');
    t = await makeFormsApp(
      {
        DATABASE_URL: db.url,
        BACKUP_DIR: backupsDir,
        BACKUP_HOUR: '3',
        HELPER_EMAILS: 'helper@sterling.test',
        // Copies the backup, writes what it was given, then fails.
        BACKUP_COPY_COMMAND: `cp -r "$BACKUP_PATH" "${copiedTo}/" && env > "${copiedTo}/env.txt" && echo "bucket refused the upload" >&2 && exit 3`,
      },
      { services: { backups: { firstAfterMs: 1_000_000_000 } } },
    );
  });
  afterAll(async () => {
    await t?.app.close();
    await db?.drop();
  });

  it('takes a due backup once, copies it with no secret, drills it, and alerts the failed copy once', async () => {
    const { backups } = t.app.services;
    const now = new Date();
    await backups.look(now);
    const [name] = listBackups(backupsDir);
    expect(name).toBeDefined();
    expect(existsSync(join(copiedTo, name!, 'manifest.json'))).toBe(true);
    const env = readFileSync(join(copiedTo, 'env.txt'), 'utf8');
    expect(env).toContain(`BACKUP_PATH=${join(backupsDir, name!)}`);
    expect(env).not.toContain(SECRET);
    expect(env).not.toContain('DATABASE_URL');

    const runs = await t.query<{ kind: string; ok: boolean; detail: string | null }>(
      'select kind, ok, detail from backup_runs order by id',
    );
    expect(runs.map((r) => [r.kind, r.ok])).toEqual([
      ['backup', true],
      ['copy', false],
      ['drill', true],
    ]);
    expect(runs[1]!.detail).toBe('The copy command ended with code 3: bucket refused the upload.');
    expect(runs[2]!.detail).toMatch(
      /^Restored into a scratch database: \d+ tables and \d+ rows, each table's count equal to the backup's/,
    );
    expect(await systemAlerts()).toEqual(['A backup was not copied off the machine']);

    // The next look: nothing due, nothing new to say.
    await backups.look(new Date(now.getTime() + 60_000));
    expect(listBackups(backupsDir)).toEqual([name]);
    expect(await systemAlerts()).toEqual(['A backup was not copied off the machine']);
    // No scratch database is left behind.
    const scratch = await t.query<{ n: string }>(
      `select count(*)::text as n from pg_database where datname like 'drill_%'`,
    );
    expect(scratch[0]!.n).toBe('0');
  });

  it('warns once when the last good backup is over 26 hours old, on the System page and the overview', async () => {
    const { backups } = t.app.services;
    const later = new Date(Date.now() + 27 * 3600_000);
    const sent = await backups.alert(later);
    expect(sent.map((w) => w.title)).toEqual(['No backup for over a day']);
    expect(await backups.alert(new Date(later.getTime() + 3600_000))).toEqual([]);
    expect((await systemAlerts()).filter((s) => s === 'No backup for over a day')).toHaveLength(1);

    const owner = asOwner(t.app, await signInOwner(t.app));
    const view = (await owner('GET', '/api/owner/system')).json<SystemView>();
    expect(view.backups.last?.name).toBe(listBackups(backupsDir)[0]);
    expect(view.backups.copy).toMatchObject({
      ok: false,
      detail: 'The copy command ended with code 3: bucket refused the upload.',
    });
    expect(view.drill?.ok).toBe(true);
    expect(view.database.driver).toBe('postgres');
    expect(view.warnings).toEqual([
      'The last backup was not copied off the machine. The copy command ended with code 3: bucket refused the upload.',
    ]);
    const overview = (await owner('GET', '/api/owner/overview')).json<Overview>();
    expect(overview.systemWarnings).toEqual(view.warnings);

    // A helper sees no system warning and has no System page.
    const helper = asOwner(t.app, await signInOwner(t.app, 'helper@sterling.test'));
    expect((await helper('GET', '/api/owner/overview')).json<Overview>().systemWarnings).toEqual([]);
    expect((await helper('GET', '/api/owner/system')).statusCode).toBe(403);
    expect((await helper('POST', '/api/owner/system/backup')).statusCode).toBe(403);
  });

  it('"Back up now" starts a backup and answers at once; the audit log names who', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const before = listBackups(backupsDir);
    const res = await owner('POST', '/api/owner/system/backup');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true, started: true });
    for (let i = 0; i < 200 && t.app.services.backups.running(); i++)
      await new Promise((r) => setTimeout(r, 50));
    // A newer backup of the same day replaces the older one (the keep rules: the newest a day).
    const after = listBackups(backupsDir);
    expect(after[0]).toBeDefined();
    expect(before).not.toContain(after[0]);
    expect(after).toHaveLength(1);
    const audit = await t.query<{ actor: string }>(
      `select actor from audit_log where action = 'backup.start'`,
    );
    expect(audit.map((a) => a.actor)).toEqual([OWNER]);
  });
});

describe('a backup killed in the middle', () => {
  it('leaves no backup that claims to be good when the server dies under it, and the next look takes one', async () => {
    const db = await createTestDatabase('backup_killed');
    const backupsDir = tempDir('killed-backups');
    const dataDir = tempDir('killed-data');
    const seed = await makeFormsApp({ DATABASE_URL: db.url }, { dataDir });
    // Enough rows that the backup takes a while.
    await seed.query(
      `insert into audit_log (actor, action, detail)
       select 'system', 'test.fill', jsonb_build_object('n', n, 'pad', repeat(md5(n::text), 8)) from generate_series(1, 300000) n`,
    );
    await seed.app.close();

    // The server itself, as its own process, backing up because the owner pressed "Back up now".
    const server = await startServer({
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      BACKUP_DIR: backupsDir,
      BACKUP_HOUR: 'off',
      OWNER_EMAIL: OWNER,
    });
    const origin = 'http://localhost:3000';
    const link = await signInLink(
      { appSecret: SECRET, ownerEmails: [OWNER] },
      createLinks(origin, SECRET),
      OWNER,
    );
    const signedIn = await fetch(`${server.url}/api/owner/sign-in/link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const started = await fetch(`${server.url}/api/owner/system/backup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, cookie },
      body: '{}',
    });
    expect(started.status).toBe(202);
    // Killed as soon as the backup's folder appears, while it copies.
    let killed = false;
    for (let i = 0; i < 6000 && !killed; i++) {
      if (readdirSync(backupsDir).some((name) => name.startsWith(PARTIAL_PREFIX))) {
        server.child.kill('SIGKILL');
        killed = true;
      } else await new Promise((r) => setTimeout(r, 5));
    }
    await exited(server.child);
    expect(killed).toBe(true);
    expect(listBackups(backupsDir)).toEqual([]);
    expect(readdirSync(backupsDir).every((name) => name.startsWith(PARTIAL_PREFIX))).toBe(true);

    const t = await makeFormsApp(
      { DATABASE_URL: db.url, BACKUP_DIR: backupsDir, BACKUP_HOUR: '3' },
      { dataDir, services: { backups: { firstAfterMs: 1_000_000_000 } } },
    );
    try {
      // The killed run never ended: it counts as no backup, and the scheduled one is taken.
      const runs = await t.query<{ ok: boolean | null }>(`select ok from backup_runs where kind = 'backup'`);
      expect(runs).toEqual([{ ok: null }]);
      await t.app.services.backups.look();
      const [name] = listBackups(backupsDir);
      expect(name).toBeDefined();
      // The stopped backup's leftovers are gone.
      expect(readdirSync(backupsDir)).toEqual([name]);
    } finally {
      await t.app.close();
      await db.drop();
    }
  });
});
