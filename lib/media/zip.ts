import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { ZipPlan } from '../../engine/media/render-plan';

/**
 * Writes a bundle ZIP. Media members are stored, not deflated (they are compressed already);
 * the JSON manifest is deflated.
 */
export async function writeZip(file: string, plan: ZipPlan): Promise<void> {
  const zip = new yazl.ZipFile();
  const fixed = new Date('2000-01-01T00:00:00Z'); // stable bytes for the same content
  for (const f of plan.files) zip.addFile(f.file, f.name, { compress: false, mtime: fixed });
  if (plan.directory) {
    const names = (await fs.readdir(plan.directory)).sort();
    for (const name of names)
      zip.addFile(path.join(plan.directory, name), name, { compress: false, mtime: fixed });
  }
  if (plan.manifest) {
    zip.addBuffer(
      Buffer.from(JSON.stringify(plan.manifest.json, null, 2) + '\n'),
      plan.manifest.name,
      { mtime: fixed },
    );
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

export interface ZipListing {
  name: string;
  size: number;
}

/** Lists a ZIP's entries (central directory), rejecting unsafe names. */
export async function listZip(file: string): Promise<ZipListing[]> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  try {
    const out: ZipListing[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        const bad = yauzl.validateFileName(e.fileName);
        if (bad) return reject(new Error(`bad entry name ${e.fileName}: ${bad}`));
        out.push({ name: e.fileName, size: e.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
    return out;
  } finally {
    zip.close();
  }
}

/** Reads one entry into memory (for small members such as a manifest); its CRC is checked. */
export async function readZipEntry(file: string, name: string): Promise<Buffer | null> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  try {
    return await new Promise<Buffer | null>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName !== name) return zip.readEntry();
        zip
          .openReadStreamPromise(e)
          .then(async (stream) => {
            const chunks: Buffer[] = [];
            for await (const c of stream) chunks.push(c as Buffer);
            resolve(Buffer.concat(chunks));
          })
          .catch(reject);
      });
      zip.on('end', () => resolve(null));
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}
