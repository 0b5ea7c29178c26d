import { AAC, h264Mp4 } from './codecs';
import type { OutputFormat, StepsContext } from './types';

/**
 * A ZIP of colour and matte as two H.264 files of the same timeline (plus the audio and a
 * manifest), for editors that take a luma matte. One ffmpeg run writes every member.
 */
export const proBundle = {
  id: 'pro_bundle',
  family: 'transparent',
  label: 'Pro bundle (ZIP: colour MP4 + matte MP4 + audio)',
  extension: 'zip',
  contentType: 'application/zip',
  codec: 'h264',
  container: 'zip',
  profile: 'bundle-color-alpha',
  alpha: 'separate',
  inverted: false,
  keepsAudio: true,
  loop: false,
  workingFormat: 'yuv420p',
  nativeOnly: true,
  studio: false,
  classicStatus: true,
  cliDefault: false,
  encoding: {
    kind: 'steps',
    steps: (c) => {
      const color = `${c.workDir}/color.mp4`;
      const alpha = `${c.workDir}/alpha.mp4`;
      const audioFile = c.audioLabel ? `${c.workDir}/audio.m4a` : null;
      const tail = [
        `[t]split[c0][a0]`,
        `[c0]format=yuv420p[c]`,
        `[a0]alphaextract,format=yuv420p[a]`,
      ];
      const args = [
        ...c.inputs,
        '-filter_complex',
        [...c.graph, ...tail].join(';'),
        '-map',
        '[c]',
        ...h264Mp4(false, 18),
        ...c.outputArgs,
        color,
        '-map',
        '[a]',
        ...h264Mp4(false, 16),
        ...c.outputArgs,
        alpha,
        ...(c.audioLabel && audioFile
          ? ['-map', c.audioLabel, ...AAC, '-vn', '-f', 'ipod', ...c.outputArgs, audioFile]
          : []),
      ];
      const files = [
        { file: color, name: 'color.mp4' },
        { file: alpha, name: 'alpha.mp4' },
        ...(audioFile ? [{ file: audioFile, name: 'audio.m4a' }] : []),
      ];
      return {
        steps: [args],
        members: { color, alpha, audio: audioFile },
        zip: { files, manifest: { name: 'manifest.json', json: manifest(c, Boolean(audioFile)) } },
      };
    },
  },
} as const satisfies OutputFormat<'pro_bundle'>;

function manifest(c: StepsContext, audio: boolean) {
  const g = c.geometry;
  return {
    kind: 'keyout.pro_bundle',
    version: 1,
    color: 'color.mp4',
    alpha: 'alpha.mp4',
    audio: audio ? 'audio.m4a' : null,
    alpha_meaning: '255 (white) = opaque subject, 0 (black) = transparent',
    width: g.width,
    height: g.height,
    fps: g.fpsRational,
    frame_count: g.frames,
    duration: Number(g.duration.toFixed(6)),
  };
}
