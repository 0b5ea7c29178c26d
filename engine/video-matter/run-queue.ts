import { now, type MatterStats } from './stats';

/** A keyframe's model run and, with bisection, the check (and midpoint run) that follows it. */
export interface Task {
  index: number;
  shot: number;
  /**
   * The frame that may become a key when the gap between this key and the one before fails its
   * check.
   */
  midpoint: number | null;
  settled: boolean;
  promise: Promise<void>;
}

/** The keys' model runs still outstanding, and the first failure among them. */
export class RunQueue {
  /** Bumped by reset(): model outputs that arrive for an earlier generation are dropped. */
  generation = 0;
  /** While the engine waits for model runs, output decoding already counts as waiting. */
  waiting = false;
  private tasks: Task[] = [];
  private failure: Error | null = null;

  constructor(private readonly stats: MatterStats) {}

  add(index: number, shot: number, midpoint: number | null, promise: Promise<void>): void {
    const task: Task = { index, shot, midpoint, settled: false, promise };
    const gen = this.generation;
    promise.then(
      () => {
        task.settled = true;
      },
      (err: unknown) => {
        task.settled = true;
        if (gen === this.generation)
          this.failure ??=
            err instanceof Error ? err : new Error(`Model run failed: ${String(err)}`);
      },
    );
    this.tasks.push(task);
  }

  /** The run of the key at `index` in `shot`, if it is still listed. */
  find(index: number, shot: number): Task | undefined {
    return this.tasks.find((t) => t.index === index && t.shot === shot);
  }

  /** Unsettled runs of a shot's keys up to `horizon`. */
  open(shot: number, horizon: number): Task[] {
    return this.tasks.filter((t) => !t.settled && t.shot === shot && t.index <= horizon);
  }

  /** The midpoints whose gap check is still to come. */
  midpoints(): Set<number> {
    return new Set(
      this.tasks.flatMap((t) => (!t.settled && t.midpoint !== null ? [t.midpoint] : [])),
    );
  }

  /**
   * Waits for model runs; the time counts as inference (the main thread has nothing else to do).
   */
  async waitFor(list: Task[]): Promise<void> {
    const t0 = now();
    this.waiting = true;
    try {
      await Promise.all(list.map((t) => t.promise));
    } finally {
      this.waiting = false;
      this.stats.stageSeconds.infer += now() - t0;
    }
  }

  /** Keeps at most `depth` model runs outstanding, waiting for the oldest ones. */
  async limit(depth: number): Promise<void> {
    for (;;) {
      const open = this.tasks.filter((t) => !t.settled);
      if (open.length <= depth) break;
      await this.waitFor([open[0]!]);
    }
    this.tasks = this.tasks.filter((t) => !t.settled);
    this.throwIfFailed();
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** Forgets the runs (all have been waited for: the end of the video). */
  clear(): void {
    this.tasks = [];
  }

  /** Drops the runs and the failure; outputs of runs already started are ignored. */
  reset(): void {
    this.generation++;
    this.tasks = [];
    this.failure = null;
  }

  /** Waits for every listed run to settle, failed or not. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.tasks.map((t) => t.promise));
  }
}
