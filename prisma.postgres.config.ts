import { defineConfig } from 'prisma/config';

// PostgreSQL's twin of prisma.config.ts, for machines that have Prisma's schema engine:
//   DATABASE_URL=postgres://… npx prisma migrate deploy --config prisma.postgres.config.ts
// The app applies the same migrations itself at start-up (lib/db/migrate-postgres.ts).
export default defineConfig({
  schema: 'prisma/postgres/schema.prisma',
  migrations: { path: 'prisma/postgres/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
