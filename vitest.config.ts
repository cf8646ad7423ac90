import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '~': fileURLToPath(new URL('./src', import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          exclude: ['src/**/*.int.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          // Server integration: a real build, real Postgres (PGlite in the embedded database's own
          // tests), a real SMTP peer.
          name: 'server',
          include: ['src/**/*.int.test.ts', 'tests/server/**/*.test.ts'],
          // Every app's log goes to a sink this run checks for e-mail addresses (decision 033);
          // every app's database is a copy of one template, migrated once per run.
          globalSetup: ['tests/server/log-sink-setup.ts', 'tests/server/database-setup.ts'],
          setupFiles: ['tests/server/database-cleanup.ts'],
          environment: 'node',
          // Bounds for a test that hangs, not expectations: files run side by side, and the
          // machine may be loaded by other work.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One file at a time for now. Each test makes its own databases, folders and ports, so
          // files can run two at a time (maxWorkers: 2); that waits for a run on a quiet machine
          // showing no test that bounds a request by time (the pool's 5 s wait for a connection, a
          // render) fails for it.
          fileParallelism: false,
          // After the unit tests, which run with their own number of workers.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
