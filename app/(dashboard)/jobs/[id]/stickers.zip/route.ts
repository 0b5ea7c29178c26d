import { Readable } from 'node:stream';
import { notFound } from 'next/navigation';
import { requireUser } from '@/lib/auth/current-user';
import { ServiceError } from '@/lib/errors';
import { stickersZip } from '@/lib/services/outputs/exports';
import { defaultPorts } from '@/lib/services/ports';

/** The Stickers panel's "Download all": every finished sticker of the job in one ZIP. */
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser(`/jobs/${id}`);
  try {
    const zip = await stickersZip(defaultPorts, user.id, id);
    return new Response(Readable.toWeb(zip.stream) as ReadableStream, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="${zip.filename.replace(/[^\w.-]/g, '_')}"`,
        'Cache-Control': 'private, no-store',
      },
    });
  } catch (err) {
    if (err instanceof ServiceError && err.kind === 'not_found') notFound();
    throw err;
  }
}
