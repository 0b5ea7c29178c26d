import { describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../../engine/media/types';
import { backgroundColumn, mediaColumn, progressColumn } from './columns';

const info: MediaInfo = {
  demuxer: 'mov', container: 'mp4', width: 640, height: 360, codedWidth: 640, codedHeight: 360, rotation: 0, fps: 30,
  fpsRational: '30/1', variableFrameRate: false, duration: 2, frameCount: 60, videoCodec: 'h264', pixFmt: 'yuv420p',
  hasAudio: false, audioCodec: null, sizeBytes: 1000,
};

describe("the Job's JSON columns", () => {
  it('store the probe and read it back the same; a probe missing a fact does not read', () => {
    expect(mediaColumn.read(mediaColumn.write(info))).toEqual(info);
    const { frameCount: _, ...missing } = info;
    expect(() => mediaColumn.read(JSON.stringify(missing))).toThrow(/Job\.mediaJson/);
  });

  it('read a background that no longer parses as none', () => {
    expect(backgroundColumn.readOrNull(backgroundColumn.write({ type: 'color', color: '#112233' }))).toMatchObject({ type: 'color', color: '#112233' });
    expect(backgroundColumn.readOrNull('{"type":"sepia"}')).toBeNull();
  });

  it('read progress field by field, each null unless it holds what the writer puts there', () => {
    const written = progressColumn.write({ stage: 'segment', framesDone: 3, framesTotal: 9, fps: 1.5, etaSeconds: 4 });
    expect(progressColumn.read(written)).toEqual({ stage: 'segment', framesDone: 3, framesTotal: 9, fps: 1.5, etaSeconds: 4, previewFrame: null });
  });
});
