import { servePackageFile } from '@/lib/http/package-file';

// onnxruntime-web's WebAssembly binaries and their loaders, for the studio's models.
const ALLOWED = /^ort-wasm-simd-threaded(\.(jsep|jspi|asyncify))?\.(wasm|mjs)$/;

export async function GET(
  _req: Request,
  { params }: { params: Promise<{ file: string }> },
): Promise<Response> {
  const { file } = await params;
  if (!ALLOWED.test(file)) return Response.json({ error: 'Not found' }, { status: 404 });
  return servePackageFile('onnxruntime-web/dist', file);
}
