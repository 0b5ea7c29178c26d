import type { LottiePlan } from '../formats';

/**
 * The Bodymovin (Lottie) document of a cut-out: every embedded frame an image asset, shown by
 * one image layer from its frame until the next embedded one. Pure: the server streams the
 * assets between the head and the tail (lib/media/lottie.ts) so a long clip is never one string.
 */

/** The schema version written; lottie-web 5.x and the mobile players read it. */
export const BODYMOVIN_VERSION = '5.7.4';

export interface LottieAsset {
  id: string;
  w: number;
  h: number;
  u: '';
  /** A data URI: `data:image/webp;base64,…` or `data:image/png;base64,…`. */
  p: string;
  /** 1: embedded. */
  e: 1;
}

const still = <T>(k: T) => ({ a: 0 as const, k });

export interface LottieImageLayer {
  ddd: 0;
  ind: number;
  /** 2: image layer. */
  ty: 2;
  nm: string;
  refId: string;
  sr: 1;
  ks: {
    o: { a: 0; k: number };
    r: { a: 0; k: number };
    p: { a: 0; k: number[] };
    a: { a: 0; k: number[] };
    s: { a: 0; k: number[] };
  };
  ao: 0;
  /** Shown from frame `ip` until before `op`. */
  ip: number;
  op: number;
  st: 0;
  bm: 0;
}

export const assetId = (frame: number) => `frame_${frame}`;

/** An embedded frame image, from its bytes in base64. */
export function lottieAsset(
  frame: number,
  plan: Pick<LottiePlan, 'width' | 'height' | 'image'>,
  base64: string,
): LottieAsset {
  return {
    id: assetId(frame),
    w: plan.width,
    h: plan.height,
    u: '',
    p: `data:image/${plan.image};base64,${base64}`,
    e: 1,
  };
}

/** One image layer per embedded frame, held until the next embedded frame or the end. */
export function imageLayers(embedded: readonly number[], total: number): LottieImageLayer[] {
  const frames = embedded.filter((f) => f < total);
  return frames.map((frame, i) => ({
    ddd: 0,
    ind: i + 1,
    ty: 2,
    nm: `frame ${frame}`,
    refId: assetId(frame),
    sr: 1,
    ks: {
      o: still(100),
      r: still(0),
      p: still([0, 0, 0]),
      a: still([0, 0, 0]),
      s: still([100, 100, 100]),
    },
    ao: 0,
    ip: frame,
    op: frames[i + 1] ?? total,
    st: 0,
    bm: 0,
  }));
}

/** The document's fields before `assets`, as JSON text without its closing brace. */
export function lottieHead(plan: LottiePlan): string {
  const head = {
    v: BODYMOVIN_VERSION,
    fr: plan.fps,
    ip: 0,
    op: plan.frames,
    w: plan.width,
    h: plan.height,
    nm: 'Keyout cut-out',
    ddd: 0,
  };
  return JSON.stringify(head).slice(0, -1);
}
