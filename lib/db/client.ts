import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { env, isPostgresUrl } from '../env';
import { PrismaClient } from './generated/client';
import { applyMigrations, BUSY_TIMEOUT_MS, sqlitePath } from './migrate';
import { postgresClient } from './postgres';

export type Db = PrismaClient;
export { Prisma } from './generated/client';

const globalForDb = globalThis as unknown as { keyoutDb?: PrismaClient };

/**
 * The process-wide Prisma client: PostgreSQL when DATABASE_URL is a postgres:// URL
 * (lib/db/postgres.ts), otherwise SQLite (the file in DATA_DIR by default). Pending migrations
 * are applied before the first query, so every entry point (web, worker, CLI, tests) works
 * against a fresh database with no separate step.
 *
 * On SQLite an interactive `$transaction` starts deferred (BEGIN): one that reads before its
 * first write fails at once with "Operation has timed out" (SQLITE_BUSY_SNAPSHOT) whenever
 * another process commits in between, busy timeout or not. So every transaction writes first;
 * on PostgreSQL that first write also takes the row lock the reads after it rely on.
 */
export function db(): PrismaClient {
  if (globalForDb.keyoutDb) return globalForDb.keyoutDb;
  const { databaseUrl, DATABASE_POOL_MAX } = env();
  if (isPostgresUrl(databaseUrl)) {
    globalForDb.keyoutDb = postgresClient(databaseUrl, DATABASE_POOL_MAX);
  } else {
    applyMigrations(databaseUrl);
    const adapter = new PrismaBetterSqlite3({
      url: sqlitePath(databaseUrl),
      timeout: BUSY_TIMEOUT_MS,
    });
    globalForDb.keyoutDb = new PrismaClient({ adapter });
  }
  return globalForDb.keyoutDb;
}
