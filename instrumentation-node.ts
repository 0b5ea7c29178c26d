import { installNodeEdge } from './lib/http/node-edge';

/** The web process's start-up: the HTTP edge Next.js has no hook for. */
export function registerNode(): void {
  installNodeEdge();
}
