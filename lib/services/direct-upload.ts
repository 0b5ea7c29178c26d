import { randomUUID } from 'node:crypto';
import { db } from '../db/client';
import { env } from '../env';
import { ServiceError } from '../errors';
import { MediaError } from '../media/ffmpeg';
import { probeVideo } from '../media/probe';
import { ObjectChanged, storage, storageKeys } from '../storage';
import { tooLarge } from '../storage/limited-write';
import { NOT_A_VIDEO, sniffContainer, uploadedFacts } from './upload-source';

/** How often an upload replaced while it was being checked is checked again before giving up. */
const TRIES = 3;

async function head(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage().openRead(key, { start: 0, end: 15 })) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Checks the object at the upload target; a ServiceError says why it is refused. */
async function check(target: string, bytes: number) {
  const { MAX_UPLOAD_BYTES } = env();
  if (bytes > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES, bytes);
  if (bytes === 0) throw new ServiceError('invalid', 'The upload is empty');
  if (!sniffContainer(await head(target))) throw new ServiceError('invalid', NOT_A_VIDEO);
  try {
    return await probeVideo({ url: await storage().signedUrl(target, { method: 'GET', expiresIn: 300 }), bytes }, { metadataOnly: true });
  } catch (e) {
    if (e instanceof MediaError) throw new ServiceError('invalid', e.message);
    throw e;
  }
}

/**
 * Where storage is S3, the client's one PUT goes to the store, so the bytes are checked when
 * the job is next used (start, status), before it becomes `uploaded`: the size cap, the first
 * bytes, the headers (ffprobe through a presigned GET). The checked version is then moved to
 * `jobs/<id>/source.<ext>`, out of the upload URL's reach (a PUT replacing it meanwhile is
 * checked afresh). A refused upload is deleted, the reason kept in the job's message, and the
 * job stays `created` for another PUT.
 *
 * Returns true when the job is `uploaded` now. With local storage the upload route checked it
 * already, and nothing is ever stored at the upload target, so this is one stat.
 */
export async function settleDirectUpload(jobId: string): Promise<boolean> {
  const target = storageKeys.uploadTarget(jobId);
  for (let i = 0; i < TRIES; i++) {
    const stat = await storage().stat(target);
    if (!stat) return isUploaded(jobId);
    let info;
    try {
      info = await check(target, stat.bytes);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      // Only the version that failed: a newer PUT gets its own check.
      if ((await storage().stat(target))?.version === stat.version) await storage().delete(target);
      await db().job.updateMany({
        where: { id: jobId, status: 'created' },
        data: { message: `The upload was refused: ${e.message}${e.details ? `. ${e.details}` : ''}. Upload the video again.` },
      });
      throw e;
    }
    const key = storageKeys.source(jobId, randomUUID().slice(0, 8), info.container);
    try {
      await storage().move(target, key, { ifVersion: stat.version });
    } catch (e) {
      if (e instanceof ObjectChanged) continue;
      // Another request settled it first (the target is gone): its outcome stands.
      if (await isUploaded(jobId)) return true;
      throw e;
    }
    const { count } = await db().job.updateMany({ where: { id: jobId, status: 'created' }, data: uploadedFacts(key, stat.bytes, info) });
    return count === 1 || isUploaded(jobId);
  }
  throw new ServiceError('conflict', 'The upload kept changing while it was being checked', 'Upload the video once, then start the job.');
}

async function isUploaded(jobId: string): Promise<boolean> {
  const job = await db().job.findUnique({ where: { id: jobId }, select: { status: true } });
  return job?.status === 'uploaded';
}
