// `npm run dev|build|web`: the Next CLI with its telemetry off in its own process too (`next dev`
// records a session event from the parent process, which never loads next.config.ts). `build`
// stamps the build with its sources, as `npm start` does (bootstrap.mjs).
import { build, sh } from './bootstrap.mjs';

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === 'build') build();
else sh('npx', ['next', ...args]);
