/** Migrations are generated from the pipeline's schema and every feature's own tables. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/server/kit/db/schema.ts',
    './src/features/*/tables.server.ts',
    './src/server/console/tables.ts',
    './src/server/kit/audit.ts',
    './src/server/kit/publication.ts',
    './src/server/kit/backup/tables.ts',
  ],
  out: './drizzle',
});
