import fs from 'node:fs';
import { Readable } from 'node:stream';
import { BUILTIN_MODELS } from '@/engine';
import { BROWSER_PROMPT_MODELS } from '@/engine/prompts/models';
import { modelFilePath } from '@/lib/models/resolve';

// Model weights for the in-browser Studio and the job page's click preview (SAM), streamed
// from MODELS_DIR on our own origin. Only files named by a built-in manifest are served, so
// this never exposes anything else on disk.
const SERVED = new Set([...BUILTIN_MODELS, ...BROWSER_PROMPT_MODELS].map((m) => m.file));

export async function GET(
  _req: Request,
  { params }: { params: Promise<{ file: string }> },
): Promise<Response> {
  const { file } = await params;
  if (!SERVED.has(file)) return Response.json({ error: 'Model not found' }, { status: 404 });
  let full: string;
  try {
    full = modelFilePath(file);
  } catch (err) {
    return Response.json(
      { error: 'Model not available on this server', details: (err as Error).message },
      { status: 503 },
    );
  }
  const { size, mtimeMs } = await fs.promises.stat(full);
  return new Response(Readable.toWeb(fs.createReadStream(full)) as ReadableStream, {
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(size),
      'Cache-Control': 'public, max-age=3600',
      ETag: `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}"`,
    },
  });
}
