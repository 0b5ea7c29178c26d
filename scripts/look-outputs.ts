/**
 * Renders every output format from a real clip and saves frames of each, composited over a
 * checkerboard and over magenta, as PNGs to look at for halos, fringes, inverted or shifted
 * mattes.
 *
 *   npx tsx scripts/look-outputs.ts [--source <video>] [--seconds 3] [--max-width 640]
 *        [--mask <mask.mkv> | --segment <service-light|…>] [--formats webm_vp9,gif,…] [--out <dir>]
 *
 * Without --mask or --segment the mask is the moving-ellipse test mask (lib/media/fixtures.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readWebp, stillWebp } from '../engine/media/containers';
import { TRANSPARENT_FORMATS } from '../engine/formats';
import type { Recipe } from '../engine/media/recipe';
import { ffmpeg } from '../lib/media/ffmpeg';
import { fromLavfi, makeExcerpt, makeTestMask } from '../lib/media/fixtures';
import { probeVideo } from '../lib/media/probe';
import { renderOutput, type RenderedOutput } from '../lib/media/render';
import { renderThumbnails } from '../lib/media/thumbnails';
import { readZipEntry } from '../lib/media/zip';

const DEFAULT_SOURCE = path.resolve(
  '../shared/testdata/videos/liveportrait_d12_talking_glasses_512.mp4',
);

const { values } = parseArgs({
  options: {
    source: { type: 'string', default: DEFAULT_SOURCE },
    seconds: { type: 'string', default: '3' },
    'max-width': { type: 'string', default: '640' },
    mask: { type: 'string' },
    segment: { type: 'string' },
    formats: { type: 'string' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'keyout-look') },
  },
});

const out = path.resolve(values.out);
await fs.mkdir(out, { recursive: true });
const source = await makeExcerpt(values.source, path.join(out, 'source.mp4'), {
  seconds: Number(values.seconds),
  maxWidth: Number(values['max-width']),
});
const info = await probeVideo(source);
let mask = values.mask ? path.resolve(values.mask) : path.join(out, 'mask.mkv');
if (!values.mask && values.segment) {
  const { segmentVideo } = await import('../lib/segment/mask-video');
  await segmentVideo({ input: source, info, maskOut: mask, model: values.segment as never });
} else if (!values.mask) {
  mask = await makeTestMask(source, info, mask);
}

const background = path.join(out, 'background.png');
await fromLavfi(background, 'testsrc2=s=960x540', ['-frames:v', '1']);

const recipes: Recipe[] = [
  ...TRANSPARENT_FORMATS.map((format) => ({ kind: 'transparent' as const, format })),
  { kind: 'color', color: '#2040C0', exportFormat: 'mp4' },
  {
    kind: 'blur',
    blur: { mode: 'background', intensity: 60, type: 'gaussian' },
    exportFormat: 'mp4',
  },
  { kind: 'blur', blur: { mode: 'subject', intensity: 60, type: 'box' }, exportFormat: 'mp4' },
  ...(['full', 'centered', 'ai_ugc_ad'] as const).map((template) => ({
    kind: 'composition' as const,
    background: { file: background },
    template,
    backgroundAudio: false,
    backgroundAudioVolume: 1,
    exportFormat: 'mp4' as const,
  })),
];
const wanted = values.formats?.split(',');
const frame = Math.floor(info.frameCount / 2);

for (const recipe of recipes) {
  const name =
    recipe.kind === 'transparent'
      ? recipe.format
      : recipe.kind === 'composition'
        ? `composition_${recipe.template}`
        : recipe.kind === 'blur'
          ? `blur_${recipe.blur.mode}`
          : 'color';
  if (wanted && !wanted.includes(name)) continue;
  const rendered = await renderOutput({ source, info, mask, recipe, outDir: out, basename: name });
  const rgba = path.join(out, `${name}_rgba.png`);
  await extractRgba(rendered, recipe, rgba, frame);
  const stacked = rendered.metadata.alpha === 'stacked';
  const size = `${rendered.metadata.width}x${rendered.metadata.height / (stacked ? 2 : 1)}`;
  for (const [bg, label] of [
    [checker(size), 'checker'],
    [`color=c=0xFF00FF:s=${size}`, 'magenta'],
  ] as const) {
    await ffmpeg([
      '-v',
      'error',
      '-i',
      rgba,
      '-f',
      'lavfi',
      '-i',
      bg,
      '-filter_complex',
      '[1:v][0:v]overlay=format=auto',
      '-frames:v',
      '1',
      path.join(out, `${name}_over_${label}.png`),
    ]);
  }
  await fs.rm(rgba);
  console.log(`${name.padEnd(28)} ${rendered.file}  ${rendered.metadata.bytes} bytes`);
}
const thumbs = await renderThumbnails({ source, info, mask, outDir: out });
console.log(`thumbnails                   ${thumbs.jpeg} ${thumbs.png}`);
console.log(`frames saved in ${out}`);

function checker(size: string): string {
  return (
    `nullsrc=s=${size},geq=lum='if(mod(floor(X/16)+floor(Y/16)\\,` +
    "2)\\,200\\,120)':cb=128:cr=128"
  );
}

/** One frame of an output as an RGBA PNG, decoded the way a player would read that format. */
async function extractRgba(
  o: RenderedOutput,
  recipe: Recipe,
  png: string,
  n: number,
): Promise<void> {
  const pick = `select='eq(n\\,${n})'`;
  const single = (input: string[], graph: string) =>
    ffmpeg([
      '-v',
      'error',
      ...input,
      '-filter_complex',
      graph,
      '-frames:v',
      '1',
      '-update',
      '1',
      png,
    ]);
  const format = recipe.kind === 'transparent' ? recipe.format : 'opaque';
  switch (format) {
    case 'webm_vp9':
      return void (await single(['-c:v', 'libvpx-vp9', '-i', o.file], `${pick},format=rgba`));
    case 'stacked_video':
    case 'stacked_video_mask_inverted': {
      const neg = format === 'stacked_video_mask_inverted' ? ',negate' : '';
      return void (await single(
        ['-i', o.file],
        `[0:v]${pick},split[a][b];[a]crop=iw:ih/2:0:0[c];` +
          `[b]crop=iw:ih/2:0:ih/2,format=gray${neg}[m];[c][m]alphamerge,` +
          'format=rgba',
      ));
    }
    case 'mask_video':
    case 'mask_video_inverted': {
      const neg = format === 'mask_video_inverted' ? ',negate' : '';
      return void (await single(
        ['-i', source, '-i', o.file],
        `[0:v]${pick}[c];[1:v]${pick},format=gray${neg}[m];[c][m]alphamerge,format=rgba`,
      ));
    }
    case 'pro_bundle': {
      const color = path.join(out, 'bundle_color.mp4');
      const alpha = path.join(out, 'bundle_alpha.mp4');
      await fs.writeFile(color, (await readZipEntry(o.file, 'color.mp4'))!);
      await fs.writeFile(alpha, (await readZipEntry(o.file, 'alpha.mp4'))!);
      return void (await single(
        ['-i', color, '-i', alpha],
        `[0:v]${pick}[c];[1:v]${pick},format=gray[m];[c][m]alphamerge,format=rgba`,
      ));
    }
    case 'png_sequence': {
      const name = `frame_${String(n + 1).padStart(6, '0')}.png`;
      await fs.writeFile(png, (await readZipEntry(o.file, name))!);
      return;
    }
    case 'webp': {
      // FFmpeg 5.1 cannot decode animated WebP: cut the frame out and place it on its canvas.
      const webp = readWebp(new Uint8Array(await fs.readFile(o.file)));
      const f = webp.frames[n]!;
      const still = path.join(out, 'webp_frame.webp');
      await fs.writeFile(still, stillWebp(f, webp.frameChunks[n]!));
      await single(
        [
          '-f',
          'lavfi',
          '-i',
          `color=c=black@0:s=${webp.width}x${webp.height},format=rgba`,
          '-i',
          still,
        ],
        `[0:v][1:v]overlay=${f.x}:${f.y}:format=auto,format=rgba`,
      );
      return void (await fs.rm(still));
    }
    default:
      return void (await single(['-i', o.file], `${pick},format=rgba`));
  }
}
