/**
 * The studio's formats in the browser next to the server's, and the studio's memory.
 *
 * 1. Per format the studio makes (the catalogue's `studio` flag: WebP, APNG, GIF, PNG sequence
 *    and the eight stickers), on the same cut of one clip, people model (MediaPipe selfie) on both
 *    sides: the server's renderOutput (native ffmpeg, from its mask) and the studio's (ffmpeg.wasm
 *    and WebCodecs in headless Chromium, from its cut-out), each format made alone: bytes, and
 *    seconds (the browser's as the page measures the file's own work, and from the click).
 * 2. The studio's peak memory on a long 720p clip, as a run of 10 s and of 30 s of it: the PSS
 *    of the tab's renderer process (its workers and WebAssembly included) and of all of
 *    Chromium's processes, sampled every 250 ms. Frames stream through the encoders, so the
 *    30 s run should not need three times the 10 s run's memory.
 *
 *   npx next build && npx tsx scripts/bench-studio-formats.ts [--clip <video>] [--seconds 4]
 *        [--memory-clip <video>] [--skip server,browser,memory] [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { EXPORT_FORMATS, OUTPUT_FORMATS } from '../engine/formats';
import { probeVideo } from '../lib/media/probe';
import { renderOutput } from '../lib/media/render';
import { segmentVideo } from '../lib/segment/mask-video';
import { parseArgs, table } from './lib-bench/frames';
import { QUIET_CHROMIUM } from '../tests/support/chromium';
import { startNext } from './lib-bench/next-start';
import { H264 } from '../lib/media/fixtures';

const args = parseArgs(process.argv.slice(2));
const VIDEOS = path.resolve('../shared/testdata/videos');
const clipSource = path.resolve(
  args.get('clip') ?? path.join(VIDEOS, 'liveportrait_s13_dance_fullbody_white_bg_720x1080.mp4'),
);
const seconds = Number(args.get('seconds') ?? 4);
const memorySource = path.resolve(
  args.get('memory-clip') ?? path.join(VIDEOS, 'sam2_04_coffee_pour_object_1280x720.mp4'),
);
const skip = new Set((args.get('skip') ?? '').split(','));
const FORMATS = EXPORT_FORMATS.filter((id) => OUTPUT_FORMATS.find((f) => f.id === id)?.studio);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bench-studio-formats-'));

/** `seconds` of `source` (looped when shorter), H.264 + AAC, as a user's file. */
function cut(source: string, secs: number, name: string): string {
  const out = path.join(work, name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-stream_loop',
    '-1',
    '-i',
    source,
    '-t',
    String(secs),
    ...H264,
    '-preset',
    'veryfast',
    '-c:a',
    'aac',
    out,
  ]);
  return out;
}

type FormatRow = {
  format: string;
  server_bytes: number | string;
  server_s: number | string;
  browser_bytes: number | string;
  browser_s: number | string;
  browser_click_s: number | string;
  ratio: string;
};

async function serverSide(clip: string): Promise<Map<string, { bytes: number; s: number }>> {
  const info = await probeVideo(clip);
  const mask = path.join(work, 'mask.mkv');
  await segmentVideo({ input: clip, info, maskOut: mask, model: 'service-human' });
  const out = new Map<string, { bytes: number; s: number }>();
  for (const format of FORMATS) {
    const t = performance.now();
    const o = await renderOutput({
      source: clip,
      info,
      mask,
      recipe: { kind: 'transparent', format },
      outDir: path.join(work, 'server'),
      basename: format,
    });
    out.set(format, { bytes: o.metadata.bytes, s: (performance.now() - t) / 1000 });
    fs.rmSync(o.file, { force: true });
    console.error(
      `server ${format}: ${o.metadata.bytes} bytes, ${out.get(format)!.s.toFixed(1)} s`,
    );
  }
  return out;
}

