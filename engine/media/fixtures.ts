import type { MediaInfo } from './types';

/** Tests only: the facts of a 10 s 720p H.264 clip with AAC sound, as probe.ts reports them. */
export const CLIP_720P: MediaInfo = {
  demuxer: 'mov',
  container: 'mp4',
  width: 1280,
  height: 720,
  codedWidth: 1280,
  codedHeight: 720,
  rotation: 0,
  fps: 24,
  fpsRational: '24/1',
  variableFrameRate: false,
  duration: 10.29,
  frameCount: 247,
  videoCodec: 'h264',
  pixFmt: 'yuv420p',
  hasAudio: true,
  audioCodec: 'aac',
  sizeBytes: 1,
};
