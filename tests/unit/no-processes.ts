import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/**
 * The unit tier's rule, held by the harness: a unit test starts no process and opens no port.
 * A test that needs ffmpeg, a database server or a listening socket is an in-process test: name it
 * `*.in-process.test.ts` (vitest.config.ts).
 */
const refuse = (what: string) => () => {
  throw new Error(
    `A unit test may not ${what}: name the file *.in-process.test.ts (the in-process tier).`,
  );
};
for (const fn of [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const) {
  (childProcess as Record<string, unknown>)[fn] = refuse(`start a process (child_process.${fn})`);
}
net.Server.prototype.listen = refuse('open a port') as never;
syncBuiltinESMExports();
