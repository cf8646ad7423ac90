import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { VOICE_TEST_BUILD_DIR } from './scripts/voice-test-build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/e2e/support/chromium';

const PORT = Number(process.env.E2E_PORT ?? 4173);
/** Where the test server keeps its database and .eml files; tests read mail from here. */
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? resolve('test-results/e2e-data');
export const DEFAULT_BASE_URL = `http://127.0.0.1:${PORT}`;

/** The voice simulator's tests run against a second build, made with a test key (scripts/voice-test-build.ts). */
const VOICE_PORT = Number(process.env.E2E_VOICE_PORT ?? PORT + 1);
export const VOICE_BASE_URL = `http://127.0.0.1:${VOICE_PORT}`;
const VOICE_SPECS = /voice-.*\.spec\.ts$/;

/**
 * The owner's console runs against a third server whose public URL is a host name: WebAuthn
 * refuses IP-address origins, so its passkeys need `localhost`. Its own data folder and owner.
 */
const OWNER_PORT = Number(process.env.E2E_OWNER_PORT ?? PORT + 2);
export const OWNER_BASE_URL = `http://localhost:${OWNER_PORT}`;
export const OWNER_DATA_DIR = resolve('test-results/e2e-data-owner');
export const OWNER_EMAIL = 'owner@example.com';
/**
 * The owner server writes e-mails as files, and refuses every recipient at this reserved domain
 * as a relay refuses a mailbox that does not exist (550 at RCPT TO; MAIL_FILE_REFUSED_DOMAIN), so
 * a test can show the console a refused address. Nothing else is sent there.
 */
export const REFUSED_DOMAIN = 'refused.test';
/** The owner server's settings, which `npm run owner:link` needs too (tests/e2e/owner-support.ts). */
export const OWNER_SERVER_ENV = {
  E2E_PORT: String(OWNER_PORT),
  E2E_DATA_DIR: OWNER_DATA_DIR,
  PUBLIC_URL: OWNER_BASE_URL,
  OWNER_EMAIL,
  OWNER_EMAILS: 'partner@example.com',
  /** A helper (decision 032): reads and answers leads and bookings, nothing more. */
  HELPER_EMAILS: 'Ada <helper@example.com>',
  /** The owner's calendar is served by the test itself, over http on 127.0.0.1 (decision 037). */
  CALENDAR_FEED_ALLOW_HTTP: 'true',
  CALENDAR_FEED_ALLOW_PRIVATE: 'true',
  MAIL_FILE_REFUSED_DOMAIN: REFUSED_DOMAIN,
  /** The alerts' push service is the test's own, over http on 127.0.0.1 (decision 041). */
  PUSH_ALLOW_LOCAL: 'true',
};
const OWNER_SPECS = /owner-.*\.spec\.ts$/;

/**
 * The public masterclass tests run against a fourth server: they publish events through the
 * console API, and the next masterclass is one for the whole site, which the other pages' tests
 * expect to be none. Its own data folder; the default owner (OWNER_EMAIL) signs in with a link.
 */
const EVENTS_PORT = Number(process.env.E2E_EVENTS_PORT ?? PORT + 3);
export const EVENTS_BASE_URL = `http://127.0.0.1:${EVENTS_PORT}`;
export const EVENTS_DATA_DIR = resolve('test-results/e2e-data-events');
/** The events server's settings, which `npm run owner:link` needs too (tests/e2e/events-public.spec.ts). */
export const EVENTS_SERVER_ENV = {
  E2E_PORT: String(EVENTS_PORT),
  E2E_DATA_DIR: EVENTS_DATA_DIR,
  PUBLIC_URL: EVENTS_BASE_URL,
};
const EVENTS_SPECS = /events-public\.spec\.ts$/;
/** Breaks the owner server's mail folder for a moment: runs alone, after the other console tests. */
const OWNER_ALONE_SPECS = /owner-deliveries\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: DEFAULT_BASE_URL,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'off',
  },
  projects: [
    {
      name: 'chromium',
      use: { browserName: 'chromium' },
      testIgnore: [VOICE_SPECS, OWNER_SPECS, EVENTS_SPECS],
    },
    {
      name: 'events',
      testMatch: EVENTS_SPECS,
      use: { browserName: 'chromium', baseURL: EVENTS_BASE_URL },
    },
    {
      name: 'owner',
      testMatch: OWNER_SPECS,
      testIgnore: OWNER_ALONE_SPECS,
      use: { browserName: 'chromium', baseURL: OWNER_BASE_URL },
    },
    {
      name: 'owner-alone',
      testMatch: OWNER_ALONE_SPECS,
      dependencies: ['owner'],
      use: { browserName: 'chromium', baseURL: OWNER_BASE_URL },
    },
    {
      name: 'voice',
      testMatch: VOICE_SPECS,
      use: {
        browserName: 'chromium',
        baseURL: VOICE_BASE_URL,
        // Daily asks for the microphone when a call joins: a fake device, no prompt.
        permissions: ['microphone'],
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
        },
      },
    },
  ],
  webServer: [
    {
      command: 'node tests/e2e/support/start-server.mjs',
      url: `${DEFAULT_BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(PORT), E2E_DATA_DIR },
    },
    {
      // Builds the keyed build first when there is none (npm test always rebuilds it).
      command:
        'node --import tsx scripts/voice-test-build.ts --if-missing && node tests/e2e/support/start-server.mjs',
      url: `${VOICE_BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_PORT: String(VOICE_PORT),
        E2E_DATA_DIR: resolve('test-results/e2e-data-voice'),
        BUILD_DIR: VOICE_TEST_BUILD_DIR,
      },
    },
    {
      command: 'node tests/e2e/support/start-server.mjs',
      url: `${EVENTS_BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: EVENTS_SERVER_ENV,
    },
    {
      command: 'node tests/e2e/support/start-server.mjs',
      url: `http://127.0.0.1:${OWNER_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: OWNER_SERVER_ENV,
    },
  ],
});
