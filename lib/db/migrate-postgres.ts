import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrationsOf } from './migrations';

/**
 * Applies pending PostgreSQL migrations (prisma/postgres/migrations) at start-up, recorded in
 * _prisma_migrations as `prisma migrate deploy` records them, so either may run on a database.
 * Many processes start together (web processes, workers): a session advisory lock lets one
 * apply, and the others then find nothing pending. Each migration runs in its own transaction
 * (PostgreSQL's DDL is transactional), so a failed one leaves nothing half-applied.
 */
const LOCK_KEY = 0x6b65796f; // "keyo"

export async function applyPostgresMigrations(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'keyout-migrate',
  });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" WHERE ' +
        'finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    const done: string[] = [];
    for (const { name, sql, checksum } of migrationsOf('postgres')) {
      if (applied.has(name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations"
             (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(
          `PostgreSQL migration ${name} failed: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      }
      done.push(name);
    }
    return done;
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end();
  }
}
