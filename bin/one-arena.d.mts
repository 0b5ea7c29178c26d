/** The environment with glibc's malloc as the worker runs it (one-arena.mjs). */
export function oneArenaEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function runWithOneArena(entry: URL): Promise<void>;
