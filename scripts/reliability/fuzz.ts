import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { uploadedJob } from '../../tests/integration/helpers';
import { createAccount, isSpecError, reliabilityStack, testClip, type Part } from './common';

const API_PATH = /^\/(api\/)?v1(\/|$)|^\/files\//;

/** A small seeded generator, so a failing request can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

function send(port: number, r: Sent, localAddress: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, localAddress },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text,
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
      },
    );
    req.on('error', (e) => resolve({ status: 0, text: e.message, contentType: '' }));
    req.end(r.body);
  });
}

/** Bytes on a raw socket; the status and body of what comes back. */
function sendRaw(port: number, bytes: string): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    const done = () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const head = text.slice(0, text.indexOf('\r\n\r\n'));
      let body = text.slice(text.indexOf('\r\n\r\n') + 4);
      if (/transfer-encoding: chunked/i.test(head))
        body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
      resolve({
        status,
        text: body,
        contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '',
      });
    };
    socket.on('end', done);
    socket.on('error', done);
    socket.write(bytes);
    setTimeout(() => socket.end(), 1500);
  });
}

type Rng = ReturnType<typeof prng>;

/** Values of every wrong kind, dropped into the fields the API reads. */
const HOSTILE_VALUES = [
  null,
  0,
  -1,
  1e308,
  -1e308,
  'x',
  '',
  '\u0000',
  '\ud800',
  'é'.repeat(300),
  true,
  [],
  {},
  [[[[[]]]]],
  { $gt: '' },
  'https://127.0.0.1:1/x',
  'http://[::1]:1/',
  'file:///etc/passwd',
  '#GGGGGG',
  'service-original',
  'videobgremover-light',
];

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=zz',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  '',
];

const METHODS = [
  'GET',
  'POST',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
];

/**
 * `count` requests made of broken parts: wrong methods and paths, malformed JSON, hostile
 * values, wrong content types, bad and missing keys, oversized headers and bodies, requests
 * Node's parser refuses. None may be answered 5xx, and every error body must be the spec's.
 */
