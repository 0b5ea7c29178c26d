// `npm test`: the whole suite — types, lint, unit, integration (real server, worker, SQLite,
// ffmpeg, models; and the API again on PostgreSQL + BullMQ + S3) and Playwright e2e in Chromium —
// after the same preparation as `npm start`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildIfStale, prepare, root, sh } from './bootstrap.mjs';

prepare();
// Tests set up the environment they test; a NODE_ENV=production left in the shell (servers,
// containers) must not turn the suite into a production run. The build and the e2e run stay
// production builds either way (next build and next start set it themselves).
const asTests = { env: { NODE_ENV: 'test' } };

/**
 * The embedded integration files run one at a time and keep two cores only ~60 % busy (servers
 * starting, leases lapsing, clients polling), so the scale-out stack's files (scripts/test-scale.ts)
 * run beside them, on their own port range; their output is kept in a file and printed when they
 * end, so the two runs do not interleave. Sequentially they would take CI past its 60 minutes.
 */
async function integration() {
  const log = path.join(root, 'test-results', 'integration-scale-out.log');
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'w');
  const run = (args, env, stdio) =>
    new Promise((resolve) => {
      const child = spawn('npx', args, { cwd: root, stdio, env: { ...process.env, NODE_ENV: 'test', ...env } });
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  const [embedded, scale] = await Promise.all([
    run(['vitest', 'run', '--project', 'integration'], {}, 'inherit'),
    run(['tsx', 'scripts/test-scale.ts'], { KEYOUT_TEST_PORTS: '3200-3299' }, ['ignore', out, out]),
  ]);
  fs.closeSync(out);
  console.log(`\n━━ integration tests, scale-out stack (${path.relative(root, log)}) ━━`);
  process.stdout.write(fs.readFileSync(log));
  if (embedded !== 0 || scale !== 0) {
    console.error(`\n✖ integration tests failed (embedded stack: exit ${embedded}, scale-out stack: exit ${scale}).`);
    process.exit(1);
  }
}

const steps = [
  ['typecheck', () => sh('npx', ['tsc', '--noEmit'])],
  ['lint', () => sh('npx', ['eslint', '.', '--max-warnings=0'])],
  ['unit tests', () => sh('npx', ['vitest', 'run', '--project', 'unit'], asTests)],
  ['build', buildIfStale],
  ['integration tests, embedded and scale-out stacks', integration],
  // The production build made above serves the e2e run (next start), as users get it.
  ['e2e tests', () => sh('npx', ['playwright', 'test'], { env: { E2E_PROD: '1' } })],
];
for (const [name, step] of steps) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  await step();
  console.log(`✔ ${name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
