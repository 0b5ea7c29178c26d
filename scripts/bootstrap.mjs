// Shared by `npm start` and `npm test`: plain Node (no dependencies), so it can run on a fresh
// clone before anything is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

// Nothing phones home (docs/operations.md), for every process the start, test and stack scripts
// run: Next's telemetry (next.config.ts turns it off again for Next commands started elsewhere),
// and the Prisma CLI's usage and update check (checkpoint.prisma.io), which `prisma generate`
// sends at every start otherwise.
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.CHECKPOINT_DISABLE = '1';

export function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    cwd: root,
    ...opts,
    env: { ...process.env, ...opts.env },
  });
  if (r.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

function checkNode() {
  // better-sqlite3 13 (the SQLite driver; 12 aborts at exit on Node 24) is built on Node-API for
  // 22+.
  const [maj] = process.versions.node.split('.').map(Number);
  if (maj < 22) {
    console.error(
      'Keyout needs Node.js 22 or newer; 24, the current LTS, is what ' +
        `CI runs (found ${process.versions.node}).`,
    );
    process.exit(1);
  }
}

function checkFfmpeg() {
  for (const bin of [process.env.FFMPEG_PATH || 'ffmpeg', process.env.FFPROBE_PATH || 'ffprobe']) {
    try {
      execFileSync(bin, ['-version'], { stdio: 'ignore' });
    } catch {
      console.error(
        `\n✖ ${bin} was not found. Keyout needs native FFmpeg (5.1 or newer):\n` +
          '    Debian/Ubuntu: sudo apt-get install ffmpeg\n' +
          '    macOS:         brew install ffmpeg\n' +
          '  or point FFMPEG_PATH and FFPROBE_PATH at your binaries.',
      );
      process.exit(1);
    }
  }
}

/** Tools the start and test scripts run; an install without them is not complete. */
const REQUIRED_BINS = ['tsx', 'next', 'prisma', 'vitest', 'tsc'];

function missingBins() {
  return REQUIRED_BINS.filter(
    (bin) => !fs.existsSync(path.join(root, 'node_modules', '.bin', bin)),
  );
}

function installComplete() {
  return missingBins().length === 0;
}

/**
 * Installs dependencies when node_modules is missing, incomplete, or was installed from another
 * lockfile, and rebuilds the native modules (better-sqlite3) when it was installed by a Node with
 * another ABI. The marker is written only once the install is complete, so an interrupted or
 * partial one is repaired by the next run instead of failing on every run after it.
 */
function installIfNeeded() {
  const lockHash = () =>
    createHash('sha256')
      .update(fs.readFileSync(path.join(root, 'package-lock.json')))
      .digest('hex');
  const marker = path.join(root, 'node_modules', '.keyout-lock-hash');
  const abiTag = `node-abi-${process.versions.modules}`;
  const [installed, abi] = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split(' ') : [];
  if (installed === lockHash() && abi === abiTag && installComplete()) return;
  fs.rmSync(marker, { force: true });
  console.log('› Installing dependencies (npm install)…');
  // `npm install` rather than `npm ci`: npm 11 omits other platforms' optional binaries
  // (@next/swc-*, @tailwindcss/oxide-*) from the lockfile and `npm ci` then refuses it.
  // --include=dev: NODE_ENV=production (common on servers and in containers) would otherwise
  // leave out tsx, TypeScript and Tailwind, which setup and the build need.
  // CUDA extras of onnxruntime-node download from outside the npm registry: opt in with
  // ONNXRUNTIME_NODE_INSTALL=... on a GPU machine; the CPU build ships inside the package.
  const npmEnv = {
    env: {
      ONNXRUNTIME_NODE_INSTALL: process.env.ONNXRUNTIME_NODE_INSTALL ?? 'skip',
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      PRISMA_SKIP_POSTINSTALL_GENERATE: '1',
    },
  };
  sh('npm', ['install', '--include=dev', '--no-audit', '--no-fund'], npmEnv);
  // npm install leaves modules it already has as they are, built for the Node that installed them.
  if (installed && abi !== abiTag) sh('npm', ['rebuild'], npmEnv);
  if (!installComplete()) {
    console.error(`\n✖ npm install finished without ${missingBins().join(', ')}; run it again.`);
    process.exit(1);
  }
  // The lockfile as the install left it: npm may rewrite it (an older npm's lockfile), and the
  // marker must match what the next start reads, or every start installs again.
  fs.writeFileSync(marker, `${lockHash()} ${abiTag}`);
}

/**
 * What the web build is made from. The Prisma clients are generated from prisma/schema.prisma
 * at every start (generateClients), so the schema counts and the generated folders do not:
 * counting lib/db/generated-postgres made every `npm start` rebuild.
 */
const BUILD_SOURCES = [
  ...['app', 'components', 'lib', 'engine', 'workers', 'public'],
  ...[
    'instrumentation.ts',
    'instrumentation-node.ts',
    'proxy.ts',
    'next.config.ts',
    'prisma/schema.prisma',
    'package-lock.json',
  ],
];
const NOT_SOURCES = new Set(['node_modules', '.next', 'generated', 'generated-postgres']);

/**
 * A content hash of the build's sources under `dir` (paths and bytes, in a fixed order).
 * Contents, not modification times: a checkout, `npm install` or a copy touches files without
 * changing them, and that must not cost a rebuild.
 */
export function sourcesHash(dir = root) {
  const hash = createHash('sha256');
  const walk = (rel) => {
    const p = path.join(dir, rel);
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (NOT_SOURCES.has(path.basename(p))) return;
      for (const e of fs.readdirSync(p).sort()) walk(path.join(rel, e));
    } else hash.update(`${rel}\0${st.size}\0`).update(fs.readFileSync(p));
  };
  for (const s of BUILD_SOURCES) if (fs.existsSync(path.join(dir, s))) walk(s);
  return hash.digest('hex');
}

