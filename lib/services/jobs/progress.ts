import { Readable } from 'node:stream';
import type { Job } from '../../db/generated/client';
import { encodePng, type PreviewImage } from '../../segment/preview';
import { storageKeys } from '../../storage';
import { PROGRESS_STAGES, progressColumn } from './columns';
import type { Ports } from '../ports';

/**
 * Job.progressJson, where a running job is: written by the worker (ProgressWriter) and read by
 * the status record, the dashboard's progress and its list (readProgress), here only.
 */

export type Stage = (typeof PROGRESS_STAGES)[number];

export interface Progress {
  framesDone: number;
  framesTotal: number;
  fps: number;
  etaSeconds: number | null;
  stage: Stage;
  /** Frame index of the newest preview image stored under storageKeys.preview, if any. */
  previewFrame?: number;
}

/** What a reader finds stored: each field only when it holds what the writer puts there. */
export type StoredProgress = NonNullable<ReturnType<typeof progressColumn.readOrNull>>;

/** The one reader of Job.progressJson: null when the job has none, or it cannot be read. */
export const readProgress = (job: Pick<Job, 'progressJson'>): StoredProgress | null =>
  progressColumn.readOrNull(job.progressJson);

/** What a start writes: no progress yet. */
export const NO_PROGRESS = { progressJson: null } as const;

/** A preview PNG is small (480 px long side); anything bigger is a bug, not a preview. */
const MAX_PREVIEW_BYTES = 4 * 1024 * 1024;

const MIN_INTERVAL_MS = 1_000;

/**
 * Writes Job.progressJson at most once a second (stage changes are written at once), one write
 * at a time, so a fast progress callback never floods the database.
 */
export class ProgressWriter {
  private current: Progress;
  private lastWrite = 0;
  private chain: Promise<void> = Promise.resolve();
  private queued = false;
  private stageStarted = Date.now();
  private previewBusy = false;

  constructor(
    private readonly ports: Ports,
    private readonly jobId: string,
    framesTotal: number,
    private readonly onError: (e: unknown) => void,
  ) {
    this.current = { framesDone: 0, framesTotal, fps: 0, etaSeconds: null, stage: 'probe' };
  }

  stage(stage: Stage): void {
    this.stageStarted = Date.now();
    this.current = { ...this.current, stage, framesDone: 0, fps: 0, etaSeconds: null };
    this.write();
  }

  frames(p: Omit<Progress, 'stage'>): void {
    this.current = { ...this.current, ...p };
    if (Date.now() - this.lastWrite >= MIN_INTERVAL_MS) this.write();
  }

  /** For steps that report only a frame count: rate and ETA from the stage's start. */
  count(framesDone: number): void {
    const elapsed = (Date.now() - this.stageStarted) / 1000;
    const fps = elapsed > 0 ? framesDone / elapsed : 0;
    const left = Math.max(0, this.current.framesTotal - framesDone);
    this.frames({
      framesDone,
      framesTotal: this.current.framesTotal,
      fps,
      etaSeconds: fps > 0 ? left / fps : null,
    });
  }

  /**
   * Stores a preview of the newest finished frame, then records its frame in the progress so the
   * dashboard can show it. One at a time: a preview offered while one is being stored is dropped.
   */
  preview(image: PreviewImage): void {
    if (this.previewBusy) return;
    this.previewBusy = true;
    const png = encodePng(image.width, image.height, image.rgba);
    this.chain = this.chain.then(async () => {
      try {
        await this.ports.storage.writeStream(
          storageKeys.preview(this.jobId),
          Readable.from([png]),
          {
            maxBytes: MAX_PREVIEW_BYTES,
          },
        );
        this.current = { ...this.current, previewFrame: image.frame };
        this.write();
      } catch (e) {
        this.onError(e);
      } finally {
        this.previewBusy = false;
      }
    });
  }

  /** Waits for pending writes (call before the job's final status update). */
  async flush(): Promise<void> {
    await this.chain;
  }

  private write(): void {
    this.lastWrite = Date.now();
    if (this.queued) return; // the queued write will take the newest value
    this.queued = true;
    this.chain = this.chain.then(async () => {
      this.queued = false;
      try {
        await this.ports.db.job.updateMany({
          where: { id: this.jobId, status: 'processing' },
          data: { progressJson: progressColumn.write(this.current) },
        });
      } catch (e) {
        this.onError(e);
      }
    });
  }
}
