import type { AlphaKind, ValidationProfile } from './output-metadata';
import type { ExportContainer, Recipe, TransparentFormat } from './recipe';

/** The file a recipe produces: its name, type and the checks it must pass. */
export interface OutputKind {
  /** File extension without the dot. Clients read `.webm` as VP9 alpha, `.mov` as ProRes/alpha MOV, `.mp4` as stacked/colour/matte, `.zip` as a bundle. */
  extension: string;
  contentType: string;
  /** Encoded video codec as ffprobe names it. */
  codec: string;
  container: string;
  profile: ValidationProfile;
  alpha: AlphaKind;
  inverted: boolean;
  /** Whether the source's audio is carried (when it has any). */
  keepsAudio: boolean;
  loop: boolean;
}

const TRANSPARENT: Record<TransparentFormat, OutputKind> = {
  webm_vp9: kind('webm', 'video/webm', 'vp9', 'webm', 'video-alpha', 'straight', { keepsAudio: true }),
  mov_prores: kind('mov', 'video/quicktime', 'prores', 'mov', 'video-alpha', 'straight', { keepsAudio: true }),
  hevc_alpha: kind('mov', 'video/quicktime', 'hevc', 'mov', 'video-alpha-layer', 'straight', { keepsAudio: true }),
  stacked_video: kind('mp4', 'video/mp4', 'h264', 'mp4', 'video-stacked-alpha', 'stacked', { keepsAudio: true }),
  stacked_video_mask_inverted: kind('mp4', 'video/mp4', 'h264', 'mp4', 'video-stacked-alpha', 'stacked', {
    keepsAudio: true,
    inverted: true,
  }),
  mask_video: kind('mp4', 'video/mp4', 'h264', 'mp4', 'video-matte', 'matte', {}),
  mask_video_inverted: kind('mp4', 'video/mp4', 'h264', 'mp4', 'video-matte', 'matte', { inverted: true }),
  pro_bundle: kind('zip', 'application/zip', 'h264', 'zip', 'bundle-color-alpha', 'separate', { keepsAudio: true }),
  png_sequence: kind('zip', 'application/zip', 'png', 'zip', 'image-sequence-alpha', 'straight', {}),
  webp: kind('webp', 'image/webp', 'webp', 'webp', 'animation-alpha', 'straight', { loop: true }),
  gif: kind('gif', 'image/gif', 'gif', 'gif', 'animation-binary-alpha', 'binary', { loop: true }),
  apng: kind('png', 'image/apng', 'apng', 'apng', 'animation-alpha', 'straight', { loop: true }),
};

const OPAQUE: Record<ExportContainer, OutputKind> = {
  mp4: kind('mp4', 'video/mp4', 'h264', 'mp4', 'video-opaque', 'none', { keepsAudio: true }),
  webm: kind('webm', 'video/webm', 'vp9', 'webm', 'video-opaque', 'none', { keepsAudio: true }),
  // ProRes 422 HQ: `.mov` stays ProRes for clients, and it is what editors expect.
  mov: kind('mov', 'video/quicktime', 'prores', 'mov', 'video-opaque', 'none', { keepsAudio: true }),
};

function kind(
  extension: string,
  contentType: string,
  codec: string,
  container: string,
  profile: ValidationProfile,
  alpha: AlphaKind,
  o: { keepsAudio?: boolean; inverted?: boolean; loop?: boolean },
): OutputKind {
  return {
    extension,
    contentType,
    codec,
    container,
    profile,
    alpha,
    inverted: o.inverted ?? false,
    keepsAudio: o.keepsAudio ?? false,
    loop: o.loop ?? false,
  };
}

export function outputKind(recipe: Recipe): OutputKind {
  return recipe.kind === 'transparent' ? TRANSPARENT[recipe.format] : OPAQUE[recipe.exportFormat];
}

/** A short name for logs, file names and `output_format`. */
export function recipeLabel(recipe: Recipe): string {
  switch (recipe.kind) {
    case 'transparent':
      return recipe.format;
    case 'color':
      return `color_${recipe.exportFormat}`;
    case 'composition':
      return `composition_${recipe.exportFormat}`;
    case 'blur':
      return `blur_${recipe.exportFormat}`;
  }
}
