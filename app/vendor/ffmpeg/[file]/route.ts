import { servePackageFile } from '@/lib/http/package-file';

// ffmpeg.wasm for the studio's stickers and animations: @ffmpeg/ffmpeg's modules (the page's
// class and its worker) and the single-threaded core they load (workers/browser/ffmpeg-wasm.ts).
const WORKER = new Set([
  'index.js',
  'classes.js',
  'types.js',
  'utils.js',
  'worker.js',
  'const.js',
  'errors.js',
]);
const CORE = new Set(['ffmpeg-core.js', 'ffmpeg-core.wasm']);

export async function GET(
  _req: Request,
  { params }: { params: Promise<{ file: string }> },
): Promise<Response> {
  const { file } = await params;
  if (WORKER.has(file)) return servePackageFile('@ffmpeg/ffmpeg/dist/esm', file);
  if (CORE.has(file)) return servePackageFile('@ffmpeg/core/dist/esm', file);
  return Response.json({ error: 'Not found' }, { status: 404 });
}
