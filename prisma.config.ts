import path from 'node:path';
import { defineConfig } from 'prisma/config';

// The CLI is only used for `prisma generate` and, on machines that have the schema engine,
// `prisma migrate deploy`. The app applies migrations itself (lib/db/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url:
      process.env.DATABASE_URL ??
      `file:${path.resolve(process.env.DATA_DIR ?? './data', 'keyout.db')}`,
  },
});
