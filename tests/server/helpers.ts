/**
 * Builds the real app over the real build, with a throwaway data folder and a throwaway copy of
 * the run's migrated database (databases.ts), for `inject()` tests.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/root/app';
import { loadConfig } from '../../src/server/kit/config';
import { withDatabase } from './databases';
import { suiteLogger } from './log-sink';

export async function makeTestApp(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    ...(await withDatabase(env, dataDir)),
  });
  const app = await buildApp({ config, logger: suiteLogger() });
  await app.ready();
  return { app, config, dataDir };
}
