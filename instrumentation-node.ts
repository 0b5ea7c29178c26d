import { installNodeEdge } from './lib/http/node-edge';
import { publicUrlLine } from './lib/http/public-origin';
import { sweepIncoming } from './lib/storage/incoming';

const SWEEP_EVERY_MS = 10 * 60_000;

function sweep(): void {
  sweepIncoming().then(
    (removed) => {
      if (removed.length)
        console.log(
          `[web] removed ${removed.length} abandoned upload file(s): ${removed.join(', ')}`,
        );
    },
    (e: unknown) => console.error('[web] sweeping abandoned upload files failed', e),
  );
}

/**
 * The web process's start-up: where signed URLs point, the HTTP edge Next.js has no hook for,
 * and the sweep of upload files a killed process left behind (now, and every 10 minutes).
 */
export function registerNode(): void {
  console.log(publicUrlLine());
  installNodeEdge();
  sweep();
  setInterval(sweep, SWEEP_EVERY_MS).unref();
}
