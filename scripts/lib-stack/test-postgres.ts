import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports';
import { unavailableUnless } from './processes';
import { postgresBin, startPostgres } from './postgres';

/**
 * A PostgreSQL server for tests: KEYOUT_TEST_POSTGRES_URL (a server URL, no database name; CI and
 * `npm run test:scale` set it), otherwise a throwaway cluster of our own started from the
 * distribution's binaries. `null` when neither is available: the caller skips with `reason`.
 */
export interface TestPostgres {
  /** A fresh, empty database's URL. */
  freshDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export function postgresUnavailable(): string | null {
  return unavailableUnless(process.env.KEYOUT_TEST_POSTGRES_URL, postgresBin);
}

export async function testPostgres(): Promise<TestPostgres> {
  const created: string[] = [];
  let serverUrl = process.env.KEYOUT_TEST_POSTGRES_URL?.replace(/\/$/, '');
  let stopServer = async () => {};
  let dir: string | undefined;
  if (!serverUrl) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-pg-'));
    fs.chmodSync(dir, 0o711);
    const server = await startPostgres({ dir, port: await freePort(), throwaway: true });
    serverUrl = server.serverUrl;
    stopServer = () => server.stop();
  }
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: `${serverUrl}/postgres` });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  return {
    async freshDatabase() {
      const name = `keyout_t_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      created.push(name);
      return `${serverUrl}/${name}`;
    },
    async stop() {
      for (const name of created)
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await stopServer();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
