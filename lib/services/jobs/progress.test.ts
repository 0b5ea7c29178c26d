import { describe, expect, it } from 'vitest';
import { readProgress } from './progress';

describe('readProgress', () => {
  it('reads what the writer stores', () => {
    const stored = JSON.stringify({ framesDone: 12, framesTotal: 50, fps: 9.5, etaSeconds: 4, stage: 'segment', previewFrame: 11 });
    expect(readProgress({ progressJson: stored })).toEqual({ stage: 'segment', framesDone: 12, framesTotal: 50, fps: 9.5, etaSeconds: 4, previewFrame: 11 });
  });

  it('keeps only the fields that hold what the writer puts there', () => {
    expect(readProgress({ progressJson: JSON.stringify({ framesDone: '3', stage: 'dancing', etaSeconds: null }) })).toEqual({
      stage: null,
      framesDone: null,
      framesTotal: null,
      fps: null,
      etaSeconds: null,
      previewFrame: null,
    });
  });

  it('reads no progress, or none it can read, as null', () => {
    expect(readProgress({ progressJson: null })).toBeNull();
    expect(readProgress({ progressJson: '{not json' })).toBeNull();
    expect(readProgress({ progressJson: 'null' })).toBeNull();
  });
});
