import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { launch, ownDir, serviceAccount, stopService, waitUntil, type Service } from './processes';

/**
 * A PostgreSQL cluster of our own in `dir`, from the distribution's binaries, listening on
 * 127.0.0.1:`port` only, with a generated password (kept in `dir/password`). No root needed:
 * started as root, it runs as the `postgres` account instead (PostgreSQL refuses root).
 */
export interface Postgres {
  /** The server's URL without a database name. */
  serverUrl: string;
  /** A database URL (created if missing). */
  database(name: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
  service: Service;
}

export interface PostgresOptions {
  dir: string;
  port: number;
  /** Fast but not crash-safe (no fsync): for throwaway test clusters only. */
  throwaway?: boolean;
  maxConnections?: number;
}

const USER = 'keyout';

/**
 * Debian keeps each major version's server binaries in /usr/lib/postgresql/<major>/bin; PG_BIN
 * overrides.
 */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const m of majors)
    if (fs.existsSync(path.join(base, m, 'bin/postgres'))) return path.join(base, m, 'bin');
  throw new Error(
    'PostgreSQL server binaries were not found (Debian: apt-get ' +
      'install postgresql); set PG_BIN to their folder.',
  );
}

export async function startPostgres(opts: PostgresOptions): Promise<Postgres> {
  const bin = postgresBin();
  const account = serviceAccount();
  const data = path.join(opts.dir, 'data');
  const passwordFile = path.join(opts.dir, 'password');
  ownDir(opts.dir, account, 0o711);
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    fs.writeFileSync(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
    if (account) fs.chownSync(passwordFile, account.uid, account.gid);
    const init = launch(
      'initdb',
      path.join(bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        USER,
        '--pwfile',
        passwordFile,
        '--auth',
        'scram-sha-256',
        '-E',
        'UTF8',
        '--locale',
        'C',
        ...(opts.throwaway ? ['--no-sync'] : []),
      ],
      path.join(opts.dir, 'initdb.log'),
      { user: account },
    );
    const code = await new Promise<number | null>((resolve) => init.child.once('exit', resolve));
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): see ${init.log}`);
  }
  const password = fs.readFileSync(passwordFile, 'utf8').trim();
  const settings = [
    ['listen_addresses', '127.0.0.1'],
    ['port', String(opts.port)],
    ['unix_socket_directories', opts.dir],
    ['max_connections', String(opts.maxConnections ?? 300)],
    ...(opts.throwaway
      ? [
          ['fsync', 'off'],
          ['synchronous_commit', 'off'],
          ['full_page_writes', 'off'],
        ]
      : []),
  ];
  const service = launch(
    'postgres',
    path.join(bin, 'postgres'),
    ['-D', data, ...settings.flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    path.join(opts.dir, 'postgres.log'),
    { user: account },
  );
  const serverUrl = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  const admin = () => new pg.Client({ connectionString: `${serverUrl}/postgres` });
  const query = async (sql: string) => {
    const c = admin();
    await c.connect();
    try {
      return await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await waitUntil(service, 'connections', async () => (await query('SELECT 1'), true)).catch(
    async (e: unknown) => {
      await stopService(service);
      throw e;
    },
  );
  const quote = (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
    return `"${name}"`;
  };
  return {
    serverUrl,
    service,
    async database(name) {
      const exists = await query(`SELECT 1 FROM pg_database WHERE datname = '${name}'`);
      if (!exists.rowCount) await query(`CREATE DATABASE ${quote(name)}`);
      return `${serverUrl}/${name}`;
    },
    async dropDatabase(name) {
      await query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
    },
    stop: () => stopService(service),
  };
}
