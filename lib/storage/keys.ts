import path from 'node:path';

/**
 * The one place that knows the storage key layout of a job:
 *   jobs/<jobId>/source-<upload>.<ext>   the uploaded original (each upload its own key)
 *   jobs/<jobId>/still-<upload>.<ext>    image-to-video: the uploaded still (each upload its own
 *   key) jobs/<jobId>/mask-v<N>.mkv           mask versions (FFV1 grey)
 *   jobs/<jobId>/outputs/<outputId>.<ext> rendered outputs
 *   jobs/<jobId>/outputs/<outputId>.poster.png  a still of each output
 *   jobs/<jobId>/thumb.jpg, thumb.png    thumbnails (opaque, transparent)
 *   jobs/<jobId>/preview.png             newest finished frame while segmenting (replaced as it
 *   goes) jobs/<jobId>/background.<png|jpg|webp>  a composition background uploaded from the
 *   dashboard
 */
export const storageKeys = {
  jobPrefix: (jobId: string) => `jobs/${jobId}`,
  /** The PUT target of the signed upload URL; the stored file gets its real extension later. */
  uploadTarget: (jobId: string) => `jobs/${jobId}/source`,
  source: (jobId: string, upload: string, ext: string) => `jobs/${jobId}/source-${upload}.${ext}`,
  still: (jobId: string, upload: string, ext: string) => `jobs/${jobId}/still-${upload}.${ext}`,
  mask: (jobId: string, version: number) => `jobs/${jobId}/mask-v${version}.mkv`,
  output: (jobId: string, outputId: string, ext: string) =>
    `jobs/${jobId}/outputs/${outputId}.${ext}`,
  poster: (jobId: string, outputId: string) => `jobs/${jobId}/outputs/${outputId}.poster.png`,
  thumbnail: (jobId: string) => `jobs/${jobId}/thumb.jpg`,
  transparentThumbnail: (jobId: string) => `jobs/${jobId}/thumb.png`,
  preview: (jobId: string) => `jobs/${jobId}/preview.png`,
  background: (jobId: string, ext: BackgroundExtension) => `jobs/${jobId}/background.${ext}`,
};

export const BACKGROUND_EXTENSIONS = ['png', 'jpg', 'webp'] as const;
export type BackgroundExtension = (typeof BACKGROUND_EXTENSIONS)[number];

/** Whether `key` is one of the job's own uploaded background keys. */
export function isBackgroundKeyOf(jobId: string, key: string): boolean {
  return BACKGROUND_EXTENSIONS.some((ext) => storageKeys.background(jobId, ext) === key);
}

const JOB_KEY = /^jobs\/([0-9a-f-]{36})\//;

/** The job a key belongs to, when it is one of a job's files. */
export function jobIdOfKey(key: string): string | null {
  return JOB_KEY.exec(key)?.[1] ?? null;
}

const UPLOAD_TARGET = /^jobs\/([0-9a-f-]{36})\/source$/;

/** The job id when `key` is a job's upload target. */
export function jobIdOfUploadTarget(key: string): string | null {
  return UPLOAD_TARGET.exec(key)?.[1] ?? null;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are plain relative paths: no "..", no leading slash, no odd characters. */
export function isSafeKey(key: string): boolean {
  return (
    key.length <= 512 && SAFE_KEY.test(key) && !key.split('/').some((s) => s === '..' || s === '.')
  );
}

/** A download's Content-Disposition: the name as given (RFC 5987) with an ASCII fallback. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const TYPES: Record<string, string> = {
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.m4v': 'video/x-m4v',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.zip': 'application/zip',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.apng': 'image/apng',
  '.json': 'application/json',
};

/** The media type a stored file is served with, from its extension. */
export function contentTypeOf(key: string): string {
  return TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}
