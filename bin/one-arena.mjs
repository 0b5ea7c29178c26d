// Starts a TypeScript entry point (through tsx's loader) with glibc's malloc held to one arena.
//
// Model runs happen on an inference thread, and with glibc's per-thread arenas the ~0.5 GB that
// onnxruntime frees after each ISNet run stays resident there (docs/engine.md). Blocks of 4 MiB
// and more (4K frames, the models' tensors) are mapped on their own, so freeing them gives the
// memory back: a 4K render after segmentation then finds it free (without it, node held ~200 MiB
// more there). glibc reads these only at start-up, so when MALLOC_ARENA_MAX is unset the launcher
// runs itself again with them set; values the user chose are kept. The child's exit status (or
// the signal that ended it) becomes the launcher's. The CLI (bin/keyout.mjs) and the worker
// (bin/worker.mjs) start here.
import { spawn } from 'node:child_process';

/**
 * The environment with glibc's malloc as the worker runs it; what the user set is kept.
 * @param {NodeJS.ProcessEnv} env
 */
export function oneArenaEnv(env) {
  return {
    MALLOC_MMAP_THRESHOLD_: String(4 * 2 ** 20),
    ...env,
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '1',
  };
}

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
    env: oneArenaEnv(process.env),
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
