/**
 * What an encode step is asked to make: "original + a mask version + a recipe", never "the job".
 * Built from the API's background options by lib/schemas/background.ts, from CLI flags by the
 * CLI, and later from export requests.
 */
export const TRANSPARENT_FORMATS = [
  'webm_vp9',
  'mov_prores',
  'hevc_alpha',
  'stacked_video',
  'stacked_video_mask_inverted',
  'mask_video',
  'mask_video_inverted',
  'pro_bundle',
  'png_sequence',
  'webp',
  'gif',
  'apng',
] as const;
export type TransparentFormat = (typeof TRANSPARENT_FORMATS)[number];

export interface Transform {
  crop?: { x: number; y: number; width: number; height: number };
  max_width?: number;
  fps?: number;
  reverse?: boolean;
}

export type BlurMode = 'background' | 'subject';
export type BlurType = 'gaussian' | 'box';
export type CompositionTemplate = 'full' | 'centered' | 'ai_ugc_ad';
export type ExportContainer = 'mp4' | 'webm' | 'mov';

export interface Blur {
  mode: BlurMode;
  /** 0..100, mapped to a radius relative to the frame size. */
  intensity: number;
  type: BlurType;
}

export type Recipe =
  | { kind: 'transparent'; format: TransparentFormat; transform?: Transform }
  | { kind: 'color'; color: string; exportFormat: ExportContainer; transform?: Transform }
  | {
      kind: 'composition';
      /** A local file (already fetched safely) holding an image or a video. */
      backgroundFile: string;
      template: CompositionTemplate;
      backgroundAudio: boolean;
      /** 0..1 */
      backgroundAudioVolume: number;
      exportFormat: ExportContainer;
      crf?: number;
      transform?: Transform;
    }
  | { kind: 'blur'; blur: Blur; exportFormat: ExportContainer; crf?: number; transform?: Transform };
