// `npm start`: install what is missing, prepare database and models, build, then run the web
// server and one worker on the embedded default (SQLite, local disk, queue in the database).
import { spawn } from 'node:child_process';
import { buildIfStale, prepare, root } from './bootstrap.mjs';

prepare();
buildIfStale();

const port = process.env.PORT ?? '3000';
let stopping = false;
const children = new Set();

// Each role runs in a process group of its own (npx → tsx or next → the server), so stopping
// one signals the whole group: signalling npx alone left its child running, holding the port.
function run(args, env = process.env) {
  const child = spawn('npx', args, { cwd: root, stdio: 'inherit', env, detached: true });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) process.kill(-c.pid, 'SIGTERM');
  setTimeout(() => process.exit(code), 15_000).unref();
  const wait = () => (children.size ? setTimeout(wait, 100) : process.exit(code));
  wait();
}

// The web server is the product's front door: if it dies, stop everything.
run(['next', 'start', '-p', port]).on('exit', (code) => stop(code ?? 1));

// One malloc arena for the worker's threads: memory the inference thread frees after an ISNet
// run is then reused for frames instead of staying resident in an arena of its own (1080p
// service-light: 1.35 → 1.09 GB median RSS, docs/engine.md). glibc reads it only at start-up.
const workerEnv = { MALLOC_ARENA_MAX: '1', ...process.env };

// A crashed worker is restarted (its job's lease lapses and it is picked up again).
let restarts = 0;
function startWorker() {
  const startedAt = Date.now();
  run(['tsx', 'workers/server/main.ts'], workerEnv).on('exit', (code, signal) => {
    if (stopping) return;
    restarts = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
    const delay = Math.min(30_000, 1000 * 2 ** restarts);
    console.error(`Worker exited (${code ?? signal}); restarting in ${delay / 1000} s.`);
    setTimeout(startWorker, delay);
  });
}
startWorker();

console.log(`\n✔ Keyout is starting on http://localhost:${port} (web + worker). Ctrl-C stops both.\n`);
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
