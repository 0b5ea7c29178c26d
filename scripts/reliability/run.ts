/**
 * `npm run test:reliability`: the hardening review's attacks as repeatable scripts, each printing
 * its figures, on real web, worker, SQLite, ffmpeg and models (tests/integration/helpers).
 *
 *   npx tsx scripts/reliability/run.ts [--only kills,starts,race,media,fuzz,soak]
 *                                      [--kills 20] [--race-rounds 30] [--fuzz 300] [--fuzz-seed
 *                                      28] [--soak-minutes 10] [--starts-rounds 1] [--ci] [--stack
 *                                      scale]
 *
 * The defaults are the full suite (the figures in docs/operations.md, run by hand). `--ci` is the
 * shorter variant CI runs after `npm test` (.ci/run): every part, with 5 kills, 10 race rounds and
 * a 2-minute soak; explicit options still win.
 *
 * `--stack scale` runs the parts that hold on either stack (`starts`) on the scale-out stack
 * instead: PostgreSQL, BullMQ on Redis and S3 (Swift), started once as `npm run test:scale` does,
 * with two web processes.
 *
 * Exits non-zero when any part does not hold; the table it prints is the one in
 * docs/operations.md ("What we test and how it held"), and is also written to
 * bench-results/reliability.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Part, PartResult } from './common';
import { startScaleServices } from '../lib-stack/scale-services';
import { fuzz } from './fuzz';
import { hostileMedia } from './hostile-media';
import { racingStarts } from './racing-starts';
import { soak } from './soak';
import { uploadRace } from './upload-race';
import { workerKills } from './worker-kills';

const { values: given } = parseArgs({
  options: {
    only: { type: 'string' },
    kills: { type: 'string' },
    fuzz: { type: 'string' },
    'fuzz-seed': { type: 'string' },
    'race-rounds': { type: 'string' },
    'soak-minutes': { type: 'string' },
    'starts-rounds': { type: 'string' },
    stack: { type: 'string', default: 'embedded' },
    ci: { type: 'boolean', default: false },
  },
});
const FULL = {
  kills: '20',
  fuzz: '300',
  'fuzz-seed': '28',
  'race-rounds': '30',
  'soak-minutes': '10',
  'starts-rounds': '1',
};
const CI = { ...FULL, kills: '5', 'race-rounds': '10', 'soak-minutes': '2' };
const values: typeof FULL & { only?: string } = { ...(given.ci ? CI : FULL) };
for (const [k, v] of Object.entries(given))
  if (typeof v === 'string') Object.assign(values, { [k]: v });

const parts: Record<string, Part> = {
  kills: workerKills(Number(values.kills)),
  starts: racingStarts(50, 10, Number(values['starts-rounds'])),
  race: uploadRace(Number(values['race-rounds'])),
  media: hostileMedia(),
  fuzz: fuzz(Number(values.fuzz), Number(values['fuzz-seed'])),
  soak: soak(Number(values['soak-minutes'])),
};

async function main(): Promise<void> {
  const scale = given.stack === 'scale';
  if (!['embedded', 'scale'].includes(given.stack))
    throw new Error(`--stack is embedded or scale, not ${given.stack}`);
  const chosen = values.only
    ? values.only.split(',').map((s) => s.trim())
    : Object.keys(parts).filter((k) => !scale || parts[k]!.scale);
  const unknown = chosen.filter((c) => !parts[c]);
  if (unknown.length)
    throw new Error(
      `Unknown part(s): ${unknown.join(', ')} (known: ${Object.keys(parts).join(', ')})`,
    );
  const embeddedOnly = scale ? chosen.filter((c) => !parts[c]!.scale) : [];
  if (embeddedOnly.length)
    throw new Error(`Part(s) ${embeddedOnly.join(', ')} run on the embedded stack only`);
  const services = scale ? await startScaleServices() : null;
  if (services) {
    console.log(`› Scale-out services: ${services.describe}`);
    Object.assign(process.env, services.env, { KEYOUT_TEST_STACK: 'scale' });
  }
  try {
    await runParts(chosen, scale);
  } finally {
    await services?.stop();
  }
}

async function runParts(chosen: string[], scale: boolean): Promise<void> {
  const results: PartResult[] = [];
  const t0 = Date.now();
  for (const name of chosen) {
    const part = parts[name]!;
    console.log(`\n━━ ${part.name} ━━`);
    const started = Date.now();
    let result: PartResult;
    try {
      result = { name: part.name, ...(await part.run()), seconds: (Date.now() - started) / 1000 };
    } catch (e) {
      result = {
        name: part.name,
        passed: false,
        figures: 'did not finish',
        problems: [e instanceof Error ? (e.stack ?? e.message) : String(e)],
        seconds: (Date.now() - started) / 1000,
      };
    }
    results.push(result);
    console.log(`${result.passed ? '✔' : '✖'} ${result.figures} (${result.seconds.toFixed(0)} s)`);
    for (const p of result.problems.slice(0, 20)) console.log(`   - ${p}`);
  }
  const table = [
    `Run ${new Date().toISOString()} on ${os.cpus().length} CPUs ` +
      `(${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${scale ? 'the scale-out stack' : 'the embedded stack'}, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, ` +
      `${((Date.now() - t0) / 60_000).toFixed(1)} min in all.`,
    '',
    '| what we test | how it held | held | time |',
    '|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.figures} | ${r.passed ? 'yes' : 'NO'} | ${Math.round(r.seconds)} s |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  const out = path.resolve(
    import.meta.dirname,
    `../../bench-results/reliability${scale ? '-scale' : ''}.md`,
  );
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${table}\n`);
  process.exitCode = results.every((r) => r.passed) ? 0 : 1;
}

main().then(
  () => process.exit(),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
