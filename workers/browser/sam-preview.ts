/**
 * The main-thread side of the click preview (sam-preview.worker.ts): encode a frame once, then
 * ask for the mask of each set of clicks. Requests are answered in order; a crashed worker
 * rejects everything still waiting.
 */
import type { SamPoint } from '../../engine/prompts/sam';
import type { FromSamWorker, ToSamWorker } from './sam-preview-protocol';

export interface PreviewMask {
  width: number;
  height: number;
  /** 255 on the object. */
  alpha: Uint8Array;
  ms: number;
}

export class SamPreview {
  private readonly worker = new Worker(new URL('./sam-preview.worker.ts', import.meta.url), {
    type: 'module',
    name: 'keyout-sam-preview',
  });
  private readonly waiting = new Map<
    number,
    { resolve: (m: FromSamWorker) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;

  constructor() {
    this.worker.onmessage = (e: MessageEvent<FromSamWorker>) => {
      const w = this.waiting.get(e.data.id);
      this.waiting.delete(e.data.id);
      if (!w) return;
      if (e.data.type === 'error') w.reject(new Error(e.data.message));
      else w.resolve(e.data);
    };
    this.worker.onerror = (e) => {
      const err = new Error(e.message || 'The preview worker stopped');
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
  }

  private ask(msg: ToSamWorker, transfer: Transferable[] = []): Promise<FromSamWorker> {
    return new Promise((resolve, reject) => {
      this.waiting.set(msg.id, { resolve, reject });
      this.worker.postMessage(msg, transfer);
    });
  }

  /**
   * Encodes a picture (its pixels are copied); later masks are over it. Resolves with the encoder's
   * time in ms.
   */
  async encode(picture: ImageData): Promise<number> {
    const rgba = picture.data.slice().buffer;
    const r = await this.ask(
      { type: 'encode', id: this.nextId++, rgba, width: picture.width, height: picture.height },
      [rgba],
    );
    return r.type === 'encoded' ? r.ms : 0;
  }

  /** The object under the clicks, in the encoded picture's pixels. */
  async mask(points: SamPoint[]): Promise<PreviewMask> {
    const r = await this.ask({ type: 'decode', id: this.nextId++, points });
    if (r.type !== 'mask') throw new Error('The preview worker answered out of turn');
    return { width: r.width, height: r.height, alpha: new Uint8Array(r.alpha), ms: r.ms };
  }

  dispose(): void {
    this.worker.terminate();
  }
}
