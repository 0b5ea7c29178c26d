import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import { db, type Prisma } from '../../lib/db/client';
import { PrismaClient } from '../../lib/db/generated/client';
import { applyMigrations } from '../../lib/db/migrate';
import { resetEnvForTests } from '../../lib/env';

/**
 * A real SQLite database in a temp DATA_DIR for the calling test file, as the web process uses
 * it, with no payment provider configured; removed after the file's tests. Returns the folder.
 */
export function tempDatabase(name: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `keyout-${name}-`));
  beforeAll(() => {
    process.env.DATA_DIR = dataDir;
    delete process.env.STRIPE_SECRET_KEY;
    resetEnvForTests();
  });
  afterAll(async () => {
    await db().$disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return dataDir;
}

/**
 * A Prisma client on a freshly migrated SQLite file of its own (no DATA_DIR, no env), for tests
 * of code that takes the client as an argument; disconnected and removed after the file's tests.
 */
export function migratedPrisma(name: string): PrismaClient {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `keyout-${name}-`));
  const file = path.join(dir, `${name}.db`);
  applyMigrations(`file:${file}`);
  const prisma = new PrismaClient({
    adapter: new PrismaBetterSqlite3({ url: file, timeout: 10_000 }),
  });
  afterAll(async () => {
    await prisma.$disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return prisma;
}

/**
 * A job row of `userId` in the temp database, as probing a 2 s, 25 fps, 64x48 `clip.mp4` left
 * it; `fields` set the rest (status, keys, mask version).
 */
export const probedClipJob = (
  userId: string,
  fields: Partial<Omit<Prisma.JobUncheckedCreateInput, 'userId'>>,
) =>
  db().job.create({
    data: {
      userId,
      filename: 'clip.mp4',
      lengthSeconds: 2,
      fps: 25,
      frameCount: 50,
      width: 64,
      height: 48,
      ...fields,
    },
  });
