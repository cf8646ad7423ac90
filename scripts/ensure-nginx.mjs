#!/usr/bin/env node
/**
 * The reverse proxy test (tests/server/proxy.test.ts) runs the app behind Debian's nginx. When
 * it is missing: install it as root, otherwise stop with a message saying what to install. The
 * test is never skipped silently.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export function ensureNginx() {
  if (existsSync(NGINX)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `nginx is missing at ${NGINX}. The reverse proxy test needs it: run\n` +
        '  sudo apt-get update && sudo apt-get install -y nginx\n' +
        'or set NGINX_PATH to an nginx binary.',
    );
    process.exit(1);
  }
  console.log("nginx is missing: installing Debian's package (apt-get install -y nginx)...");
  for (const args of [['update'], ['install', '-y', 'nginx']]) {
    const result = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed; install nginx and run the tests again.`);
      process.exit(1);
    }
  }
  if (!existsSync(NGINX)) {
    console.error(`nginx was installed but ${NGINX} does not exist.`);
    process.exit(1);
  }
  // nginx -v writes its version to stderr.
  console.log(spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.trim());
}

if (import.meta.url === `file://${process.argv[1]}`) ensureNginx();
