#!/usr/bin/env node
/**
 * The Debian tools the server tests run the app behind or check files with: nginx (the reverse
 * proxy test, tests/server/proxy.test.ts) and caddy (the production recipe's test,
 * tests/server/deploy.test.ts). When one is missing: install it as root, otherwise stop with a
 * message saying what to install. Those tests are never skipped silently.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy';

/** `binary` from Debian's `pkg`, installed with apt-get when missing and run as root. */
function ensureDebianTool({ binary, pkg, env, why, version }) {
  if (existsSync(binary)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `${pkg} is missing at ${binary}. ${why} needs it: run\n` +
        `  sudo apt-get update && sudo apt-get install -y ${pkg}\n` +
        `or set ${env} to a ${pkg} binary.`,
    );
    process.exit(1);
  }
  console.log(`${pkg} is missing: installing Debian's package (apt-get install -y ${pkg})...`);
  for (const args of [['update'], ['install', '-y', pkg]]) {
    const result = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed; install ${pkg} and run the tests again.`);
      process.exit(1);
    }
  }
  if (!existsSync(binary)) {
    console.error(`${pkg} was installed but ${binary} does not exist.`);
    process.exit(1);
  }
  const shown = spawnSync(binary, version, { encoding: 'utf8' });
  console.log(`${shown.stdout}${shown.stderr}`.trim());
}

export function ensureNginx() {
  // nginx -v writes its version to stderr.
  ensureDebianTool({
    binary: NGINX,
    pkg: 'nginx',
    env: 'NGINX_PATH',
    why: 'The reverse proxy test',
    version: ['-v'],
  });
}

export function ensureCaddy() {
  ensureDebianTool({
    binary: CADDY,
    pkg: 'caddy',
    env: 'CADDY_PATH',
    why: 'The production recipe’s test (HTTPS through Caddy)',
    version: ['version'],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureNginx();
  ensureCaddy();
}
