/**
 * What several formats have in common, stated once: the files they write (a transparent format
 * and the sticker codec writing the same kind of file share its extension, type, codec,
 * container, checks and alpha) and the traits of a family of formats.
 */

export const APNG_FILE = {
  extension: 'png',
  contentType: 'image/apng',
  codec: 'apng',
  container: 'apng',
  profile: 'animation-alpha',
  alpha: 'straight',
} as const;

/** GIF transparency is on or off. */
export const GIF_FILE = {
  extension: 'gif',
  contentType: 'image/gif',
  codec: 'gif',
  container: 'gif',
  profile: 'animation-binary-alpha',
  alpha: 'binary',
} as const;

export const WEBP_FILE = {
  extension: 'webp',
  contentType: 'image/webp',
  codec: 'webp',
  container: 'webp',
  profile: 'animation-alpha',
  alpha: 'straight',
} as const;

export const WEBM_VP9_ALPHA_FILE = {
  extension: 'webm',
  contentType: 'video/webm',
  codec: 'vp9',
  container: 'webm',
  profile: 'video-alpha',
  alpha: 'straight',
} as const;

/**
 * Transparent animated images (APNG, GIF, WebP): silent, looping forever, composited at full
 * chroma.
 */
export const ANIMATED_IMAGE = {
  family: 'transparent',
  inverted: false,
  keepsAudio: false,
  loop: true,
  workingFormat: 'yuv444p',
} as const;

/**
 * Transparent frames stored as pictures inside another file (a ZIP of PNGs, a Lottie's embedded
 * images): silent, composited at full chroma, and with no loop count of their own (the player
 * decides: lottie-web's `loop`, the mobile views' loopMode).
 */
export const PICTURE_FRAMES = {
  family: 'transparent',
  alpha: 'straight',
  inverted: false,
  keepsAudio: false,
  loop: false,
  workingFormat: 'yuv444p',
} as const;

/**
 * Videos with a straight alpha plane or layer (ProRes 4444, VP9, HEVC): audio kept, played once,
 * made on servers.
 */
export const ALPHA_VIDEO = {
  family: 'transparent',
  alpha: 'straight',
  inverted: false,
  keepsAudio: true,
  loop: false,
  nativeOnly: false,
  studio: false,
} as const;
