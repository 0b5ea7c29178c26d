import { ffmpeg } from '../ffmpeg';
import { alphaLayerUnits, decodeAlphaLayer } from '../hevc-alpha';
import { fail, videoFacts, type Check, type Facts } from './check';
import { planeStats, sampleIndices } from './planes';

/** The video stream read back and checked against the promise (a stacked file is twice as high). */
async function readVideo(c: Check, height = c.p.height) {
  const probed = await c.probe(c.file, c.p.container);
  const v = c.checkVideoStream(probed, c.p.codec, height);
  c.checkAudio(probed);
  return { probed, v };
}

/** A real alpha channel (VP9 alpha, ProRes 4444), decoded by a decoder that reads it. */
export async function videoAlpha(c: Check): Promise<Facts> {
  const { probed, v } = await readVideo(c);
  if (c.p.codec === 'vp9' && v.tags.alpha_mode !== '1')
    fail('the WebM does not declare alpha (alpha_mode=1).');
  if (c.p.codec === 'prores' && !v.pixFmt.startsWith('yuva'))
    fail(`the ProRes file is ${v.pixFmt}, without alpha.`);
  // ffmpeg's native VP8/VP9 decoders drop alpha: only libvpx reads it.
  const decoder = c.p.codec === 'vp9' ? ['-c:v', 'libvpx-vp9'] : [];
  const range = await c.matteCheck(decoder, c.file, c.p.container, 'alphaextract');
  return videoFacts(v, probed.formatDuration, range, Boolean(probed.audio));
}

/**
 * HEVC with alpha: an alpha layer for every frame; the alpha decoded back (FFmpeg 8, node-av)
 * at sampled frames and judged like any alpha (not constant, matching the mask); and the colour
 * layer decoding in the system ffmpeg, as players without alpha support show it.
 */
export async function videoAlphaLayer(c: Check): Promise<Facts> {
  const { probed, v } = await readVideo(c);
  const alphaNals = await alphaLayerUnits(c.file, c.signal);
  if (alphaNals < v.frames)
    fail(`the HEVC file carries an alpha layer for ${alphaNals} of ${v.frames} frames.`);
  try {
    await ffmpeg(
      [
        '-v',
        'error',
        '-xerror',
        '-f',
        'mov',
        '-protocol_whitelist',
        'file',
        '-i',
        c.file,
        '-map',
        '0:v:0',
        '-f',
        'null',
        '-',
      ],
      { timeoutMs: 600_000, signal: c.signal },
    );
  } catch {
    fail("its colour layer does not decode in this server's system ffmpeg.");
  }
  const indices = sampleIndices(c.p.frames);
  const range = await c.judgePlanes(
    (await decodeAlphaLayer(c.file, indices, c.signal)).map(planeStats),
    indices,
  );
  return videoFacts(v, probed.formatDuration, range, Boolean(probed.audio));
}

/** Colour above, matte below: the lower half is checked as the matte. */
export async function videoStackedAlpha(c: Check): Promise<Facts> {
  const { probed, v } = await readVideo(c, c.p.height * 2);
  const range = await c.matteCheck([], c.file, c.p.container, 'crop=iw:ih/2:0:ih/2');
  return videoFacts(v, probed.formatDuration, range, Boolean(probed.audio));
}

/** The file is the matte. */
export async function videoMatte(c: Check): Promise<Facts> {
  const { probed, v } = await readVideo(c);
  const range = await c.matteCheck([], c.file, c.p.container, 'null');
  return videoFacts(v, probed.formatDuration, range, Boolean(probed.audio));
}

/** An opaque picture must not have come out with an alpha pixel format. */
export async function videoOpaque(c: Check): Promise<Facts> {
  const { probed, v } = await readVideo(c);
  if (v.pixFmt.includes('a') && /^(yuva|rgba|bgra|argb|abgr|gbrap)/.test(v.pixFmt))
    fail(`an opaque output came out as ${v.pixFmt}.`);
  return videoFacts(v, probed.formatDuration, null, Boolean(probed.audio));
}
