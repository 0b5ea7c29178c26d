import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { db } from '../../lib/db/client';
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
