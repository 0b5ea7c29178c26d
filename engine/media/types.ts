/** What probing a video tells us. Dimensions are display dimensions (rotation applied). */
export interface MediaInfo {
  /** The demuxer to force on every later read of this file (never let ffmpeg guess again). */
  demuxer: Demuxer;
  /** The container users know it as. */
  container: 'mp4' | 'mov' | 'm4v' | 'webm' | 'mkv' | 'avi';
  width: number;
  height: number;
  codedWidth: number;
  codedHeight: number;
  /** Clockwise degrees the player must rotate the stored frames by. */
  rotation: 0 | 90 | 180 | 270;
  /** Average frame rate (frames per second). */
  fps: number;
  /** The same rate as an exact ffmpeg rational, e.g. "30000/1001". */
  fpsRational: string;
  /** True when the stream's real and average rates differ (phones, screen recordings). */
  variableFrameRate: boolean;
  duration: number;
  frameCount: number;
  videoCodec: string;
  pixFmt: string;
  hasAudio: boolean;
  audioCodec: string | null;
  sizeBytes: number;
}

export type Demuxer = 'mov' | 'matroska' | 'avi';

/** Containers the service accepts (MP4, MOV, M4V, WebM, MKV, AVI), as ffmpeg demuxer names. */
export const ALLOWED_DEMUXERS: readonly Demuxer[] = ['mov', 'matroska', 'avi'];

/** Output options of a mask file as the segmenter stores it: FFV1 gray in Matroska. */
export const MASK_ENCODER = ['-c:v', 'ffv1', '-pix_fmt', 'gray', '-f', 'matroska'];
