#!/usr/bin/env node
/**
 * Browser tests need Debian's Chromium. When it is missing: install it as root, otherwise
 * stop with a message saying what to install. Browser tests are never skipped silently.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. The browser tests need it: run\n` +
        '  sudo apt-get update && sudo apt-get install -y chromium\n' +
        'or set CHROME_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
  console.log("Chromium is missing: installing Debian's package (apt-get install -y chromium)...");
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const result = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed; install chromium and run the tests again.`);
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`Chromium was installed but ${CHROMIUM} does not exist.`);
    process.exit(1);
  }
  console.log(execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim());
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
