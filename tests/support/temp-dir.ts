import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A folder of the calling test file's (or describe's) under the OS temp dir: made before its
 * tests, removed after them, and never made where they are all skipped.
 */
export function tempDir(name: string): string {
  const dir = path.join(os.tmpdir(), `keyout-${name}-${randomBytes(6).toString('hex')}`);
  beforeAll(() => void fs.mkdirSync(dir));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
