import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { modelFilePath } from '../../lib/models/resolve';
import { QUIET_CHROMIUM } from '../support/chromium';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ORT_DIST = path.join(ROOT, 'node_modules/onnxruntime-web/dist');

export interface BrowserEngine {
  page: Page;
  close(): Promise<void>;
}

/**
 * Serves the bundled engine, onnxruntime-web's WASM files (/vendor/ort/), prepared models
 * (/models/<file>) and the test frames on loopback, and opens it in headless Debian Chromium.
 */
export async function openBrowserEngine(frames: {
  data: Uint8Array;
  width: number;
  height: number;
}): Promise<BrowserEngine> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-browser-engine-'));
  await build({
    entryPoints: [path.join(import.meta.dirname, 'entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: path.join(dir, 'bundle.js'),
    logLevel: 'error',
  });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><script type="module" src="/bundle.js"></script>',
  );
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.mjs': 'text/javascript',
    '.wasm': 'application/wasm',
    '.html': 'text/html',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let file: string | null = null;
    try {
      if (url.pathname === '/frames.bin') {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'x-width': String(frames.width),
          'x-height': String(frames.height),
        });
        res.end(frames.data);
        return;
      }
      if (url.pathname === '/' || url.pathname === '/index.html')
        file = path.join(dir, 'index.html');
      else if (url.pathname === '/bundle.js') file = path.join(dir, 'bundle.js');
      else if (url.pathname.startsWith('/vendor/ort/'))
        file = path.join(ORT_DIST, path.basename(url.pathname));
      else if (url.pathname.startsWith('/models/'))
        file = modelFilePath(path.basename(url.pathname));
    } catch {
      file = null;
    }
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: QUIET_CHROMIUM,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => typeof window.runEngine === 'function');
  return {
    page,
    async close() {
      await context.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
