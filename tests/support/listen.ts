import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on a port the OS picks and returns it. A fixed port collided with a stack's ports when
 * the integration and scale tiers ran side by side (EADDRINUSE, then a hook that never returned).
 */
export function listenOnFreePort(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
    // A file whose tests are all skipped never runs its afterAll: the server must not keep the
    // process alive.
    server.unref();
  });
}
