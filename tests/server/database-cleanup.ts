/**
 * Set up before every server test file: once its last test has run, the databases it made are
 * dropped (databases.ts), so the server holds only those of the files running now. The run's
 * teardown (database-setup.ts) drops whatever a file that crashed left behind.
 */
import { afterAll } from 'vitest';
import { dropTestDatabases } from './databases';

afterAll(async () => {
  await dropTestDatabases();
});
