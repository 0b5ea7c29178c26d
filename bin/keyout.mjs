#!/usr/bin/env node
// `npx keyout …`: runs the TypeScript CLI through tsx's loader (no build step for self-hosters),
// with one malloc arena, as the worker has (bin/one-arena.mjs).
import { runWithOneArena } from './one-arena.mjs';

await runWithOneArena(new URL('./keyout.ts', import.meta.url));
