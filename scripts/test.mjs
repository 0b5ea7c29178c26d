// `npm test`: the whole suite — types, lint, unit, integration (real server, worker, SQLite,
// ffmpeg, models) and Playwright e2e in Chromium — after the same preparation as `npm start`.
// The scale-out stack (PostgreSQL, BullMQ, S3) has its own command, `npm run test:scale`: with it
// this run would pass CI's 60 minutes (docs/operations.md, "Measured here").
import { buildIfStale, prepare, sh } from './bootstrap.mjs';

prepare();
// Tests set up the environment they test; a NODE_ENV=production left in the shell (servers,
// containers) must not turn the suite into a production run. The build and the e2e run stay
// production builds either way (next build and next start set it themselves).
const asTests = { env: { NODE_ENV: 'test' } };
const steps = [
  ['typecheck', ['npx', ['tsc', '--noEmit']]],
  ['lint', ['npx', ['eslint', '.', '--max-warnings=0']]],
  ['unit tests', ['npx', ['vitest', 'run', '--project', 'unit'], asTests]],
  ['build', null],
  ['integration tests', ['npx', ['vitest', 'run', '--project', 'integration'], asTests]],
  // The production build made above serves the e2e run (next start), as users get it.
  ['e2e tests', ['npx', ['playwright', 'test'], { env: { E2E_PROD: '1' } }]],
];
for (const [name, cmd] of steps) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  if (cmd) sh(...cmd);
  else buildIfStale();
  console.log(`✔ ${name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
