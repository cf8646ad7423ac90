/**
 * The release this process runs: the package's version and, when the code is a git checkout (the
 * production recipe's), the commit. Named in every backup and on the console's System page, so
 * a backup says which release to restore it with.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Release = { version: string; commit?: string };

function projectRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'drizzle'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The commit HEAD names, read from the checkout's files (no git needed on the server). */
function headCommit(root: string): string | undefined {
  try {
    let git = join(root, '.git');
    // A worktree's .git is a file naming its folder; its refs are the main checkout's.
    const pointer = /^gitdir: (.+)$/m.exec(statSync(git).isFile() ? readFileSync(git, 'utf8') : '')?.[1];
    if (pointer) git = resolve(root, pointer.trim());
    const head = readFileSync(join(git, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const common = existsSync(join(git, 'commondir'))
      ? resolve(git, readFileSync(join(git, 'commondir'), 'utf8').trim())
      : git;
    const loose = join(common, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim();
    const packed = readFileSync(join(common, 'packed-refs'), 'utf8');
    return packed
      .split('\n')
      .find((line) => line.endsWith(` ${ref}`))
      ?.slice(0, 40);
  } catch {
    return undefined;
  }
}

let cached: Release | undefined;

export function currentRelease(): Release {
  if (cached) return cached;
  const root = projectRoot(dirname(fileURLToPath(import.meta.url)));
  if (!root) return (cached = { version: 'unknown' });
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const commit = headCommit(root);
  return (cached = commit ? { version, commit } : { version });
}

/** The release in words: "1.0.0 (a1fcc94)". */
export function releaseLabel(release: Release): string {
  return release.commit ? `${release.version} (${release.commit.slice(0, 7)})` : release.version;
}
