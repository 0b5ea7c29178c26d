// `npm start`: install what is missing, prepare database and models, build, then run the web
// server and one worker on the embedded default (SQLite, local disk, queue in the database).
import { spawn } from 'node:child_process';
import { buildIfStale, markServing, prepare, root } from './bootstrap.mjs';

prepare();
buildIfStale();
markServing();

const port = process.env.PORT ?? '3000';
let stopping = false;
const children = new Set();

// Each role runs in a process group of its own (npx → next → the server; the worker's launcher →
// the worker), so stopping one signals the whole group: signalling npx alone left its child
// running, holding the port.
function run(cmd, args) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', detached: true });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function signalAll(sig) {
  for (const c of children) {
    try {
      process.kill(-c.pid, sig);
    } catch {
      // the group has just ended
    }
  }
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  signalAll('SIGTERM');
  // The worker drains for up to 10 s (workers/server/main.ts); whatever is left after 15 s is
  // killed.
  setTimeout(() => {
    signalAll('SIGKILL');
    process.exit(code);
  }, 15_000).unref();
  const wait = () => (children.size ? setTimeout(wait, 100) : process.exit(code));
  wait();
}

// The web server is the product's front door: if it dies, stop everything.
run('npx', ['next', 'start', '-p', port]).on('exit', (code) => stop(code ?? 1));

// A crashed worker is restarted (its job's lease lapses and it is picked up again).
let restarts = 0;
function startWorker() {
  const startedAt = Date.now();
  run(process.execPath, ['bin/worker.mjs']).on('exit', (code, signal) => {
    if (stopping) return;
    restarts = Date.now() - startedAt > 60_000 ? 0 : restarts + 1;
    const delay = Math.min(30_000, 1000 * 2 ** restarts);
    console.error(`Worker exited (${code ?? signal}); restarting in ${delay / 1000} s.`);
    setTimeout(startWorker, delay);
  });
}
startWorker();

console.log(
  `\n✔ Keyout is starting on http://localhost:${port} (web + worker). Ctrl-C stops both.\n`,
);
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
