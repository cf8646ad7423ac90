#!/usr/bin/env node
/**
 * Runs before `npm start`: builds when there is no build, or it is older than the sources or settings.
 * `--check` builds nothing: it says why the build is out of date and exits 1 (the systemd unit in
 * deploy/ runs it before the server, whose code folder is read-only to it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STAMP_FILE, buildSettings } from './build-settings.mjs';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function reason() {
  if (!existsSync(STAMP_FILE)) return 'no build yet';
  const stamp = JSON.parse(readFileSync(STAMP_FILE, 'utf8'));
  if (JSON.stringify(stamp) !== JSON.stringify(buildSettings())) return 'build settings changed';
  const built = statSync(STAMP_FILE).mtimeMs;
  const inputs = [
    'src',
    'public',
    'scripts',
    'react-router.config.ts',
    'vite.config.ts',
    'package-lock.json',
  ];
  if (inputs.some((p) => newestMtime(p) > built)) return 'sources changed';
  return null;
}

const why = reason();
if (why && process.argv.includes('--check')) {
  console.error(
    `The build is out of date (${why}): run npm run build in ${process.cwd()} with the same settings, then start again.`,
  );
  process.exit(1);
}
if (why) {
  console.log(`Building the site (${why})...`);
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
