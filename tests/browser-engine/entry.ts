// Bundled by esbuild and loaded in Chromium: runs the engine with onnxruntime-web (WASM) on the
// frames the test serves and returns the alpha mattes, base64-encoded.
import { createVideoMatter, isApiModel, PEOPLE_TIERS, tierFor, withManifest } from '../../engine';
import { createOrtWebRuntime } from '../../workers/browser/ort-web-runtime';

declare global {
  interface Window {
    runEngine: (model: string, frames: number) => Promise<{ alphas: string[]; msPerFrame: number }>;
  }
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

window.runEngine = async (model, count) => {
  // An API model, or "people-rvm": the Studio's Robust Video Matting configuration.
  if (!isApiModel(model) && model !== 'people-rvm') throw new Error(`unknown model ${model}`);
  const res = await fetch('/frames.bin');
  const width = Number(res.headers.get('x-width'));
  const height = Number(res.headers.get('x-height'));
  const all = new Uint8Array(await res.arrayBuffer());
  const { tier, manifest } = isApiModel(model) ? tierFor(model) : withManifest(PEOPLE_TIERS.rvm);
  const matter = await createVideoMatter({
    runtime: createOrtWebRuntime({ modelBaseUrl: '/models/', wasmPaths: '/vendor/ort/' }),
    manifest,
    tier,
  });
  const alphas: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const data = new Uint8ClampedArray(all.buffer, i * width * height * 4, width * height * 4);
    for (const alpha of await matter.push({ data, width, height })) alphas.push(base64(alpha));
  }
  for (const alpha of await matter.flush()) alphas.push(base64(alpha));
  const msPerFrame = (performance.now() - t0) / count;
  await matter.release();
  return { alphas, msPerFrame };
};
