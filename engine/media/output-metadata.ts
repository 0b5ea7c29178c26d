/**
 * What a finished output promises and what validation found. Key names are snake_case because
 * the metadata object is served as-is in the API's export `metadata`.
 */

/** How an output carries transparency. */
export type AlphaKind =
  /**
   * A real alpha channel with partial transparency (VP9 alpha, ProRes 4444, HEVC alpha layer, WebP,
   * APNG, PNG).
   */
  | 'straight'
  /** On/off transparency only (GIF). */
  | 'binary'
  /** Colour on top, greyscale matte below, in one opaque frame. */
  | 'stacked'
  /** Colour and matte as separate files (pro bundle). */
  | 'separate'
  /** The file is the matte itself (greyscale video). */
  | 'matte'
  /** Opaque picture (composited on a colour, image, video or blur). */
  | 'none';

/**
 * The validation policy applied to a file; served as `metadata.profile`. Each name stands for
 * one set of checks in lib/media/validate.ts.
 */
export type ValidationProfile =
  | 'video-alpha'
  | 'video-alpha-layer'
  | 'video-stacked-alpha'
  | 'video-matte'
  | 'video-opaque'
  | 'bundle-color-alpha'
  | 'image-sequence-alpha'
  | 'animation-alpha'
  | 'animation-binary-alpha'
  | 'lottie-alpha';

/** What a format's file is: the same facts for a format and for a sticker codec. */
export interface OutputFile {
  /** File extension without the dot, and the served Content-Type. */
  extension: string;
  contentType: string;
  /** Encoded video codec as ffprobe names it; served as `metadata.format`. */
  codec: string;
  container: string;
  /**
   * The validation policy the file must pass (lib/media/validate); served as `metadata.profile`.
   */
  profile: ValidationProfile;
  alpha: AlphaKind;
  /** Animated images loop forever. */
  loop: boolean;
}

/**
 * What the renderer promises about a file before it exists; validation checks the file against it.
 */
export interface OutputPromise {
  profile: ValidationProfile;
  /** Encoded video codec as ffprobe names it (vp9, prores, hevc, h264, webp, gif, apng, png). */
  codec: string;
  container: string;
  /** Picture size; for stacked video the height of one half. */
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Seconds: frames / fps. */
  duration: number;
  alpha: AlphaKind;
  /** The matte is stored inverted (255 = background). */
  inverted: boolean;
  hasAudio: boolean;
  /** Animated images loop forever (loop count 0); videos do not claim a loop. */
  loop: boolean;
}

/** What the adaptive encoder did for a sticker (API: export `metadata.sticker`). */
export interface StickerMetadata {
  /** The sticker policy and its version; `metadata.profile` names both as the format id. */
  policy: string;
  version: number;
  platform: string;
  canvas: { width: number; height: number };
  limit_bytes: number;
  budget_bytes: number;
  max_seconds: number;
  /** The source's length, and how much it was sped up to fit the cap (1 = not retimed). */
  source_seconds: number;
  speed_up: number;
  final_fps: number;
  /** Every attempt made, in order; the last one fits. */
  attempts: { quality: Record<string, number>; fps: number; bytes: number; fits: boolean }[];
}

/** Validated facts about a served file (API: export `metadata`). */
export interface OutputMetadata {
  validated: true;
  /** The encoded video codec (vp9, prores, hevc, h264, webp, gif, apng, png). */
  format: string;
  /**
   * The validation policy that passed; for a sticker, its versioned sticker policy (the format id).
   */
  profile: string;
  container: string;
  width: number;
  height: number;
  duration_seconds: number;
  fps: number;
  frame_count: number;
  pixel_format: string;
  loop: boolean;
  /** 0 = forever; null for formats without a loop count (videos). */
  loop_count: number | null;
  alpha: AlphaKind;
  has_alpha: boolean;
  alpha_inverted: boolean;
  /** Smallest and largest alpha (or matte) value seen in the sampled frames; null when opaque. */
  alpha_range: [number, number] | null;
  has_audio: boolean;
  bytes: number;
  sha256: string;
  sticker?: StickerMetadata;
  /** A Lottie's embedded images: fewer than its frames where smart sampling held a frame. */
  lottie?: { images: number; image_format: 'webp' | 'png' };
}
