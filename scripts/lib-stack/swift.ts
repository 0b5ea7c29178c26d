import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { launch, portOpen, stopService, waitUntil, type Service } from './processes';

/**
 * A real S3-compatible store of our own: OpenStack Swift (the distribution's packages) with its
 * s3api middleware, one replica on one device in `dir`, on 127.0.0.1. Ports: `port` for the
 * proxy (the S3 endpoint), port+1..+3 for the account, container and object servers, port+4
 * for memcached. No root needed; the S3 credentials are generated into `dir` on first start.
 * Browsers may PUT and GET with presigned URLs from any origin (CORS), as the dashboard does.
 */
export interface SwiftS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Creates the bucket if it does not exist. */
  bucket(name: string): Promise<void>;
  stop(): Promise<void>;
  services: Service[];
}

const SERVERS = ['account', 'container', 'object'] as const;
const REGION = 'us-east-1';

export function swiftUnavailable(): string | null {
  for (const bin of [
    'swift-proxy-server',
    'swift-object-server',
    'swift-ring-builder',
    'memcached',
  ]) {
    try {
      execFileSync('which', [bin], { stdio: 'ignore' });
    } catch {
      return (
        `${bin} was not found (Debian: apt-get install ` +
        '--no-install-recommends swift-proxy swift-account ' +
        'swift-container swift-object memcached)'
      );
    }
  }
  return null;
}

function ini(sections: Record<string, Record<string, string | number>>): string {
  return Object.entries(sections)
    .map(
      ([name, kv]) =>
        `[${name}]\n${Object.entries(kv)
          .map(([k, v]) => `${k} = ${v}`)
          .join('\n')}\n`,
    )
    .join('\n');
}

/**
 * One ring per server, one device each: what `swift-ring-builder <f> create 6 1 1`, `add
 * r1z1-127.0.0.1:<port>/d1 100` and `rebalance` write, done in one Python process with Swift's
 * own RingBuilder (the nine commands took about 10 s of CPU, the slowest part of starting).
 */
function buildRings(dir: string, rings: (readonly [string, number])[]): void {
  const python =
    /^#!\s*(\S+)/.exec(
      fs.readFileSync(
        execFileSync('which', ['swift-ring-builder'], { encoding: 'utf8' }).trim(),
        'utf8',
      ),
    )?.[1] ?? 'python3';
  const script = `
import sys
from swift.common.ring import RingBuilder
for spec in sys.argv[2:]:
    name, port = spec.split(':')
    b = RingBuilder(6, 1, 1)
    b.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port),
               'replication_ip': '127.0.0.1', 'replication_port': int(port),
               'device': 'd1', 'weight': 100, 'meta': ''})
    b.rebalance()
    b.get_ring().save(f'{sys.argv[1]}/{name}.ring.gz')
    b.save(f'{sys.argv[1]}/{name}.builder')
`;
  execFileSync(python, ['-c', script, dir, ...rings.map(([name, port]) => `${name}:${port}`)]);
}

