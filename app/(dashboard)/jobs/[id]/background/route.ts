import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { currentUser } from '@/lib/auth/current-user';
import { toHttpError } from '@/lib/http/errors';
import { uploadBackground } from '@/lib/services/uploads/upload-background';
import { defaultPorts } from '@/lib/services/ports';

type Ctx = { params: Promise<{ id: string }> };

const json = (status: number, body: unknown) => Response.json(body, { status });

/**
 * The dashboard's background image upload for one of the signed-in user's jobs: the raw file as
 * the body (streamed, never buffered). The session cookie is SameSite=Lax, and a request a
 * browser marks as coming from another site is refused as well.
 */
export async function POST(req: Request, ctx: Ctx) {
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin')
    return json(403, { error: 'Cross-site uploads are not allowed' });
  const user = await currentUser();
  if (!user) return json(401, { error: 'Sign in to upload a background' });
  if (!req.body) return json(400, { error: 'The background image is empty' });
  try {
    const length = req.headers.get('content-length');
    const body = Readable.fromWeb(req.body as NodeWebStream<Uint8Array>);
    const stored = await uploadBackground(defaultPorts, user.id, (await ctx.params).id, body, {
      contentLength: length ? Number(length) : undefined,
    });
    return json(200, stored);
  } catch (e) {
    const err = toHttpError(e);
    return json(
      err.status,
      err.details ? { error: err.message, details: err.details } : { error: err.message },
    );
  }
}
