import fs from 'node:fs/promises';
import type { LottieAsset, LottieImageLayer } from '../../../engine/media/lottie';
import { fail, round, type Check, type Facts } from './check';
import { decodePlanes, planeStats, sampleIndices, type PlaneStats } from './planes';

interface LottieFile {
  v?: unknown;
  fr?: unknown;
  ip?: unknown;
  op?: unknown;
  w?: unknown;
  h?: unknown;
  assets?: LottieAsset[];
  layers?: LottieImageLayer[];
}

const DATA_URI = /^data:image\/(webp|png);base64,/;

async function readDocument(c: Check): Promise<LottieFile> {
  try {
    const doc = JSON.parse(await fs.readFile(c.file, 'utf8')) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc;
  } catch {
    // reported below
  }
  return fail('the Lottie is not a JSON object.');
}

/**
 * The canvas, rate and length the promise gives, and every frame shown by exactly one image layer
 * of an embedded asset.
 */
function checkStructure(
  c: Check,
  doc: LottieFile,
): { assets: Map<string, LottieAsset>; layers: LottieImageLayer[] } {
  if (typeof doc.v !== 'string') fail('the Lottie has no version.');
  if (doc.w !== c.p.width || doc.h !== c.p.height)
    fail(`the Lottie is ${String(doc.w)}x${String(doc.h)}, expected ${c.p.width}x${c.p.height}.`);
  if (typeof doc.fr !== 'number' || Math.abs(doc.fr - c.p.fps) > c.p.fps * 0.005)
    fail(`the Lottie runs at ${String(doc.fr)} fps, expected ${c.p.fps.toFixed(3)}.`);
  if (doc.ip !== 0 || typeof doc.op !== 'number' || Math.abs(doc.op - c.p.frames) > 1)
    fail(`the Lottie has frames ${String(doc.ip)}–${String(doc.op)}, expected 0–${c.p.frames}.`);
  const assets = new Map((doc.assets ?? []).map((a) => [a.id, a]));
  for (const a of assets.values()) {
    if (
      a.e !== 1 ||
      typeof a.p !== 'string' ||
      !DATA_URI.test(a.p) ||
      a.w !== c.p.width ||
      a.h !== c.p.height
    )
      fail(`asset ${a.id} is not an embedded ${c.p.width}x${c.p.height} WebP or PNG.`);
  }
  const layers = [...(doc.layers ?? [])].sort((a, b) => a.ip - b.ip);
  let next = 0;
  for (const l of layers) {
    if (l.ty !== 2 || !assets.has(l.refId))
      fail(`layer ${l.ind} is not an image layer of an embedded asset.`);
    if (l.ip !== next || !(l.op > l.ip)) fail(`frame ${next} is not shown by exactly one layer.`);
    next = l.op;
  }
  if (next !== doc.op) fail(`the layers end at frame ${next}, the animation at ${String(doc.op)}.`);
  return { assets, layers };
}

/** Decodes the alpha of one embedded image (written beside the file for ffmpeg to read). */
async function assetAlpha(
  c: Check,
  asset: LottieAsset,
): Promise<{ stats: PlaneStats; pixFmt: string }> {
  const [, image] = DATA_URI.exec(asset.p)!;
  const demuxer = `${image}_pipe`;
  const tmp = `${c.file}.${asset.id}.${image}`;
  await fs.writeFile(tmp, Buffer.from(asset.p.slice(asset.p.indexOf(',') + 1), 'base64'));
  try {
    const v = (await c.probe(tmp, demuxer)).video;
    if (!v || v.width !== c.p.width || v.height !== c.p.height)
      return fail(`asset ${asset.id} is not a ${c.p.width}x${c.p.height} image.`);
    // libwebp leaves the alpha out of a wholly opaque frame (a subject filling the picture).
    if (!/^(yuva420p|rgba)$/.test(v.pixFmt))
      return { stats: { min: 255, max: 255, mean: 255, partial: 0 }, pixFmt: v.pixFmt };
    const [plane] = await decodePlanes(
      ['-f', demuxer, '-protocol_whitelist', 'file', '-i', tmp],
      'alphaextract',
      null,
      c.p.width,
      c.p.height,
      c.signal,
    );
    if (!plane) return fail(`asset ${asset.id} could not be decoded.`);
    return { stats: planeStats(plane), pixFmt: v.pixFmt };
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/**
 * A Lottie JSON (Bodymovin): the promised canvas, rate and length, every frame covered by one
 * image layer of an embedded image with alpha, and sampled frames' alpha close to the mask.
 */
export async function lottieAlpha(c: Check): Promise<Facts> {
  const doc = await readDocument(c);
  const { assets, layers } = checkStructure(c, doc);
  const op = doc.op as number;
  const indices = sampleIndices(op);
  const stats: PlaneStats[] = [];
  let pixFmt = '';
  for (const i of indices) {
    const layer = layers.find((l) => l.ip <= i && i < l.op)!;
    const decoded = await assetAlpha(c, assets.get(layer.refId)!);
    stats.push(decoded.stats);
    if (decoded.pixFmt === 'yuva420p' || decoded.pixFmt === 'rgba') pixFmt = decoded.pixFmt;
  }
  const range = await c.judgePlanes(stats, indices);
  return {
    width: c.p.width,
    height: c.p.height,
    duration_seconds: round(op / (doc.fr as number)),
    fps: round(doc.fr as number),
    frame_count: op,
    pixel_format: pixFmt || 'yuv420p',
    loop: false,
    loop_count: null,
    alpha_range: range,
    has_audio: false,
    lottie: {
      images: assets.size,
      image_format: DATA_URI.exec(assets.values().next().value!.p)![1] as 'webp' | 'png',
    },
  };
}
