#!/usr/bin/env node
// `npm run worker`: one server worker (workers/server/main.ts), with one malloc arena
// (bin/one-arena.mjs). `npm start` and the integration tests start it the same way.
import { runWithOneArena } from './one-arena.mjs';

await runWithOneArena(new URL('../workers/server/main.ts', import.meta.url));
