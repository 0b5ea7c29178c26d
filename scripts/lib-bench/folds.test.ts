import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLDS, foldClips, foldOf } from './folds';
import { foldSummary, lossSplit, type QualityRow } from './quality-report';

const TESTDATA = path.resolve(import.meta.dirname, '../../../shared/testdata');

describe('the two DAVIS folds', () => {
  it('split the 32 clips in halves, each with every kind of clip', () => {
    const one = foldClips('1');
    const two = foldClips('2');
    expect(one).toHaveLength(16);
    expect(two).toHaveLength(16);
    expect(one.filter((c) => two.includes(c))).toEqual([]);
    for (const clips of Object.values(FOLDS)) {
      expect(new Set(Object.values(clips))).toEqual(
        new Set(['person', 'person+object', 'animal', 'vehicle']),
      );
    }
  });

  it.skipIf(!fs.existsSync(TESTDATA))('name exactly the clips in the shared test data', () => {
    const onDisk = ['davis', 'davis-train'].flatMap((d) =>
      fs
        .readdirSync(path.join(TESTDATA, d))
        .filter((s) => fs.existsSync(path.join(TESTDATA, d, s, 'video.mp4'))),
    );
    expect(onDisk.sort()).toEqual([...foldClips('1'), ...foldClips('2')].sort());
  });
});

describe('the quality report', () => {
  const row = (config: string, sequence: string, J: number): QualityRow => ({
    config,
    sequence,
    frames: 10,
    keys: 2,
    J,
    F: J,
    flicker: 0,
    fps: 1,
  });
  const rows = [
    row('tier', 'bear', 0.8),
    row('tier', 'boat', 0.6),
    row('base', 'bear', 0.7),
    row('base', 'boat', 0.7),
    row('ceiling-isnet-box', 'bear', 0.9),
    row('ceiling-sam-box', 'bear', 0.95),
  ];

  it('means each config per fold, labelling the fold tuned on and the one held out', () => {
    const summary = foldSummary(rows, '1');
    expect(foldOf('bear')).toBe('1');
    expect(
      summary.find((r) => r.config === 'tier' && r.sequence === 'mean, fold 1 (tuned on)')?.J,
    ).toBeCloseTo(0.8);
    expect(
      summary.find((r) => r.config === 'tier' && r.sequence === 'mean, fold 2 (held out)')?.J,
    ).toBeCloseTo(0.6);
    expect(
      summary.find((r) => r.config === 'tier' && r.sequence === 'mean, all clips')?.J,
    ).toBeCloseTo(0.7);
  });

  it('splits a tier’s loss at the better ceiling, beside its gap to the baseline', () => {
    const bear = lossSplit(rows, 'base').find((r) => r.config === 'tier' && r.sequence === 'bear')!;
    expect(bear['vs baseline']).toBeCloseTo(0.1);
    expect(bear.ceiling).toBeCloseTo(0.95);
    expect(bear['choice loss']).toBeCloseTo(0.15);
    expect(bear['segmentation loss']).toBeCloseTo(0.05);
    expect(lossSplit(rows, 'base').map((r) => r.config)).not.toContain('ceiling-sam-box');
  });
});
