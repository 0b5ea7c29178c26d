import type { ModelManifest } from '../../engine/models/manifest';

/** A model's bytes from our own origin (`baseUrl` + the manifest's file); never from a CDN. */
export async function fetchModel(baseUrl: string, manifest: ModelManifest): Promise<Uint8Array> {
  const url = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}${manifest.file}`;
  const res = await fetch(url);
  if (!res.ok)
    throw new Error(`Model ${manifest.id} could not be loaded from ${url} (HTTP ${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}
