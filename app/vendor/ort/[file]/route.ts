import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

// onnxruntime-web's WebAssembly binaries and their loaders, served from our own origin straight
// out of the installed package: no CDN, no copy step to forget, always the installed version.
const ALLOWED = /^ort-wasm-simd-threaded(\.(jsep|jspi|asyncify))?\.(wasm|mjs)$/;
const distDir = path.join(process.cwd(), 'node_modules', 'onnxruntime-web', 'dist');

export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  if (!ALLOWED.test(file)) return new Response('Not found', { status: 404 });
  const full = path.join(distDir, file);
  let size: number;
  try {
    size = (await fs.promises.stat(full)).size;
  } catch {
    return new Response('Not found', { status: 404 });
  }
  return new Response(Readable.toWeb(fs.createReadStream(full)) as ReadableStream, {
    headers: {
      'Content-Type': file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript; charset=utf-8',
      'Content-Length': String(size),
      'Cache-Control': 'public, max-age=86400',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  });
}
