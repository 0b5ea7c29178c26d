import path from 'node:path';
import { fail, round, type Check, type Facts } from './check';
import { decodePlanes, planeStats, sampleIndices, type PlaneStats } from './planes';

/**
 * A ZIP of numbered RGBA PNGs: nothing else in it, the promised count and size, alpha that matches
 * the mask.
 */
export async function imageSequenceAlpha(c: Check): Promise<Facts> {
  const dir = c.plan.zip?.directory;
  if (!dir) return fail('the PNG sequence has no frames folder.');
  const entries = await c.zipEntries();
  const frames = entries.filter((e) => /^frame_\d{6}\.png$/.test(e.name));
  if (frames.length !== entries.length) fail('the PNG sequence ZIP holds unexpected files.');
  if (Math.abs(frames.length - c.p.frames) > 1)
    fail(`the PNG sequence has ${frames.length} frames, expected ${c.p.frames}.`);
  const indices = sampleIndices(frames.length);
  const stats: PlaneStats[] = [];
  let pixFmt = '';
  for (const i of indices) {
    const file = path.join(dir, frames[i]!.name);
    const probed = await c.probe(file, 'png_pipe');
    const v = probed.video;
    if (v?.codec !== 'png' || v.width !== c.p.width || v.height !== c.p.height) {
      fail(`${frames[i]!.name} is not a ${c.p.width}x${c.p.height} PNG.`);
    }
    if (v!.pixFmt !== 'rgba') fail(`${frames[i]!.name} is ${v!.pixFmt}, not RGBA.`);
    pixFmt = v!.pixFmt;
    const [plane] = await decodePlanes(
      ['-f', 'png_pipe', '-protocol_whitelist', 'file', '-i', file],
      'alphaextract',
      null,
      c.p.width,
      c.p.height,
      c.signal,
    );
    if (!plane) fail(`${frames[i]!.name} could not be decoded.`);
    stats.push(planeStats(plane!));
  }
  const range = await c.judgePlanes(stats, indices);
  return {
    width: c.p.width,
    height: c.p.height,
    duration_seconds: round(frames.length / c.p.fps),
    fps: round(c.p.fps),
    frame_count: frames.length,
    pixel_format: pixFmt,
    loop: false,
    loop_count: null,
    alpha_range: range,
    has_audio: false,
  };
}
