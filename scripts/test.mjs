// `npm test`: every tier, after the same preparation as `npm start`, each timed:
//   types and lint → test:unit → test:in-process → build
//   → test:integration beside test:scale → test:e2e
// Each tier is also its own npm script (README "Tests").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildIfStale, prepare, root, sh } from './bootstrap.mjs';

prepare();
// Tests set up the environment they test; a NODE_ENV=production left in the shell (servers,
// containers) must not turn the suite into a production run. The build and the e2e run stay
// production builds either way (next build and next start set it themselves).
const asTests = { env: { NODE_ENV: 'test' } };
const npm = (script, opts) => () => sh('npm', ['run', '--silent', script], opts);

/**
 * The integration tier runs its files one at a time and keeps two cores only ~60 % busy
 * (servers starting, clients polling), so it runs in two lanes: its files, and beside them the
 * scale-out tier (scripts/test-scale.ts) followed by BESIDE_FILES on a port range of their own.
 * The second lane's output is kept in a file and printed when it ends, so the two do not
 * interleave. `npm run test:integration` alone still runs every integration file.
 */
const BESIDE_FILES = [
  // After test:scale (7.3 min here), these (8.9, 1.7 and about 4 min: six service-original jobs)
  // leave the lanes about even: the first lane alone took 20 min on this 2-core host.
  'tests/integration/api-stickers.test.ts',
  'tests/integration/api-refine-points.test.ts',
  'tests/integration/n8n-templates.test.ts',
];

async function integrationBesideScale() {
  const log = path.join(root, 'test-results', 'test-scale.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'w');
  const run = (script, args, env, stdio) =>
    new Promise((resolve) => {
      const t0 = Date.now();
      const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
        cwd: root,
        stdio,
        env: { ...process.env, NODE_ENV: 'test', ...env },
      });
      child.on('exit', (code, signal) =>
        resolve({ code: code ?? (signal ? 1 : 0), seconds: (Date.now() - t0) / 1000 }),
      );
    });
  const exclude = BESIDE_FILES.flatMap((f) => ['--exclude', f]);
  const secondLane = async () => {
    const scale = await run('test:scale', [], { KEYOUT_TEST_PORTS: '3200-3299' }, [
      'ignore',
      out,
      out,
    ]);
    const beside = await run('test:integration', BESIDE_FILES, { KEYOUT_TEST_PORTS: '3300-3399' }, [
      'ignore',
      out,
      out,
    ]);
    return { scale, beside };
  };
  const [integration, { scale, beside }] = await Promise.all([
    run('test:integration', exclude, {}, 'inherit'),
    secondLane(),
  ]);
  fs.closeSync(out);
  console.log(`\n━━ test:scale, then ${BESIDE_FILES.join(', ')} (${path.relative(root, log)}) ━━`);
  process.stdout.write(fs.readFileSync(log));
  if ([integration, scale, beside].some((r) => r.code !== 0)) {
    console.error(
      `\n✖ test:integration exit ${integration.code}, test:scale exit ` +
        `${scale.code}, ${BESIDE_FILES.length} integration file(s) ` +
        `beside it exit ${beside.code}.`,
    );
    process.exit(1);
  }
  return [
    ['  test:integration', integration.seconds],
    ['  test:scale', scale.seconds],
    ['  integration beside test:scale', beside.seconds],
  ];
}

const steps = [
  ['typecheck', () => sh('npx', ['tsc', '--noEmit'])],
  ['lint', npm('lint')],
  ['test:unit', npm('test:unit', asTests)],
  ['test:in-process', npm('test:in-process', asTests)],
  ['build', buildIfStale],
  ['test:integration beside test:scale', integrationBesideScale],
  // The production build made above serves the e2e run (next start), as users get it.
  ['test:e2e', npm('test:e2e', { env: { E2E_PROD: '1' } })],
];
const times = [];
const started = Date.now();
for (const [name, step] of steps) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const parts = await step();
  const seconds = (Date.now() - t0) / 1000;
  times.push([name, seconds], ...(parts ?? []));
  console.log(`✔ ${name} (${seconds.toFixed(0)} s)`);
}
times.push(['npm test', (Date.now() - started) / 1000]);
console.log('\n━━ times ━━');
for (const [name, seconds] of times)
  console.log(`${name.padEnd(38)} ${(seconds / 60).toFixed(1).padStart(5)} min`);
