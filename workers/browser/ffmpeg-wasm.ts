/**
 * ffmpeg.wasm (FFmpeg 5.1, single-threaded core) in its own Web Worker, loaded from our own
 * origin (app/vendor/ffmpeg), the @ffmpeg/ffmpeg module included (bundlers cannot follow its
 * `new Worker(new URL(url, import.meta.url))`, so it is loaded as it ships): the studio's encoder
 * for what WebCodecs cannot make (animated WebP, APNG, GIF, PNG sequences, and every sticker's
 * master and attempts). It runs the same argument lists native ffmpeg runs on servers
 * (engine/media/render-plan.ts), on files in its memory.
 */
import type { FFmpeg } from '@ffmpeg/ffmpeg';

export class FfmpegWasmError extends Error {
  override name = 'FfmpegWasmError';
}

/** One loaded ffmpeg.wasm and the few file operations the studio needs. */
export class FfmpegWasm {
  private log: string[] = [];

  private constructor(private readonly ff: FFmpeg) {
    ff.on('log', ({ message }) => {
      this.log.push(message);
      if (this.log.length > 40) this.log.shift();
    });
  }

  /** Loads the worker and the core (about 32 MB of WebAssembly, cached by the browser). */
  static async load(): Promise<FfmpegWasm> {
    const at = (file: string) => new URL(`/vendor/ffmpeg/${file}`, self.location.origin).href;
    const { FFmpeg } = (await import(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ at('index.js')
    )) as typeof import('@ffmpeg/ffmpeg');
    const ff = new FFmpeg();
    await ff.load({
      classWorkerURL: at('worker.js'),
      coreURL: at('ffmpeg-core.js'),
      wasmURL: at('ffmpeg-core.wasm'),
    });
    return new FfmpegWasm(ff);
  }

  /** Runs one ffmpeg argument list; a failure says what ffmpeg said last. */
  async run(args: string[], what: string): Promise<void> {
    this.log = [];
    let code: number;
    try {
      code = await this.ff.exec(['-hide_banner', '-nostats', ...args]);
    } catch (err) {
      throw new FfmpegWasmError(
        `ffmpeg.wasm stopped while making ${what} (${(err as Error).message}).`,
      );
    }
    if (code !== 0) {
      const said = this.log
        .filter(
          (l) => !/^\s*(Stream|Input|Output|Duration|Metadata|encoder|major_brand|\[)/.test(l),
        )
        .slice(-3)
        .join(' ');
      throw new FfmpegWasmError(`ffmpeg.wasm could not make ${what}${said ? `: ${said}` : ''}.`);
    }
  }

  /** Creates a folder and its parents. */
  async mkdirs(dir: string): Promise<void> {
    let at = '';
    for (const part of dir.split('/').filter(Boolean)) {
      at += `/${part}`;
      const exists = await this.ff.listDir(at).then(
        () => true,
        () => false,
      );
      if (!exists) await this.ff.createDir(at);
    }
  }

  /** Writes a file (the bytes are transferred to the worker: the caller's copy is gone). */
  async write(file: string, bytes: Uint8Array): Promise<void> {
    await this.ff.writeFile(file, bytes);
  }

  async read(file: string): Promise<Uint8Array> {
    return (await this.ff.readFile(file)) as Uint8Array;
  }

  /** Names of the files in a folder, sorted. */
  async files(dir: string): Promise<string[]> {
    return (await this.ff.listDir(dir))
      .filter((n) => !n.isDir && n.name !== '.' && n.name !== '..')
      .map((n) => n.name)
      .sort();
  }

  /** Removes a file or a folder with everything in it; what is not there is fine. */
  async remove(path: string): Promise<void> {
    const entries = await this.ff.listDir(path).catch(() => null);
    if (!entries) {
      await this.ff.deleteFile(path).catch(() => undefined);
      return;
    }
    for (const e of entries) {
      if (e.name === '.' || e.name === '..') continue;
      await this.remove(`${path}/${e.name}`);
    }
    await this.ff.deleteDir(path).catch(() => undefined);
  }

  /** Stops the worker at once (a cancelled run); this instance cannot be used again. */
  terminate(): void {
    this.ff.terminate();
  }
}