/** Where a build records the sources hash it was made from (inside .next, so it goes with it). */
const stampFile = (dir) => path.join(dir, '.next', 'keyout-build-sources');

/** Whether the checkout at `dir` has a web build made from its current sources. */
export function buildIsCurrent(dir = root) {
  if (!fs.existsSync(path.join(dir, '.next', 'BUILD_ID')) || !fs.existsSync(stampFile(dir)))
    return false;
  return fs.readFileSync(stampFile(dir), 'utf8') === sourcesHash(dir);
}

/**
 * `next build` of the checkout at `dir`, stamped with the hash of the sources as they were when
 * it began: a source edited during the build leaves it stale.
 */
export function build(dir = root) {
  const hash = sourcesHash(dir);
  sh('npx', ['next', 'build'], { cwd: dir });
  fs.writeFileSync(stampFile(dir), hash);
}

/**
 * Where each running `npm start` of the checkout says it serves the build in .next: one file per
 * process.
 */
const servingDir = (dir) => path.join(dir, '.next', 'keyout-serving');

/** Marks this process as serving the checkout's build until it exits (`npm start`). */
export function markServing() {
  const file = path.join(servingDir(root), String(process.pid));
  fs.mkdirSync(servingDir(root), { recursive: true });
  fs.writeFileSync(file, '');
  process.on('exit', () => fs.rmSync(file, { force: true }));
}

const isAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e?.code === 'EPERM';
  }
};

/**
 * Why the checkout at `dir` must not be rebuilt now, or null: `next build` empties .next, and a
 * Keyout started from the same folder that serves it then fails to load its pages' scripts.
 * Markers left by killed processes block nothing.
 */
export function buildBlocker(dir = root) {
  const pids = fs.existsSync(servingDir(dir)) ? fs.readdirSync(servingDir(dir)).map(Number) : [];
  const pid = pids.find((p) => Number.isInteger(p) && p > 0 && isAlive(p));
  if (pid === undefined) return null;
  return (
    `Keyout started from this folder (pid ${pid}) is serving the ` +
    'current build, and a rebuild would delete it under it. Stop it ' +
    'first, or start this one from another checkout.'
  );
}

export function buildIfStale() {
  if (buildIsCurrent()) return;
  const blocker = buildBlocker();
  if (blocker) {
    console.error(`\n✖ The web app's sources changed since its build. ${blocker}`);
    process.exit(1);
  }
  console.log('› Building the web app (next build)…');
  build();
}

/**
 * One Prisma client per database, from the one schema: prisma/schema.prisma (SQLite) and its
 * derived PostgreSQL twin (scripts/prisma-schemas.mjs). `prisma generate` needs no schema engine;
 * pointing at any executable stops its download.
 */
export function generateClients() {
  sh(process.execPath, ['scripts/prisma-schemas.mjs']);
  for (const schema of ['prisma/schema.prisma', 'prisma/postgres/schema.prisma']) {
    sh('npx', ['prisma', 'generate', '--schema', schema], {
      env: {
        PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      },
      stdio: ['inherit', 'ignore', 'inherit'],
    });
  }
}

/** Everything before the app can run: Node, ffmpeg, dependencies, Prisma client, DB, models. */
export function prepare() {
  checkNode();
  checkFfmpeg();
  installIfNeeded();
  generateClients();
  sh('npx', ['tsx', 'scripts/setup.ts']);
}
