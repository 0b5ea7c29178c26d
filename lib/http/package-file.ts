import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * A file of an installed npm package that the browser loads as code (WebAssembly and its
 * loaders), served from our own origin straight out of node_modules: no CDN, no copy step to
 * forget, always the installed version. `file` must already be checked against an allowlist.
 */
export async function servePackageFile(dir: string, file: string): Promise<Response> {
  const full = path.join(process.cwd(), 'node_modules', dir, file);
  let size: number;
  try {
    size = (await fs.promises.stat(full)).size;
  } catch {
    return Response.json({ error: 'Not found' }, { status: 404 });
  }
  return new Response(Readable.toWeb(fs.createReadStream(full)) as ReadableStream, {
    headers: {
      'Content-Type': file.endsWith('.wasm')
        ? 'application/wasm'
        : 'text/javascript; charset=utf-8',
      'Content-Length': String(size),
      'Cache-Control': 'public, max-age=86400',
      'Cross-Origin-Resource-Policy': 'same-origin',
    },
  });
}
