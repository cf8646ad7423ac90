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
          // Server integration: a real build, real PGlite/Postgres, a real SMTP peer.
          name: 'server',
          include: ['src/**/*.int.test.ts', 'tests/server/**/*.test.ts'],
          // Every app's log goes to a sink this run checks for e-mail addresses (decision 033).
          globalSetup: ['tests/server/log-sink-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
