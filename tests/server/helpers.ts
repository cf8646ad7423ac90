/** Builds the real app over the real build, with a throwaway data folder, for `inject()` tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/root/app';
import { loadConfig } from '../../src/server/kit/config';
import { suiteLogger } from './log-sink';

export async function makeTestApp(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp({ config, logger: suiteLogger() });
  await app.ready();
  return { app, config, dataDir };
}
