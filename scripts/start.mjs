// `npm start`: install what is missing, prepare database and models, build, then run the web
// server and one worker on the embedded default (SQLite, local disk, queue in the database).
import { spawn } from 'node:child_process';
import { buildIfStale, prepare, root } from './bootstrap.mjs';

prepare();
buildIfStale();

const port = process.env.PORT ?? '3000';
const children = [
  spawn('npx', ['next', 'start', '-p', port], { cwd: root, stdio: 'inherit' }),
  spawn('npx', ['tsx', 'workers/server/main.ts'], { cwd: root, stdio: 'inherit' }),
];
console.log(`\n✔ Keyout is starting on http://localhost:${port} (web + worker). Ctrl-C stops both.\n`);

let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 15_000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(() =>
    process.exit(code),
  );
};
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
for (const c of children) c.on('exit', (code) => stop(code ?? 1));
