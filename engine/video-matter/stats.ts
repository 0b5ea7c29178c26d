/** What a video matter has done, for callers that report speed. */
export interface MatterStats {
  framesDone: number;
  inferences: number;
  /** Seconds spent per stage: "infer" (resize, normalise, run, decode) and "refine" (the rest). */
  stageSeconds: { infer: number; refine: number };
}

export const noStats = (): MatterStats => ({
  framesDone: 0,
  inferences: 0,
  stageSeconds: { infer: 0, refine: 0 },
});

export const now = () => performance.now() / 1000;
