import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSchema, POSTGRES, SOURCE } from '../../scripts/prisma-schemas.mjs';
import {
  postgresUnavailable,
  testPostgres,
  type TestPostgres,
} from '../../scripts/lib-stack/test-postgres';
import { applyMigrations } from './migrate';
import { applyPostgresMigrations } from './migrate-postgres';
import { migrationsOf } from './migrations';
import { differences, postgresShape, sqliteShape } from './schema-shape';

/**
 * SQLite (the embedded default) and PostgreSQL (scale-out) each have their own migration set:
 * prisma/migrations and prisma/postgres/migrations. They must stay in step. When you change
 * prisma/schema.prisma:
 *   1. write the SQLite migration, prisma/migrations/<timestamp>_<name>/migration.sql;
 *   2. write its twin with the same folder name in prisma/postgres/migrations, in PostgreSQL
 *      (Prisma's PostgreSQL DDL: TIMESTAMP(3), DOUBLE PRECISION, "<Table>_pkey" constraints,
 *      foreign keys added with ALTER TABLE);
 *   3. run `npm run prisma:generate` (it rewrites prisma/postgres/schema.prisma).
 * This file fails, saying what differs, when any of that is missing: also after a merge that
 * brings in a SQLite migration from another branch without its twin.
 */
const unavailable = postgresUnavailable();
if (unavailable) console.warn(`Skipping the PostgreSQL side of the schema checks: ${unavailable}`);

describe('the two databases stay in step', () => {
  it('prisma/postgres/schema.prisma is derived from the current prisma/schema.prisma', () => {
    const want = postgresSchema(fs.readFileSync(SOURCE, 'utf8'));
    expect(
      fs.readFileSync(POSTGRES, 'utf8') === want,
      'prisma/postgres/schema.prisma is out of date: run `npm run prisma:generate`',
    ).toBe(true);
  });

  it('every migration has a twin of the same name in the other set', () => {
    const sqlite = migrationsOf('sqlite').map((m) => m.name);
    const postgres = migrationsOf('postgres').map((m) => m.name);
    const missing = [
      ...sqlite
        .filter((n) => !postgres.includes(n))
        .map((n) => `prisma/postgres/migrations/${n}/migration.sql (twin of the SQLite migration)`),
      ...postgres
        .filter((n) => !sqlite.includes(n))
        .map((n) => `prisma/migrations/${n}/migration.sql (twin of the PostgreSQL migration)`),
    ];
    expect(missing, `Missing migrations:\n  ${missing.join('\n  ')}`).toEqual([]);
  });

  describe.skipIf(unavailable)('on real databases', () => {
    let server: TestPostgres;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-schemas-'));
    beforeAll(async () => {
      server = await testPostgres();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('both sets build the same tables, columns, keys, indexes and foreign keys', async () => {
      const file = path.join(dir, 'shape.db');
      applyMigrations(`file:${file}`);
      const url = await server.freshDatabase();
      await applyPostgresMigrations(url);
      const diff = differences(sqliteShape(file), await postgresShape(url), [
        'SQLite',
        'PostgreSQL',
      ]);
      expect(diff, `The migration sets disagree:\n  ${diff.join('\n  ')}`).toEqual([]);
    });

    it(
      'records each PostgreSQL migration once, like prisma migrate ' +
        'deploy, even when processes start together',
      async () => {
        const url = await server.freshDatabase();
        const runs = await Promise.all([
          applyPostgresMigrations(url),
          applyPostgresMigrations(url),
          applyPostgresMigrations(url),
        ]);
        expect(runs.flat().sort()).toEqual(migrationsOf('postgres').map((m) => m.name));
        expect(await applyPostgresMigrations(url)).toEqual([]);
      },
    );
  });
});
