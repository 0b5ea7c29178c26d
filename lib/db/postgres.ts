import { PrismaPg } from '@prisma/adapter-pg';
import type { PrismaClient } from './generated/client';
import { PrismaClient as PostgresPrismaClient } from './generated-postgres/client';
import { applyPostgresMigrations } from './migrate-postgres';

type AdapterFactory = NonNullable<ConstructorParameters<typeof PostgresPrismaClient>[0]['adapter']>;

/**
 * A Prisma client on PostgreSQL through @prisma/adapter-pg (a pg pool of at most `poolMax`
 * connections per process). Pending migrations are applied before its first connection: the
 * adapter factory's connect() waits for them, so db() stays synchronous.
 *
 * The client is generated from prisma/postgres/schema.prisma, the PostgreSQL twin of the one
 * schema (scripts/prisma-schemas.mjs), and returned with the SQLite client's type: the two are
 * generated from the same models, the application is typed against the SQLite client (the
 * narrower of the two: whatever it accepts, PostgreSQL runs), and TypeScript cannot prove the
 * two generic-heavy client types assignable, so this one cast stands for that. The API tests
 * run on both databases.
 */
export function postgresClient(databaseUrl: string, poolMax: number): PrismaClient {
  const pg = new PrismaPg({ connectionString: databaseUrl, max: poolMax });
  let migrated: Promise<unknown> | undefined;
  const migrateFirst: AdapterFactory = {
    provider: pg.provider,
    adapterName: pg.adapterName,
    connect: async () => {
      // A failure (database not up yet) is not remembered: the next connection tries again.
      await (migrated ??= applyPostgresMigrations(databaseUrl).catch((e: unknown) => {
        migrated = undefined;
        throw e;
      }));
      return pg.connect();
    },
  };
  return new PostgresPrismaClient({ adapter: migrateFirst }) as unknown as PrismaClient;
}