export function fuzz(count: number, seed = 28): Part {
  return {
    name: `${count} fuzzed requests`,
    async run() {
      const { stack, db } = await reliabilityStack({}, false);
      try {
        const { key } = await createAccount(stack, 1000);
        const jobId = await uploadedJob(stack, key, await testClip(stack.dataDir, 'clip.mp4', 1));
        const { problems, statuses } = await fuzzRequests(stack.port, key, jobId, count, seed);
        const alive =
          (
            await send(
              stack.port,
              { method: 'GET', path: '/v1/credits', headers: { 'X-Api-Key': key } },
              '127.0.0.1',
            )
          ).status === 200;
        if (!alive) problems.push('the server no longer answers');
        return {
          passed: problems.length === 0,
          figures: fuzzFigures(count, seed, statuses, problems),
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}

/**
 * Sends the `count` requests, every tenth as raw bytes, and judges each answer. The order of
 * draws from the seeded generator is what makes a seed replay the same requests.
 */
async function fuzzRequests(
  port: number,
  key: string,
  jobId: string,
  count: number,
  seed: number,
): Promise<{ problems: string[]; statuses: Map<number, number> }> {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const rng = prng(seed);
  const ids = [
    jobId,
    randomUUID(),
    'not-a-uuid',
    '../../etc/passwd',
    '%2e%2e%2f',
    'x'.repeat(3000),
    '00000000-0000-0000-0000-000000000000',
  ];
  const raws = rawRequests(key);
  for (let i = 0; i < count; i++) {
    let answer: Answer;
    let what: string;
    let api = true;
    if (i % 10 === 9) {
      const raw = rng.pick(raws);
      what = `raw ${JSON.stringify(raw.slice(0, 60))}`;
      answer = await sendRaw(port, raw);
    } else {
      const { req, ct } = randomRequest(rng, key, ids, jobId);
      const { method, body } = req;
      // Dot segments resolve before routing: /v1/jobs/../../x is the page /x (HTML by design).
      api = API_PATH.test(new URL(req.path.replace(/\/{2,}/g, '/'), 'http://x').pathname);
      what =
        `${method} ${req.path.slice(0, 80)} ${ct} ` +
        `${typeof body === 'string' ? body.slice(0, 60) : body ? '<bytes>' : ''}`;
      // Keys and no-keys from many addresses, so the per-address throttle is met but not
      // everywhere.
      answer = await send(port, req, `127.0.0.${2 + (i % 50)}`);
      if (method === 'HEAD' || answer.status === 204) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status >= 500 || answer.status === 0)
          problems.push(`${what} → ${answer.status}`);
        continue;
      }
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const problem = answerProblem(what, answer, api);
    if (problem) problems.push(problem);
  }
  return { problems, statuses };
}

/**
 * What is wrong with an answer, if anything: a 5xx or none, or (on the API) not the spec's shape.
 */
function answerProblem(what: string, answer: Answer, api: boolean): string | null {
  if (answer.status >= 500 || answer.status === 0)
    return `${what} → ${answer.status} ${answer.text.slice(0, 200)}`;
  if (!api) return null;
  if (answer.status >= 400 && !isSpecError(answer.text))
    return (
      `${what} → ${answer.status} with a body that is not the spec's: ` +
      `${answer.text.slice(0, 200)}`
    );
  if (answer.status >= 300 && answer.status < 400)
    return `${what} → a ${answer.status} redirect instead of an answer`;
  if (answer.status < 300 && !answer.contentType.includes('application/json'))
    return `${what} → ${answer.status} without a JSON body`;
  return null;
}

/** The part's line of figures: the count of 5xx and misshapen answers, and every status seen. */
function fuzzFigures(
  count: number,
  seed: number,
  statuses: Map<number, number>,
  problems: string[],
): string {
  const fiveXX = [...statuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
  const histogram = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s}×${c}`)
    .join(' ');
  return (
    `${count} requests to the API (seed ${seed}): ${fiveXX} 5xx, ` +
    `${problems.length} answers not in the spec's shape; statuses ` +
    `${histogram}`
  );
}

/** One HTTP request of random method, body, key and content type (`ct`, '' for none). */
function randomRequest(
  rng: Rng,
  key: string,
  ids: string[],
  jobId: string,
): { req: Sent; ct: string } {
  const { next, pick } = rng;
  const method = pick(METHODS);
  const body = ['GET', 'HEAD'].includes(method) ? undefined : randomBody(pick);
  const headers: Record<string, string> = {};
  const keyChoice = next();
  if (keyChoice < 0.7) headers['X-Api-Key'] = key;
  else if (keyChoice < 0.8) headers['X-Api-Key'] = `ko_${'z'.repeat(32)}`;
  else if (keyChoice < 0.9) headers.Authorization = `Bearer ${key}`;
  const ct = pick(CONTENT_TYPES);
  if (ct) headers['Content-Type'] = ct;
  return { req: { method, path: randomPath(pick, ids, jobId), headers, body }, ct };
}

/** The API surface: the paths clients call and the signed file URLs (pages answer HTML). */
function randomPath(pick: Rng['pick'], ids: string[], jobId: string): string {
  const id = pick(ids);
  const prefix = pick(['/v1', '/api/v1', '/v1/', '//v1', '/api//v1']);
  return pick([
    `${prefix}/jobs`,
    `${prefix}/jobs/`,
    `${prefix}/jobs/${id}`,
    `${prefix}/jobs/${id}/start`,
    `${prefix}/jobs/${id}/status`,
    `${prefix}/credits`,
    `${prefix}/openapi`,
    `${prefix}/webhooks/deliveries?video_id=${id}`,
    `${prefix}/webhooks/deliveries`,
    `${prefix}/jobs/${id}/exports`,
    `${prefix}`,
    `${prefix}/%zz`,
    `${prefix}/jobs/${id}/status?x=%ff`,
    `/files/jobs/${jobId}/source?sig=x&expires=1`,
    `/files/jobs/${id}/../../secret`,
    `/files/jobs/${id}/thumb.jpg`,
    `/files/%00`,
    `${prefix}/jobs?${'a=1&'.repeat(500)}`,
  ]);
}

/**
 * A broken body: malformed or huge JSON, bad bytes, or the API's own fields holding hostile
 * values. Every candidate is drawn before one is picked, so the draws per call stay the same.
 */
function randomBody(pick: Rng['pick']): string | Buffer | undefined {
  const values = HOSTILE_VALUES;
  return pick([
    undefined,
    '',
    '{',
    'null',
    '[]',
    '"just a string"',
    '1e308',
    '{"a":'.repeat(2000),
    '['.repeat(50_000) + ']'.repeat(50_000),
    Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    JSON.stringify({
      filename: pick(values),
      content_type: pick(values),
      video_url: pick(values),
    }),
    JSON.stringify({
      model: pick(values),
      format: pick(values),
      webhook_url: pick(values),
    }),
    JSON.stringify({
      background: {
        type: pick(['color', 'transparent', 'composition', 'blur', 'lottie', 42]),
        color: pick(values),
        transparent_format: pick(values),
      },
    }),
    JSON.stringify({
      background: {
        type: 'transparent',
        transform: {
          crop: { x: pick(values), y: 0, width: pick(values), height: 10 },
          fps: pick(values),
          max_width: pick(values),
        },
      },
    }),
    JSON.stringify({
      background: { type: 'transparent' },
      exports: Array.from({ length: 60 }, (_, i) => ({
        format: 'webm_vp9',
        sizes: [i + 16],
      })),
    }),
    JSON.stringify({
      background: {
        type: 'composition',
        composition: { background_url: pick(values), template: pick(values) },
      },
    }),
    JSON.stringify(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))),
    'x'.repeat(1_200_000),
  ]);
}

/**
 * Raw bytes Node's HTTP parser or the routes must refuse: bad versions, smuggling, junk, a cut-off
 * upload.
 */
function rawRequests(key: string): string[] {
  return [
    'GARBAGE\r\n\r\n',
    'GET /v1/credits HTTP/9.9\r\nHost: x\r\n\r\n',
    'GET /v1/credits HTTP/1.1\r\nHost: x\r\nX-Api-Key: ' +
      `${key}\r\nX-Junk: ${'j'.repeat(20_000)}\r\n\r\n`,
    'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: ' +
      '10\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
    'GET /v1/jobs/%zz HTTP/1.1\r\nHost: x\r\n\r\n',
    'BREW /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n',
    'POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Api-Key: ' +
      `${key}\r\nContent-Type: multipart/form-data; ` +
      'boundary=b\r\nContent-Length: ' +
      '500\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; ' +
      'filename="a.mp4"\r\n\r\npartial',
  ];
}
