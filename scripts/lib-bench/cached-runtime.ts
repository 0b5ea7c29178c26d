import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { InferenceRuntime, InferenceSession, TensorData } from '../../engine/runtime';

/**
 * Benchmarks only: a runtime that keeps every model answer on disk, keyed by the model and the
 * exact bytes fed to it, so tuning runs over the same clips skip the models they already ran
 * (ISNet on a key costs seconds here; a rerun of the choice logic then costs only the logic).
 * Timings from a cached run are meaningless: bench:speed never uses it.
 */
export function cachedRuntime(inner: InferenceRuntime, dir: string): InferenceRuntime {
  return {
    name: `${inner.name}, answers cached in ${dir}`,
    async load(model) {
      const session = await inner.load(model);
      const folder = path.join(dir, model.id.replace(/[^\w.-]/g, '_'));
      fs.mkdirSync(folder, { recursive: true });
      const cached: InferenceSession = {
        inFlight: session.inFlight,
        async run(feeds, outputs) {
          const file = path.join(folder, `${keyOf(feeds, outputs)}.bin`);
          if (fs.existsSync(file)) return readAnswer(file);
          const answer = await session.run(feeds, outputs);
          writeAnswer(file, answer);
          return answer;
        },
        release: () => session.release(),
      };
      return cached;
    },
  };
}

function keyOf(feeds: Record<string, TensorData>, outputs: readonly string[]): string {
  const h = createHash('sha1');
  for (const name of Object.keys(feeds).sort()) {
    const t = feeds[name]!;
    h.update(`${name}:${t.dims.join('x')};`);
    h.update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  h.update(outputs.join(','));
  return h.digest('hex');
}

function writeAnswer(file: string, answer: Record<string, TensorData>): void {
  const head = Object.entries(answer).map(([name, t]) => ({
    name,
    dims: t.dims,
    length: t.data.length,
  }));
  const json = Buffer.from(JSON.stringify(head));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(
    tmp,
    Buffer.concat([
      size,
      json,
      ...Object.values(answer).map((t) =>
        Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength),
      ),
    ]),
  );
  fs.renameSync(tmp, file);
}

function readAnswer(file: string): Record<string, TensorData> {
  const buf = fs.readFileSync(file);
  const n = buf.readUInt32LE(0);
  const head = JSON.parse(buf.subarray(4, 4 + n).toString()) as {
    name: string;
    dims: number[];
    length: number;
  }[];
  let off = 4 + n;
  const out: Record<string, TensorData> = {};
  for (const t of head) {
    const bytes = buf.subarray(off, off + t.length * 4);
    out[t.name] = {
      data: new Float32Array(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      ),
      dims: t.dims,
    };
    off += t.length * 4;
  }
  return out;
}
