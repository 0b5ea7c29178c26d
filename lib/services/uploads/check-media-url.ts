import { sniffImage } from '../../media/background';
import { sniffContainer } from './upload-source';
import { FetchError, safeFetchHead } from '../../net/safe-fetch';

/** What a composition background URL turned out to be. */
export type MediaKind = 'image' | 'video';

/**
 * Checks, before anything is charged, that a background URL can be used: it is reachable
 * through the SSRF-guarded fetch (public address, every redirect hop checked), answers 2xx, and
 * its first bytes are an image (PNG, JPEG, WebP) or a video container the renderer reads.
 * Throws a FetchError whose message says what is wrong in words. (The renderer tells images
 * from videos by their bytes too, so `background_type` is not held against it.)
 */
export async function checkMediaUrl(url: string): Promise<MediaKind> {
  const { head, contentType } = await safeFetchHead(url, { bytes: 64 });
  const kind: MediaKind | null = sniffImage(head) ? 'image' : sniffContainer(head) ? 'video' : null;
  if (!kind) {
    const type = contentType?.split(';')[0]?.trim();
    throw new FetchError(
      'The address does not lead to an image (PNG, JPEG, WebP) or a ' +
        'video (MP4, MOV, WebM, MKV, ' +
        `AVI)${type ? `; it answered with ${type}` : ''}.`,
    );
  }
  return kind;
}
