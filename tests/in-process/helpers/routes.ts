import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * The app's API route handlers (app/v1, app/api/v1, app/files) served by a plain Node HTTP server
 * inside the test process: the same handlers `next start` serves, matched by the same folder
 * conventions ([param], [...rest], (group)), without Next.js around them. What only Next or
 * the node edge adds (page rendering, proxy.ts, lib/http/node-edge.ts) is tested in the
 * integration tier against a real server.
 */
const APP = path.resolve(import.meta.dirname, '../../../app');
const SERVED = ['v1', 'api/v1', 'files'];

interface Route {
  pattern: RegExp;
  params: { name: string; rest: boolean }[];
  file: string;
  /** Fewer dynamic segments first, a catch-all last: the most specific route wins, as in Next. */
  rank: number;
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(p);
    return e.name === 'route.ts' ? [p] : [];
  });
}

function toRoute(file: string): Route {
  const segments = path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .filter((s) => !/^\(.*\)$/.test(s));
  const params: Route['params'] = [];
  let rank = 0;
  const parts = segments.map((s) => {
    const m = /^\[(\.\.\.)?(\w+)\]$/.exec(s);
    if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    params.push({ name: m[2]!, rest: Boolean(m[1]) });
    rank += m[1] ? 100 : 1;
    return m[1] ? '(.+)' : '([^/]+)';
  });
  return { pattern: new RegExp(`^/${parts.join('/')}/?$`), params, file, rank };
}

const ROUTES: Route[] = SERVED.flatMap((d) => routeFiles(path.join(APP, d)))
  .map(toRoute)
  .sort((a, b) => a.rank - b.rank);

function match(
  pathname: string,
): { route: Route; params: Record<string, string | string[]> } | null {
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string | string[]> = {};
    route.params.forEach((p, i) => {
      const v = decodeURIComponent(m[i + 1]!);
      params[p.name] = p.rest ? v.split('/') : v;
    });
    return { route, params };
  }
  return null;
}

type Handler = (
  req: Request,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response> | Response;

function toRequest(req: http.IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers))
    for (const one of [v ?? []].flat()) headers.append(k, one);
  const bodyless = req.method === 'GET' || req.method === 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: bodyless ? undefined : (Readable.toWeb(req) as ReadableStream),
    duplex: 'half',
  } as RequestInit);
}

async function send(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  await new Promise<void>((resolve, reject) =>
    Readable.fromWeb(response.body as never)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve),
  );
}

/** Serves the API route handlers on 127.0.0.1:`port`; resolves once it listens. */
export async function serveRoutes(port: number): Promise<http.Server> {
  const origin = `http://127.0.0.1:${port}`;
  const server = http.createServer((req, res) => {
    const found = match(new URL(req.url ?? '/', origin).pathname);
    const answer = async (): Promise<Response> => {
      if (!found) return new Response('Not found', { status: 404 });
      const mod = (await import(found.route.file)) as Record<string, Handler | undefined>;
      const handler = mod[req.method ?? 'GET'];
      if (!handler) return new Response(null, { status: 405 });
      return handler(toRequest(req, origin), { params: Promise.resolve(found.params) });
    };
    answer()
      .then((response) => send(res, response))
      .catch((e: unknown) => {
        console.error('[routes]', e);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  // The worker's frames hold this process's event loop for seconds at a time: an idle
  // connection timed out meanwhile would be closed just as a client reuses it.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
