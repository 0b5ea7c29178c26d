import { vi } from 'vitest';

// The service tier's models: the stand-in runtime, wherever the worker asks for the server's.
vi.mock('../../lib/inference/server-runtime', async () => {
  const { standInRuntime } = await import('./stand-in-runtime');
  const runtime = standInRuntime();
  return { serverRuntime: () => Promise.resolve(runtime) };
});
