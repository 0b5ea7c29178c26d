import { randomUUID } from 'node:crypto';
import { env } from '../../env';
import { inWords, ServiceError } from '../../errors';
import { MediaError } from '../../media/ffmpeg';
import { imageSize, sniffImage } from '../../media/background';
import { probeVideo } from '../../media/probe';
import type { StillOptions } from '../../schemas/image-to-video';
import { stillColumn } from './columns';
import { ObjectChanged, storageKeys } from '../../storage';
import { tooLarge } from '../../storage/limited-write';
import {
  mediaRefusal,
  NOT_A_STILL,
  NOT_A_VIDEO,
  sniffContainer,
  stillExtension,
  stillFacts,
  uploadedFacts,
} from './upload-source';
import type { Ports } from '../ports';

/** How often an upload replaced while it was being checked is checked again before giving up. */
const TRIES = 3;

async function head(ports: Ports, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await ports.storage.openRead(key, { start: 0, end: 15 }))
    chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function checkSize(bytes: number): void {
  const { MAX_UPLOAD_BYTES } = env();
  if (bytes > MAX_UPLOAD_BYTES) throw tooLarge(MAX_UPLOAD_BYTES, bytes);
  if (bytes === 0) throw new ServiceError('invalid', 'The upload is empty');
}

const readUrl = (ports: Ports, target: string) =>
  ports.storage.signedUrl(target, { method: 'GET', expiresIn: 300 });

/** A MediaError becomes the client's answer (mediaRefusal); anything else stays ours. */
async function refusingMedia<T>(read: () => Promise<T>, prefix = ''): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw e instanceof MediaError ? mediaRefusal(e, prefix) : e;
  }
}

/** What the object at the upload target becomes once checked: its key and the job's facts. */
type Checked = {
  key: string;
  facts: ReturnType<typeof uploadedFacts> | ReturnType<typeof stillFacts>;
};

/** A video: the size cap, the first bytes, the headers (ffprobe through a presigned GET). */
async function checkVideo(
  ports: Ports,
  jobId: string,
  target: string,
  bytes: number,
): Promise<Checked> {
  checkSize(bytes);
  if (!sniffContainer(await head(ports, target))) throw new ServiceError('invalid', NOT_A_VIDEO);
  const info = await refusingMedia(async () =>
    probeVideo({ url: await readUrl(ports, target), bytes }, { metadataOnly: true }),
  );
  const key = storageKeys.source(jobId, randomUUID().slice(0, 8), info.container);
  return { key, facts: uploadedFacts(key, bytes, info) };
}

/**
 * An image-to-video job's still: the size cap, the magic bytes, its size read through the forced
 * image demuxer.
 */
async function checkStill(
  ports: Ports,
  jobId: string,
  target: string,
  bytes: number,
  options: StillOptions,
): Promise<Checked> {
  checkSize(bytes);
  const demuxer = sniffImage(await head(ports, target));
  if (!demuxer) throw new ServiceError('invalid', NOT_A_STILL);
  const size = await refusingMedia(
    async () => imageSize({ url: await readUrl(ports, target) }, demuxer),
    'The image ',
  );
  const key = storageKeys.still(jobId, randomUUID().slice(0, 8), stillExtension(demuxer));
  return { key, facts: stillFacts(key, bytes, size, options) };
}

/**
 * Where storage is S3, the client's one PUT goes to the store, so the bytes are checked when
 * the job is next used (start, status), before it becomes `uploaded`: a video as upload-source
 * checks it (size cap, first bytes, headers through a presigned GET), an image-to-video job's
 * still as an image. The checked version is then moved to its own key
 * (`jobs/<id>/source-<upload>.<ext>`, `jobs/<id>/still-<upload>.<ext>`), out of the upload URL's
 * reach (a PUT replacing it meanwhile is checked afresh). A refused upload is deleted, the
 * reason kept in the job's message, and the job stays `created` for another PUT. A check cut
 * short by load (busy) leaves the upload where it is, to be checked on the next call.
 *
 * Returns true when the job is `uploaded` now. With local storage the upload route checked it
 * already, and nothing is ever stored at the upload target, so this is one stat.
 */
export async function settleDirectUpload(ports: Ports, jobId: string): Promise<boolean> {
  const target = storageKeys.uploadTarget(jobId);
  for (let i = 0; i < TRIES; i++) {
    const stat = await ports.storage.stat(target);
    if (!stat) return isUploaded(ports, jobId);
    const job = await ports.db.job.findUnique({
      where: { id: jobId },
      select: { stillJson: true },
    });
    if (!job) return false;
    const still = stillColumn.readNullable(job.stillJson);
    let checked: Checked;
    try {
      checked = still
        ? await checkStill(ports, jobId, target, stat.bytes, still)
        : await checkVideo(ports, jobId, target, stat.bytes);
    } catch (e) {
      // A check that could not run now (busy) keeps the upload for the next try.
      if (!(e instanceof ServiceError) || e.kind === 'busy') throw e;
      // Only the version that failed: a newer PUT gets its own check.
      if ((await ports.storage.stat(target))?.version === stat.version)
        await ports.storage.delete(target);
      await ports.db.job.updateMany({
        where: { id: jobId, status: 'created' },
        data: {
          message:
            `The upload was refused: ${inWords(e)} Upload the ` +
            `${still ? 'image' : 'video'} again.`,
        },
      });
      throw e;
    }
    try {
      await ports.storage.move(target, checked.key, { ifVersion: stat.version });
    } catch (e) {
      if (e instanceof ObjectChanged) continue;
      // Another request settled it first (the target is gone): its outcome stands.
      if (await isUploaded(ports, jobId)) return true;
      throw e;
    }
    const { count } = await ports.db.job.updateMany({
      where: { id: jobId, status: 'created' },
      data: checked.facts,
    });
    return count === 1 || isUploaded(ports, jobId);
  }
  throw new ServiceError(
    'conflict',
    'The upload kept changing while it was being checked',
    'Upload the video once, then start the job.',
  );
}

async function isUploaded(ports: Ports, jobId: string): Promise<boolean> {
  const job = await ports.db.job.findUnique({ where: { id: jobId }, select: { status: true } });
  return job?.status === 'uploaded';
}
