import { GIF_ALPHA_THRESHOLD } from '../../../engine/formats/codecs';
import type { OutputMetadata, OutputPromise } from '../../../engine/media/output-metadata';
import type { RenderPlan } from '../../../engine/media/render-plan';
import { MediaError } from '../ffmpeg';
import { probeFile, type ProbedFile } from '../frames';
import { listZip } from '../zip';
import { decodePlanes, planeStats, sampleIndices, type PlaneStats } from './planes';

/** What a profile's checks find out about the file (the rest of the metadata is common). */
export type Facts = Pick<
  OutputMetadata,
  | 'width'
  | 'height'
  | 'duration_seconds'
  | 'fps'
  | 'frame_count'
  | 'pixel_format'
  | 'loop'
  | 'loop_count'
  | 'alpha_range'
  | 'has_audio'
  | 'lottie'
>;

export const fail = (what: string): never => {
  throw new MediaError(`The output failed validation: ${what}`);
};

export const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * One file under validation against its plan's promise, with the checks every profile shares:
 * reading a stream back, its size, rate, frame count and duration, its audio, and its alpha or
 * matte plane against the mask.
 */
export class Check {
  readonly p: OutputPromise;
  readonly frameTolerance: number;
  constructor(
    readonly file: string,
    readonly plan: RenderPlan,
    readonly mask: string,
    readonly signal?: AbortSignal,
  ) {
    this.p = plan.promise;
    this.frameTolerance = 1 / plan.promise.fps + 1e-3;
  }

  demuxer(container: string): string {
    return container === 'webm' ? 'matroska' : container === 'mp4' ? 'mov' : container;
  }

  async probe(file: string, container: string): Promise<ProbedFile> {
    try {
      return await probeFile(file, this.demuxer(container), this.signal);
    } catch {
      return fail(`the ${container} file cannot be read back.`);
    }
  }

  checkVideoStream(
    probed: ProbedFile,
    codec: string,
    height: number,
    label = 'video',
  ): NonNullable<ProbedFile['video']> {
    const v = probed.video;
    if (!v) return fail(`the ${label} has no video stream.`);
    if (v.codec !== codec) fail(`the ${label} is ${v.codec}, expected ${codec}.`);
    if (v.width !== this.p.width || v.height !== height) {
      fail(`the ${label} is ${v.width}x${v.height}, expected ${this.p.width}x${height}.`);
    }
    if (Math.abs(v.fps - this.p.fps) > this.p.fps * 0.005)
      fail(`the ${label} runs at ${v.fps.toFixed(3)} fps, expected ${this.p.fps.toFixed(3)}.`);
    if (Math.abs(v.frames - this.p.frames) > 1)
      fail(`the ${label} has ${v.frames} frames, expected ${this.p.frames}.`);
    const duration = v.duration ?? probed.formatDuration ?? v.frames / v.fps;
    if (Math.abs(duration - this.p.duration) > this.frameTolerance) {
      fail(
        `the ${label} lasts ${duration.toFixed(3)} s, expected ` +
          `${this.p.duration.toFixed(3)} s (within one frame).`,
      );
    }
    return v;
  }

  checkAudio(probed: ProbedFile, label = 'video') {
    if (this.p.hasAudio && !probed.audio) fail(`the ${label} lost the source's audio.`);
    if (!this.p.hasAudio && probed.audio) fail(`the ${label} has an unexpected audio stream.`);
  }

  /**
   * Decodes sampled frames of the alpha/matte plane (`planeFilter` turns a decoded frame into
   * that plane) and checks it: not constant unless the mask is, and — when the output is not
   * cropped, retimed or reversed — close to the mask (inverted when promised).
   */
  async matteCheck(
    decoder: string[],
    file: string,
    container: string,
    planeFilter: string,
  ): Promise<[number, number]> {
    const indices = sampleIndices(this.p.frames);
    let planes: Uint8Array[];
    try {
      planes = await decodePlanes(
        [...decoder, '-f', this.demuxer(container), '-protocol_whitelist', 'file', '-i', file],
        planeFilter,
        indices,
        this.p.width,
        this.p.height,
        this.signal,
        this.p.fps,
        this.p.codec === 'prores',
      );
    } catch (e) {
      if (e instanceof MediaError) throw e;
      return fail('its alpha could not be decoded (no alpha plane).');
    }
    return this.judgePlanes(planes.map(planeStats), indices);
  }

  async judgePlanes(stats: PlaneStats[], indices: number[] | null): Promise<[number, number]> {
    if (stats.length === 0) fail('no frames could be decoded.');
    const min = Math.min(...stats.map((s) => s.min));
    const max = Math.max(...stats.map((s) => s.max));
    const expected = indices && this.comparable() ? await this.maskMeans(indices) : null;
    if (min === max) {
      const maskRange = expected ?? (await this.maskMeans(sampleIndices(this.p.frames)));
      const maskConstant = maskRange.every((m) => Math.abs(m - min) < 1);
      if (!maskConstant)
        fail(`its alpha is constant (${min}) although the mask is not: the alpha was lost.`);
    }
    if (this.p.alpha === 'binary' && stats.some((s) => s.partial > 0))
      fail('a GIF frame has partial transparency.');
    if (expected) {
      const tolerance = this.p.alpha === 'binary' ? 16 : 8;
      stats.forEach((s, i) => {
        const want = expected[i]!;
        if (Math.abs(s.mean - want) > tolerance) {
          fail(
            `its alpha does not match the mask (frame ${indices![i]}: mean ` +
              `${s.mean.toFixed(1)}, mask ${want.toFixed(1)})` +
              (Math.abs(255 - s.mean - want) <= tolerance ? ': it is inverted.' : '.'),
          );
        }
      });
    }
    return [min, max];
  }

  /** The output's frames are the mask's frames (no crop, retiming or reverse), so means compare. */
  private comparable(): boolean {
    const g = this.plan.geometry;
    return !g.crop && !g.retimed && !g.reverse;
  }

  /**
   * Mean of the mask (inverted when the output promises so) at the given normalized frames. For
   * on/off alpha (GIF) the mask is cut where the encoder cuts it: a mask too faint to show in a
   * GIF has a wholly transparent GIF, which is right, not "the alpha was lost".
   */
  private async maskMeans(indices: number[]): Promise<number[]> {
    const planes = await decodePlanes(
      ['-f', 'matroska', '-protocol_whitelist', 'file', '-i', this.mask],
      'null',
      indices,
      this.p.width,
      this.p.height,
      this.signal,
      this.plan.geometry.fps,
    );
    const cut = (pl: Uint8Array) =>
      this.p.alpha === 'binary' ? pl.map((v) => (v < GIF_ALPHA_THRESHOLD ? 0 : 255)) : pl;
    return planes.map((pl) => {
      const m = planeStats(cut(pl)).mean;
      return this.p.inverted ? 255 - m : m;
    });
  }

  async zipEntries() {
    try {
      return await listZip(this.file);
    } catch {
      return fail('the ZIP cannot be read back.');
    }
  }
}

/** The facts of a validated video stream (a single file, or a bundle's colour member). */
export function videoFacts(
  v: NonNullable<ProbedFile['video']>,
  formatDuration: ProbedFile['formatDuration'],
  range: Facts['alpha_range'],
  hasAudio: boolean,
): Facts {
  return {
    width: v.width,
    height: v.height,
    duration_seconds: round(v.duration ?? formatDuration ?? v.frames / v.fps),
    fps: round(v.fps),
    frame_count: v.frames,
    pixel_format: v.pixFmt,
    loop: false,
    loop_count: null,
    alpha_range: range,
    has_audio: hasAudio,
  };
}
