import net from 'node:net';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free port in KEYOUT_TEST_PORTS (default 3100-3199), tried from a random offset. */
export async function freePort(): Promise<number> {
  const [lo, hi] = (process.env.KEYOUT_TEST_PORTS ?? '3100-3199').split('-').map(Number) as [number, number];
  const span = hi - lo + 1;
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = lo + ((offset + i) % span);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`No free port in ${lo}-${hi}`);
}
