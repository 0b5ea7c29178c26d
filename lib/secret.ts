import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from './env';

let cached: string | undefined;

/**
 * The server secret for signed URLs and sessions: KEYOUT_SECRET, or one generated once into
 * DATA_DIR/secret (mode 0600) so a zero-configuration install is still secure and stable
 * across restarts. Web and worker processes read the same file.
 */
export function ensureSecret(): string {
  if (cached) return cached;
  const e = env();
  if (e.KEYOUT_SECRET) return (cached = e.KEYOUT_SECRET);
  const file = path.join(e.dataDir, 'secret');
  fs.mkdirSync(e.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  cached = fs.readFileSync(file, 'utf8').trim();
  return cached;
}
