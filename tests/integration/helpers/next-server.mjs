// `next dev` for integration tests with its own build folder (.next/test-<port>), so several
// test servers, and a developer's own `next dev`, can run from one checkout at once (plain
// `next dev` holds an exclusive lock on .next/dev). The resolved next.config is handed over
// through Next's standalone-config variable with only distDir changed.
// Usage: node next-dev.mjs <port>
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import loadConfig from 'next/dist/server/config.js';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js';

const root = path.resolve(import.meta.dirname, '../../..');
const port = process.argv[2];
const config = await loadConfig.default(PHASE_DEVELOPMENT_SERVER, root, { silent: true });
const distDir = path.join('.next', `test-${port}`);
// Next adds its type globs to the tsconfig it is given: hand it a private one extending ours.
// (Outside distDir, which the dev server empties at start.)
const tsconfigPath = path.join('.next', `tsconfig.test-${port}.json`);
fs.mkdirSync(path.join(root, '.next'), { recursive: true });
fs.writeFileSync(path.join(root, tsconfigPath), JSON.stringify({ extends: '../tsconfig.json' }));
const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules/next/dist/bin/next'), 'dev', '--hostname', '127.0.0.1', '--port', port],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify({
        ...config,
        distDir,
        distDirRoot: distDir,
        typescript: { ...config.typescript, tsconfigPath },
      }) },
  },
);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