async function withStudio<T>(
  url: string,
  fn: (page: Page, pids: () => number[]) => Promise<T>,
): Promise<T> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: QUIET_CHROMIUM,
  });
  // Chromium's processes: the browser (its command line names the profile) and its descendants.
  const pids = () => {
    const all = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
    const parent = new Map<number, number>();
    for (const p of all) {
      try {
        parent.set(
          Number(p),
          Number(
            fs
              .readFileSync(`/proc/${p}/stat`, 'utf8')
              .replace(/^.*\) /, '')
              .split(' ')[1],
          ),
        );
      } catch {
        // gone meanwhile
      }
    }
    const browser = all.map(Number).filter((p) => {
      try {
        const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8');
        return cmd.includes(profile) && !cmd.includes('--type=');
      } catch {
        return false;
      }
    });
    const ours = new Set(browser);
    for (let grew = true; grew;) {
      grew = false;
      for (const [p, pp] of parent) {
        if (!ours.has(p) && ours.has(pp)) {
          ours.add(p);
          grew = true;
        }
      }
    }
    return [...ours];
  };
  try {
    const page = await context.newPage();
    await page.goto(`${url}/studio?backend=wasm&people=selfie`);
    return await fn(page, pids);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function runCutout(page: Page, clip: string): Promise<number> {
  await page.locator('input[type=file]').first().setInputFiles(clip);
  await page.getByLabel('Model').selectOption('service-human');
  const t = performance.now();
  await page.getByRole('button', { name: 'Remove background' }).click();
  await page.getByRole('link', { name: /^Download WebM/ }).waitFor({ timeout: 1_800_000 });
  return (performance.now() - t) / 1000;
}

async function browserSide(
  url: string,
  clip: string,
): Promise<Map<string, { bytes: number; s: number; click: number }>> {
  return withStudio(url, async (page) => {
    await runCutout(page, clip);
    const out = new Map<string, { bytes: number; s: number; click: number }>();
    for (const format of FORMATS) {
      const f = OUTPUT_FORMATS.find((x) => x.id === format)!;
      const box =
        f.family === 'sticker'
          ? page.getByRole('checkbox', { name: new RegExp(format) })
          : page.getByRole('checkbox', { name: f.label, exact: true });
      await box.check();
      const t = performance.now();
      await page
        .getByRole('button', {
          name: f.family === 'sticker' ? 'Make stickers' : 'Make',
          exact: true,
        })
        .click();
      const item = page.locator(`li[data-format=${format}]`);
      await item.waitFor({ timeout: 1_800_000 });
      const click = (performance.now() - t) / 1000;
      const [bytes, ms] = await Promise.all([
        item.getAttribute('data-bytes'),
        item.getAttribute('data-ms'),
      ]);
      if (bytes === null)
        throw new Error(`${format} failed in the browser: ${await item.innerText()}`);
      out.set(format, { bytes: Number(bytes), s: Number(ms) / 1000, click });
      await box.uncheck();
      console.error(
        `browser ${format}: ${bytes} bytes, ` +
          `${(Number(ms) / 1000).toFixed(1)} s (${click.toFixed(1)} s ` +
          'from the click)',
      );
    }
    return out;
  });
}

const pssKb = (pid: number) => {
  try {
    return Number(
      /^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0,
    );
  } catch {
    return 0;
  }
};
const isRenderer = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
  } catch {
    return false;
  }
};

async function memoryRun(url: string, clip: string, secs: number) {
  return withStudio(url, async (page, pids) => {
    const sample = () => {
      const ps = pids();
      return {
        tab: Math.max(0, ...ps.filter(isRenderer).map(pssKb)),
        all: ps.map(pssKb).reduce((a, b) => a + b, 0),
      };
    };
    const before = sample();
    let peak = { tab: 0, all: 0 };
    const timer = setInterval(() => {
      const s = sample();
      peak = { tab: Math.max(peak.tab, s.tab), all: Math.max(peak.all, s.all) };
    }, 250);
    const runS = await runCutout(page, clip).finally(() => clearInterval(timer));
    const frames = Number(
      ((await page.getByTestId('studio-stats').innerText()).match(/Frames\s+(\d+)/) ?? [])[1] ?? 0,
    );
    const mb = (kb: number) => Math.round(kb / 1024);
    return {
      clip: `${secs} s of ${path.basename(clip)}`,
      frames,
      run_s: Number(runS.toFixed(1)),
      tab_before_mb: mb(before.tab),
      tab_peak_mb: mb(peak.tab),
      chromium_peak_mb: mb(peak.all),
    };
  });
}

console.error(
  `${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const clip = cut(clipSource, seconds, `clip-${seconds}s.mp4`);
const result: Record<string, unknown> = {
  date: new Date().toISOString(),
  cpus: os.cpus().length,
  clip: `${seconds} s of ${path.basename(clipSource)}`,
};
const server = skip.has('server') ? null : await serverSide(clip);
const web = skip.has('browser') && skip.has('memory') ? null : await startNext();
try {
  const browser = web && !skip.has('browser') ? await browserSide(web.url, clip) : null;
  const s2 = (x: number | undefined) => (x === undefined ? '-' : Number(x.toFixed(1)));
  const rows: FormatRow[] = FORMATS.map((format) => {
    const s = server?.get(format);
    const b = browser?.get(format);
    return {
      format,
      server_bytes: s?.bytes ?? '-',
      server_s: s2(s?.s),
      browser_bytes: b?.bytes ?? '-',
      browser_s: s2(b?.s),
      browser_click_s: s2(b?.click),
      ratio: s && b ? `${(b.s / s.s).toFixed(2)}×` : '-',
    };
  });
  result.formats = rows;
  console.log(
    `### ${result.clip as string}: each format alone, browser time ` +
      '÷ server time in the last column\n',
  );
  console.log(table(rows));
  if (web && !skip.has('memory')) {
    const memory = [];
    for (const secs of [10, 30])
      memory.push(await memoryRun(web.url, cut(memorySource, secs, `memory-${secs}s.mp4`), secs));
    result.memory = memory;
    console.log(`\n### Studio memory (PSS, MB): the tab's renderer and all of Chromium\n`);
    console.log(table(memory));
  }
} finally {
  web?.stop();
}
console.error(
  `load after: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (args.has('json')) fs.writeFileSync(args.get('json')!, JSON.stringify(result, null, 2) + '\n');
fs.rmSync(work, { recursive: true, force: true });
process.exit(0);
