/**
 * A strip of frames of a video cut out by a mask video and laid over a checkerboard, as one
 * PNG, to look at what the engine kept (the whole subject, nothing of the background):
 *
 *   npx tsx scripts/look-mattes.ts <video> <mask.mkv> <out.png> [--every 10] [--count 4] [--width
 *   320]
 *
 * Mask videos come from `npm run bench:quality -- --masks <dir>` or a job's stored mask.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    every: { type: 'string', default: '10' },
    count: { type: 'string', default: '4' },
    width: { type: 'string', default: '320' },
  },
});
const [video, mask, out] = positionals;
if (!video || !mask || !out) {
  console.error(
    'usage: look-mattes.ts <video> <mask.mkv> <out.png> [--every 10] [--count 4] [--width 320]',
  );
  process.exit(2);
}
const every = Number(values.every);
const count = Number(values.count);
const graph = [
  '[1:v]format=gray[m]',
  '[0:v]format=rgba[c]',
  '[c][m]alphamerge[fg]',
  // A 16-px grey checkerboard the size of the video.
  "[0:v]geq=lum='if(mod(floor(X/16)+floor(Y/16),2),200,120)':cb=128:cr=128,format=rgba[bg]",
  '[bg][fg]overlay=format=auto:shortest=1[comp]',
  `[comp]select='not(mod(n\\,${every}))',scale=${values.width}:-2,tile=${count}x1`,
].join(';');
execFileSync(
  'ffmpeg',
  ['-v', 'error', '-y', '-i', video, '-i', mask, '-filter_complex', graph, '-frames:v', '1', out],
  { stdio: 'inherit' },
);
console.log(out);
