/**
 * Studio benchmark: the in-browser Studio run end to end in headless Chromium (WASM unless
 * --backend webgpu), as a user runs it: pick the clip, "Remove background", wait for the WebM.
 * Reports ms per frame by stage (the page's own profile) and end to end, per configuration.
 *
 *   npx next build && npm run bench:studio -- [--clip <video>] [--configs selfie,rvm] [--rounds 2]
 *        [--backend wasm|webgpu] [--url http://localhost:4210] [--before-url <url of another
 *        build>] [--json out.json]
 *
 * A config is a people model for service-human (`selfie`, `rvm`, or `auto`: the page decides by
 * timing RVM) or another API model name. Without --url it starts `next start` on a free port with
 * a fresh DATA_DIR (build first). --before-url runs the same configs against a second stack (an
 * older build), alternating with this one, so before and after share the host's speed; a page
 * without the profile reports what its stats show.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { parseArgs, table } from './lib-bench/frames';
import { QUIET_CHROMIUM } from '../tests/support/chromium';
import { startNext } from './lib-bench/next-start';

const args = parseArgs(process.argv.slice(2));
const clip = path.resolve(
  args.get('clip') ?? '../shared/testdata/videos/liveportrait_d12_talking_glasses_512.mp4',
);
const configs = (args.get('configs') ?? 'selfie,rvm').split(',');
const rounds = Math.max(1, Number(args.get('rounds') ?? 1));
const backend = args.get('backend') ?? 'wasm';
type Row = {
  stack: string;
  config: string;
  model: string;
  frames: number;
  decode: number;
  readback: number;
  infer: number;
  refine: number;
  worker_other: number;
  encode: number;
  wait: number;
  end_to_end: number;
  run_s: number;
};

async function runOnce(url: string, stack: string, config: string): Promise<Row> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [...QUIET_CHROMIUM, ...(backend === 'webgpu' ? ['--enable-unsafe-webgpu'] : [])],
  });
  try {
    const page = await context.newPage();
    const people = ['selfie', 'rvm'].includes(config) ? `&people=${config}` : '';
    await page.goto(`${url}/studio?backend=${backend}${people}`);
    await page.locator('input[type=file]').setInputFiles(clip);
    await page
      .getByLabel('Model')
      .selectOption(['selfie', 'rvm', 'auto'].includes(config) ? 'service-human' : config);
    await page.getByRole('button', { name: 'Remove background' }).click();
    await page.getByRole('link', { name: /Download WebM/ }).waitFor({ timeout: 900_000 });
    const text = async (id: string) =>
      (await page.getByTestId(id).count())
        ? ((await page.getByTestId(id).first().textContent()) ?? '')
        : '';
    const frames = Number(
      ((await page.getByTestId('studio-stats').innerText()).match(/Frames\s+(\d+)/) ?? [])[1] ?? 0,
    );
    const runS = parseFloat(await text('studio-total-ms'));
    const model = (await text('studio-model')) || '(not shown)';
    const raw = (await page.getByTestId('studio-profile').count())
      ? await page.getByTestId('studio-profile').getAttribute('data-profile')
      : null;
    // An older build without the profile: the worker's per-frame time and the run's wall time.
    const p = raw
      ? (JSON.parse(raw) as Record<string, number>)
      : { endToEndMs: (runS * 1000) / Math.max(1, frames) };
    const n = (k: string) => Number((p[k] ?? NaN).toFixed(1));
    return {
      stack,
      config,
      model,
      frames,
      decode: n('decodeMs'),
      readback: n('readbackMs'),
      infer: n('inferMs'),
      refine: n('refineMs'),
      worker_other: n('workerOtherMs'),
      encode: n('encodeMs'),
      wait: n('waitMs'),
      end_to_end: n('endToEndMs'),
      run_s: runS,
    };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

if (!fs.existsSync(clip)) {
  console.error(`clip not found: ${clip} (pass --clip <video>)`);
  process.exit(2);
}
const own = args.has('url') ? { url: args.get('url')!, stop: () => undefined } : await startNext();
const stacks = [
  ...(args.has('before-url') ? [{ name: 'before', url: args.get('before-url')! }] : []),
  { name: args.has('before-url') ? 'after' : 'this', url: own.url },
];
const rows: Row[] = [];
try {
  for (let r = 0; r < rounds; r++)
    for (const config of configs)
      for (const s of stacks) {
        const row = await runOnce(s.url, s.name, config);
        rows.push(row);
        console.error(
          `${s.name} ${config} (round ${r + 1}): ${row.end_to_end} ms a ` +
            `frame end to end, ${row.frames} frames, ${row.model}`,
        );
      }
} finally {
  own.stop();
}
console.log(table(rows));
if (args.has('json'))
  fs.writeFileSync(
    args.get('json')!,
    JSON.stringify(
      { date: new Date().toISOString(), clip, backend, cpus: os.cpus().length, rows },
      null,
      2,
    ),
  );
process.exit(0);
