#!/usr/bin/env node
// `npx keyout …`: runs the TypeScript CLI through tsx's loader (no build step for self-hosters).
//
// Model runs happen on an inference thread, and with glibc's per-thread arenas the ~0.5 GB that
// onnxruntime frees after each ISNet run stays resident there (docs/engine.md). glibc reads
// MALLOC_ARENA_MAX only at start-up, so without it set the CLI runs itself again with one arena,
// as the worker does. The child's exit status (or the signal that ended it) becomes ours.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.env.MALLOC_ARENA_MAX === undefined) {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '1' },
  });
  // Signals sent to this process alone are passed on (Ctrl-C reaches both; the child stops once).
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./keyout.ts');
}
