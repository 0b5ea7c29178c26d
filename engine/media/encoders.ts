import type { ExportContainer } from './recipe';

/**
 * Encoder settings per output, chosen for a good size/speed trade-off on small CPU servers
 * (measured with scripts/bench-outputs.ts; figures in docs/outputs.md).
 */

const VP9_REALTIME = ['-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'];
const X264 = (crf: number) => ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(crf), '-pix_fmt', 'yuv420p'];
const MP4 = ['-movflags', '+faststart'];
const AAC = ['-c:a', 'aac', '-b:a', '128k'];
const OPUS = ['-c:a', 'libopus', '-b:a', '96k'];
const PCM = ['-c:a', 'pcm_s16le'];

const clampCrf = (crf: number, max: number) => String(Math.min(max, Math.max(0, Math.round(crf))));

export const encoderArgs = {
  /** VP9 with alpha (yuva420p; the WebM muxer writes alpha_mode=1) + Opus. */
  webmVp9: (audio: boolean) => [
    '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuva420p', ...VP9_REALTIME, '-crf', '30', '-b:v', '0',
    '-metadata:s:v:0', 'alpha_mode=1',
    ...(audio ? OPUS : []), '-f', 'webm',
  ],
  /**
   * ProRes 4444 with an 8-bit alpha plane (our mattes are 8-bit, so nothing is lost). A fixed
   * quantiser instead of prores_ks's rate search: about 5x faster and 2-3x smaller at the
   * same look.
   */
  movProres: (audio: boolean) => [
    '-c:v', 'prores_ks', '-profile:v', '4444', '-pix_fmt', 'yuva444p10le', '-qscale:v', '9', '-alpha_bits', '8',
    '-vendor', 'apl0', ...(audio ? PCM : []), '-f', 'mov',
  ],
  /** HEVC with an alpha layer (libx265 enables it for yuva input on FFmpeg 7.1+ with x265 4+). */
  hevcAlpha: (audio: boolean) => [
    '-c:v', 'libx265', '-pix_fmt', 'yuva420p', '-preset', 'veryfast', '-crf', '24', '-tag:v', 'hvc1',
    ...(audio ? AAC : []), '-f', 'mov',
  ],
  h264: (audio: boolean, crf: number) => [...X264(crf), ...(audio ? AAC : []), ...MP4, '-f', 'mp4'],
  aacOnly: () => [...AAC, '-vn', '-f', 'ipod'],
  /** Lossy animated WebP with alpha; method 3 is about twice as fast as the default 4 for a few % more bytes. */
  webp: () => ['-c:v', 'libwebp_anim', '-lossless', '0', '-quality', '75', '-compression_level', '3', '-loop', '0', '-f', 'webp'],
  apng: () => ['-c:v', 'apng', '-compression_level', '3', '-plays', '0', '-f', 'apng'],
  gif: () => ['-c:v', 'gif', '-loop', '0', '-f', 'gif'],
};

/** Opaque outputs (colour, composition, blur) by container. `.mov` is ProRes 422 HQ for editors. */
export function opaqueEncoderArgs(container: ExportContainer, crf: number | undefined, audio: boolean): string[] {
  switch (container) {
    case 'mp4':
      return [...X264(Number(clampCrf(crf ?? 20, 51))), ...(audio ? AAC : []), ...MP4, '-f', 'mp4'];
    case 'webm':
      return [
        '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', ...VP9_REALTIME, '-crf', clampCrf(crf ?? 32, 63), '-b:v', '0',
        ...(audio ? OPUS : []), '-f', 'webm',
      ];
    case 'mov':
      return [
        '-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le', '-qscale:v', '9', '-vendor', 'apl0',
        ...(audio ? PCM : []), '-f', 'mov',
      ];
  }
}
