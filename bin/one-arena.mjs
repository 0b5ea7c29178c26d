// Starts a TypeScript entry point (through tsx's loader) with glibc's malloc held to one arena.
//
// Model runs happen on an inference thread, and with glibc's per-thread arenas the ~0.5 GB that
// onnxruntime frees after each ISNet run stays resident there (docs/engine.md). glibc reads
// MALLOC_ARENA_MAX only at start-up, so when it is unset the launcher runs itself again with it
// set; a value the user chose is kept. The child's exit status (or the signal that ended it)
// becomes the launcher's. The CLI (bin/keyout.mjs) and the worker (bin/worker.mjs) start here.
import { spawn } from 'node:child_process';

/** @param {URL} entry the TypeScript module to run */
export async function runWithOneArena(entry) {
  if (process.env.MALLOC_ARENA_MAX !== undefined) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(entry.href);
    return;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '1' },
  });
  // Signals sent to the launcher alone are passed on; a signal sent to the whole process group
  // (Ctrl-C, a supervisor) then reaches the child twice, which it treats as once.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
