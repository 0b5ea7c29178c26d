import { CEILINGS } from './ceilings';
import { foldOf, type FoldName } from './folds';

/** One config's scores on one clip (bench:quality). */
export interface QualityRow {
  config: string;
  sequence: string;
  frames: number;
  keys: number;
  J: number;
  F: number;
  flicker: number;
  fps: number;
}

const mean = (rows: readonly QualityRow[], k: 'J' | 'F' | 'flicker' | 'fps') =>
  rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length);

/**
 * Each config's mean over each fold and over every clip. The fold tuned on is labelled so, the
 * other "held out": a change that helps only the first is not a gain.
 */
export function foldSummary(rows: readonly QualityRow[], tunedOn: FoldName): QualityRow[] {
  const configs = [...new Set(rows.map((r) => r.config))];
  const groups: [string, (r: QualityRow) => boolean][] = [
    ...(['1', '2'] as const).map((f): [string, (r: QualityRow) => boolean] => [
      `fold ${f} (${f === tunedOn ? 'tuned on' : 'held out'})`,
      (r) => foldOf(r.sequence) === f,
    ]),
    ['all clips', () => true],
  ];
  return groups.flatMap(([label, inGroup]) =>
    configs.flatMap((config) => {
      const mine = rows.filter((r) => r.config === config && inGroup(r));
      if (!mine.length) return [];
      return [
        {
          config,
          sequence: `mean, ${label}`,
          frames: mine.reduce((s, r) => s + r.frames, 0),
          keys: mine.reduce((s, r) => s + r.keys, 0),
          J: mean(mine, 'J'),
          F: mean(mine, 'F'),
          flicker: mean(mine, 'flicker'),
          fps: mean(mine, 'fps'),
        },
      ];
    }),
  );
}

/**
 * Per clip and tier: how far the tier is from the naive baseline, and where its loss lies:
 * choice (the better ceiling's J minus the tier's) and segmentation (1 minus that ceiling).
 */
export function lossSplit(
  rows: readonly QualityRow[],
  baseline: string,
): Record<string, string | number>[] {
  const find = (config: string, sequence: string) =>
    rows.find((r) => r.config === config && r.sequence === sequence);
  const tiers = [...new Set(rows.map((r) => r.config))].filter(
    (c) => c !== baseline && !(CEILINGS as readonly string[]).includes(c) && !c.startsWith('ref:'),
  );
  return rows
    .filter((r) => tiers.includes(r.config))
    .map((r) => {
      const base = find(baseline, r.sequence);
      const ceilings = CEILINGS.map((c) => find(c, r.sequence)?.J).filter(
        (j): j is number => j !== undefined,
      );
      const ceiling = ceilings.length ? Math.max(...ceilings) : undefined;
      return {
        config: r.config,
        sequence: r.sequence,
        fold: foldOf(r.sequence) ?? '-',
        J: r.J,
        'vs baseline': base ? r.J - base.J : '',
        ceiling: ceiling ?? '',
        'choice loss': ceiling === undefined ? '' : ceiling - r.J,
        'segmentation loss': ceiling === undefined ? '' : 1 - ceiling,
      };
    });
}
