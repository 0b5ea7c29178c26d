/**
 * Runs once when the web server starts (Next.js instrumentation). The Node-only work lives in
 * instrumentation-node.ts so the edge bundle of this file stays free of Node modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs')
    (await import('./instrumentation-node')).registerNode();
}
