import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The committed migration sets, one per database, in Prisma's folder format
 * (`<timestamp>_<name>/migration.sql`): prisma/migrations (SQLite) and
 * prisma/postgres/migrations (PostgreSQL). Each SQLite migration has a PostgreSQL twin of the
 * same name, and both sets build the same schema (lib/db/schemas.in-process.test.ts).
 */
export type Provider = 'sqlite' | 'postgres';

// import.meta.url, not import.meta.dirname: Turbopack (next dev/build) leaves the latter undefined.
const PRISMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma');

export const MIGRATIONS_DIRS: Record<Provider, string> = {
  sqlite: path.join(PRISMA_DIR, 'migrations'),
  postgres: path.join(PRISMA_DIR, 'postgres/migrations'),
};

export interface Migration {
  name: string;
  sql: string;
  /** What Prisma records in _prisma_migrations.checksum. */
  checksum: string;
}

/** The provider's migrations, oldest first. */
export function migrationsOf(provider: Provider): Migration[] {
  const dir = MIGRATIONS_DIRS[provider];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}
