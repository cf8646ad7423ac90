#!/usr/bin/env node
/**
 * The server the browser tests run against: the production build, a fresh data folder,
 * e-mails written as .eml files there (the tests read them back).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serverArgs } from '../../../scripts/start-command.mjs';

const dataDir = process.env.E2E_DATA_DIR ?? resolve('test-results/e2e-data');
// A server run as root from a folder the postgres user cannot reach keeps its database outside
// DATA_DIR and names it there (decision 052): it goes with the folder.
try {
  const outside = readFileSync(join(dataDir, 'postgres-location.txt'), 'utf8').split('\n')[0];
  if (outside.startsWith('/var/lib/sterling-sats-site/clusters/'))
    rmSync(outside, { recursive: true, force: true });
} catch {
  // None: the database is inside DATA_DIR, or there is no DATA_DIR yet.
}
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const child = spawn(process.execPath, serverArgs(), {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '4173',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The origin the browser uses: the forms accept requests from PUBLIC_URL's origin only.
    // (The pages' canonical URLs were baked in at build time, from the build's own PUBLIC_URL.)
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? '4173'}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    // Playwright fills a form in milliseconds: a short minimum fill time keeps the trap on without tripping it.
    MIN_FILL_TIME_MS: '50',
    // Tests give each page its own X-Forwarded-For, so the server's rate limit counts each test apart.
    TRUST_PROXY: '127.0.0.1',
    // Every test's booking request holds its half-day, however many the run has made (decision 053).
    BOOKING_HOLDS_MAX: '1000',
    // The Visits tests read today's figures right after their views: counted at every look.
    VISITS_TODAY_MAX_AGE_SECONDS: '0',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
