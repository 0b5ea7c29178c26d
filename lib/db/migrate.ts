import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrationsOf } from './migrations';

/**
 * Applies pending SQLite migrations from prisma/migrations at start-up through the driver,
 * recording them in _prisma_migrations the way Prisma does, so `prisma migrate deploy` and this
 * agree and no schema-engine binary is needed (air-gapped installs work). PostgreSQL's twin:
 * migrate-postgres.ts.
 */
export function sqlitePath(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) throw new Error(`Not a SQLite URL: ${databaseUrl}`);
  return databaseUrl.slice('file:'.length);
}

/** How long any connection of ours waits for another process's lock (migrator and Prisma alike). */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Turning a file into WAL takes an exclusive lock that SQLite does not wait for: while another
 * connection holds a write lock (two processes creating the database together, e.g. the web
 * server, the worker and a CLI on a fresh DATA_DIR), the pragma fails at once with SQLITE_BUSY
 * whatever the busy timeout. So wait here, as long as the busy timeout would.
 */
function enableWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    let mode: unknown;
    try {
      mode = db.pragma('journal_mode = WAL', { simple: true });
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    if (mode !== 'wal')
      throw new Error(
        `SQLite could not switch ${db.name} to WAL mode (it stays in "${String(mode)}")`,
      );
    return;
  }
}

export function applyMigrations(databaseUrl: string): string[] {
  const file = sqlitePath(databaseUrl);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    enableWal(db);
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL,
      "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL,
      "logs" TEXT,
      "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
    )`);
    const applied = new Set(
      db
        .prepare(
          'SELECT migration_name FROM _prisma_migrations WHERE ' +
            'finished_at IS NOT NULL AND rolled_back_at IS NULL',
        )
        .all()
        .map((r) => (r as { migration_name: string }).migration_name),
    );
    const done: string[] = [];
    for (const { name, sql, checksum } of migrationsOf('sqlite')) {
      if (applied.has(name)) continue;
      // IMMEDIATE: two processes starting together cannot both apply the same migration.
      db.transaction(() => {
        const again = db
          .prepare(
            'SELECT 1 FROM _prisma_migrations WHERE migration_name = ? AND finished_at IS NOT NULL',
          )
          .get(name);
        if (again) return;
        db.exec(sql);
        db.prepare(
          `INSERT INTO _prisma_migrations
             (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, current_timestamp, ?, current_timestamp, 1)`,
        ).run(randomUUID(), checksum, name);
        done.push(name);
      }).immediate();
    }
    return done;
  } finally {
    db.close();
  }
}
