import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** A folder of the calling test file's under the OS temp dir, removed after its tests. */
export function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `keyout-${name}-`));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