function configure(dir: string, port: number, secret: string): void {
  const user = os.userInfo().username;
  const devices = path.join(dir, 'node');
  fs.mkdirSync(path.join(devices, 'd1'), { recursive: true });
  const hashFile = path.join(dir, 'hash');
  if (!fs.existsSync(hashFile)) fs.writeFileSync(hashFile, randomBytes(16).toString('hex'));
  const hash = fs.readFileSync(hashFile, 'utf8');
  fs.writeFileSync(
    path.join(dir, 'swift.conf'),
    ini({
      'swift-hash': { swift_hash_path_suffix: hash, swift_hash_path_prefix: hash },
      'storage-policy:0': { name: 'Policy-0', default: 'yes' },
    }),
  );
  // workers 0: each storage server serves from its own process (no forked child loading the app
  // again).
  const common = {
    bind_ip: '127.0.0.1',
    user,
    swift_dir: dir,
    devices,
    mount_check: 'false',
    workers: 0,
    log_level: 'WARNING',
  };
  SERVERS.forEach((server, i) => {
    fs.writeFileSync(
      path.join(dir, `${server}-server.conf`),
      ini({
        DEFAULT: { ...common, bind_port: port + 1 + i },
        'pipeline:main': { pipeline: `${server}-server` },
        [`app:${server}-server`]: { use: `egg:swift#${server}` },
        [`${server}-replicator`]: {},
        [`${server}-updater`]: {},
        [`${server}-auditor`]: {},
      }),
    );
  });
  const missing = SERVERS.map((server, i) => [server, port + 1 + i] as const).filter(
    ([server]) => !fs.existsSync(path.join(dir, `${server}.builder`)),
  );
  if (missing.length) buildRings(dir, missing);
  const filters = [
    'catch_errors',
    'gatekeeper',
    'healthcheck',
    'proxy_logging',
    'cache',
    'listing_formats',
    'bulk',
    's3api',
    'tempauth',
    'copy',
    'slo',
    'dlo',
  ];
  fs.writeFileSync(
    path.join(dir, 'proxy-server.conf'),
    ini({
      DEFAULT: {
        bind_ip: '127.0.0.1',
        bind_port: port,
        user,
        swift_dir: dir,
        workers: 2,
        log_level: 'WARNING',
      },
      'pipeline:main': {
        pipeline:
          `${filters.join(' ').replace('proxy_logging', 'proxy-logging')} ` +
          'proxy-logging proxy-server',
      },
      'app:proxy-server': {
        use: 'egg:swift#proxy',
        account_autocreate: 'true',
        cors_allow_origin: '*',
        cors_expose_headers: 'ETag, Content-Range, Accept-Ranges',
      },
      'filter:tempauth': { use: 'egg:swift#tempauth', user_keyout_keyout: `${secret} .admin` },
      'filter:s3api': {
        use: 'egg:swift#s3api',
        location: REGION,
        cors_preflight_allow_origin: '*',
      },
      'filter:cache': { use: 'egg:swift#memcache', memcache_servers: `127.0.0.1:${port + 4}` },
      'filter:proxy-logging': { use: 'egg:swift#proxy_logging' },
      ...Object.fromEntries(
        filters
          .filter((f) => !['tempauth', 's3api', 'cache', 'proxy_logging'].includes(f))
          .map((f) => [`filter:${f}`, { use: `egg:swift#${f}` }]),
      ),
    }),
  );
}

export async function startSwift({ dir, port }: { dir: string; port: number }): Promise<SwiftS3> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secretFile = path.join(dir, 'secret');
  if (!fs.existsSync(secretFile))
    fs.writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const secret = fs.readFileSync(secretFile, 'utf8');
  configure(dir, port, secret);
  const log = (name: string) => path.join(dir, `${name}.log`);
  const root = process.getuid?.() === 0;
  const services: Service[] = [
    launch(
      'memcached',
      'memcached',
      [
        '-l',
        '127.0.0.1',
        '-p',
        String(port + 4),
        '-U',
        '0',
        '-m',
        '64',
        ...(root ? ['-u', 'nobody'] : []),
      ],
      log('memcached'),
    ),
  ];
  for (const server of SERVERS)
    services.push(
      launch(
        `swift-${server}`,
        `swift-${server}-server`,
        [path.join(dir, `${server}-server.conf`), '-v'],
        log(server),
      ),
    );
  const proxy = launch(
    'swift-proxy',
    'swift-proxy-server',
    [path.join(dir, 'proxy-server.conf'), '-v'],
    log('proxy'),
  );
  services.push(proxy);
  const stop = async () => {
    await Promise.all(services.map((s) => stopService(s)));
  };
  try {
    for (const [s, p] of services
      .slice(0, 4)
      .map((s, i) => [s, i === 0 ? port + 4 : port + i] as const))
      await waitUntil(s, `port ${p}`, () => portOpen(p));
    await waitUntil(
      proxy,
      'a healthy proxy',
      async () => (await fetch(`http://127.0.0.1:${port}/healthcheck`)).ok,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'keyout:keyout', secretAccessKey: secret };
  return {
    endpoint,
    region: REGION,
    ...credentials,
    services,
    stop,
    async bucket(name) {
      const s3 = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials });
      try {
        await s3.send(new HeadBucketCommand({ Bucket: name }));
      } catch {
        await s3.send(new CreateBucketCommand({ Bucket: name }));
      } finally {
        s3.destroy();
      }
    },
  };
}
