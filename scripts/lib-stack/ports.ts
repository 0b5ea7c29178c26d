import net from 'node:net';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free ports in KEYOUT_TEST_PORTS (default 3100-3199), tried
 * from a random offset so concurrent runs rarely collide.
 */
export async function freePorts(count: number): Promise<number> {
  const [lo, hi] = (process.env.KEYOUT_TEST_PORTS ?? '3100-3199').split('-').map(Number) as [
    number,
    number,
  ];
  const span = hi - lo + 2 - count;
  const offset = Math.floor(Math.random() * span);
  search: for (let i = 0; i < span; i++) {
    const first = lo + ((offset + i) % span);
    for (let p = first; p < first + count; p++) if (!(await portIsFree(p))) continue search;
    return first;
  }
  throw new Error(`No ${count} consecutive free ports in ${lo}-${hi}`);
}

export const freePort = () => freePorts(1);
