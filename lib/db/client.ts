import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { env } from '../env';
import { PrismaClient } from './generated/client';
import { applyMigrations, BUSY_TIMEOUT_MS, sqlitePath } from './migrate';

export type Db = PrismaClient;
export { Prisma } from './generated/client';

const globalForDb = globalThis as unknown as { keyoutDb?: PrismaClient };

/**
 * The process-wide Prisma client. The first call applies pending migrations, so every entry
 * point (web, worker, CLI, tests) works against a fresh DATA_DIR with no separate step.
 *
 * On SQLite an interactive `$transaction` starts deferred (BEGIN): one that reads before its
 * first write fails at once with "Operation has timed out" (SQLITE_BUSY_SNAPSHOT) whenever
 * another process commits in between, busy timeout or not. So every transaction writes first.
 */
export function db(): PrismaClient {
  if (globalForDb.keyoutDb) return globalForDb.keyoutDb;
  const { databaseUrl } = env();
  applyMigrations(databaseUrl);
  const adapter = new PrismaBetterSqlite3({ url: sqlitePath(databaseUrl), timeout: BUSY_TIMEOUT_MS });
  globalForDb.keyoutDb = new PrismaClient({ adapter });
  return globalForDb.keyoutDb;
}
