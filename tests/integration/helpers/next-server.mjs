// Next for integration tests and benches, in its own build folder, so several test servers, a
// developer's own `next dev` and a private production build can coexist in one checkout (plain
// `next dev` holds an exclusive lock on .next/dev; `next build` empties .next). The resolved
// next.config is handed over through Next's standalone-config variable with only distDir (and
// the tsconfig Next may rewrite) changed.
//
//   node next-server.mjs dev <port>     dev server in .next/test-<port>
//   node next-server.mjs build          production build in $KEYOUT_TEST_DIST_DIR
//   (.next/test-build) node next-server.mjs start <port>   serve that build
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import loadConfig from 'next/dist/server/config.js';
import {
  PHASE_DEVELOPMENT_SERVER,
  PHASE_PRODUCTION_BUILD,
  PHASE_PRODUCTION_SERVER,
} from 'next/constants.js';

const root = path.resolve(import.meta.dirname, '../../..');
const [command, port] = process.argv.slice(2);
const phases = {
  dev: PHASE_DEVELOPMENT_SERVER,
  build: PHASE_PRODUCTION_BUILD,
  start: PHASE_PRODUCTION_SERVER,
};
if (!phases[command] || (command !== 'build' && !port)) {
  console.error('usage: next-server.mjs dev <port> | build | start <port>');
  process.exit(2);
}
const config = await loadConfig.default(phases[command], root, { silent: true });
const distDir =
  command === 'dev'
    ? path.join('.next', `test-${port}`)
    : (process.env.KEYOUT_TEST_DIST_DIR ?? path.join('.next', 'test-build'));
// Next adds its type globs to the tsconfig it is given: hand it a private one extending ours
// (outside distDir, which the dev server empties at start).
const tsconfigPath = path.join('.next', `tsconfig.test-${command === 'dev' ? port : 'build'}.json`);
fs.mkdirSync(path.join(root, '.next'), { recursive: true });
fs.writeFileSync(path.join(root, tsconfigPath), JSON.stringify({ extends: '../tsconfig.json' }));

const args = command === 'build' ? ['build'] : [command, '--hostname', '127.0.0.1', '--port', port];
const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules/next/dist/bin/next'), ...args],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify({
        ...config,
        distDir,
        distDirRoot: distDir,
        typescript: { ...config.typescript, tsconfigPath },
      }),
    },
  },
);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
