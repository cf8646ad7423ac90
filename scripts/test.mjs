#!/usr/bin/env node
/**
 * `npm test`: every test. Unit and server integration tests (Vitest; the reverse proxy test runs
 * Debian's nginx, the production recipe's test Debian's caddy), then the browser tests
 * (Playwright in Debian's Chromium) against the production build served by our own server.
 */
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureCaddy, ensureNginx } from './ensure-tools.mjs';

function step(title, cmd, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n${title} failed.`);
    process.exit(result.status ?? 1);
  }
}

ensureChromium();
ensureNginx();
ensureCaddy();
const node = process.execPath;
step('Build', node, ['scripts/build.mjs']);
// The voice simulator's browser tests need a second build with a test key baked in.
step('Voice test build', node, ['--import', 'tsx', 'scripts/voice-test-build.ts']);
step('Unit and server tests', node, ['node_modules/vitest/vitest.mjs', 'run']);
step('Browser tests', node, ['node_modules/@playwright/test/cli.js', 'test']);
console.log('\nAll tests passed.');
