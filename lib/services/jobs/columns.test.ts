import { describe, expect, it } from 'vitest';
import type { MediaInfo } from '../../../engine/media/types';
import { backgroundColumn, mediaColumn, progressColumn } from './columns';
import { readProgress } from './progress';

const info: MediaInfo = {
  demuxer: 'mov',
  container: 'mp4',
  width: 640,
  height: 360,
  codedWidth: 640,
  codedHeight: 360,
  rotation: 0,
  fps: 30,
  fpsRational: '30/1',
  variableFrameRate: false,
  duration: 2,
  frameCount: 60,
  videoCodec: 'h264',
  pixFmt: 'yuv420p',
  hasAudio: false,
  audioCodec: null,
  sizeBytes: 1000,
};

describe("the Job's JSON columns", () => {
  it('store the probe and read it back the same; a probe missing a fact does not read', () => {
    expect(mediaColumn.read(mediaColumn.write(info))).toEqual(info);
    const { frameCount: _, ...missing } = info;
    expect(() => mediaColumn.read(JSON.stringify(missing))).toThrow(/Job\.mediaJson/);
  });

  it('read a background that no longer parses as none', () => {
    expect(
      backgroundColumn.readOrNull(backgroundColumn.write({ type: 'color', color: '#112233' })),
    ).toMatchObject({ type: 'color', color: '#112233' });
    expect(backgroundColumn.readOrNull('{"type":"sepia"}')).toBeNull();
  });

  it('read the progress the writer stores', () => {
    const progress = {
      stage: 'segment',
      framesDone: 12,
      framesTotal: 50,
      fps: 9.5,
      etaSeconds: 4,
      previewFrame: 11,
    } as const;
    expect(progressColumn.read(progressColumn.write(progress))).toEqual(progress);
    expect(
      progressColumn.read(
        progressColumn.write({
          stage: 'probe',
          framesDone: 0,
          framesTotal: 9,
          fps: 0,
          etaSeconds: null,
        }),
      ),
    ).toMatchObject({ previewFrame: null });
  });

  it('read progress field by field, each null unless it holds what the writer puts there', () => {
    expect(
      readProgress({
        progressJson: JSON.stringify({ framesDone: '3', stage: 'dancing', etaSeconds: null }),
      }),
    ).toEqual({
      stage: null,
      framesDone: null,
      framesTotal: null,
      fps: null,
      etaSeconds: null,
      previewFrame: null,
    });
  });

  it('read no progress, or none that can be read, as null', () => {
    expect(readProgress({ progressJson: null })).toBeNull();
    expect(readProgress({ progressJson: '{not json' })).toBeNull();
    expect(readProgress({ progressJson: 'null' })).toBeNull();
  });
});
