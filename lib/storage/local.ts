import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isSafeKey } from './keys';
import { writeLimited } from './limited-write';
import { signature } from './signing';
import { ObjectChanged, type SignedUrlOptions, type Storage } from './types';

/** Files under `<root>/<key>`; signed URLs point at app/files/[...key] on `publicUrl`. */
export class LocalStorage implements Storage {
  constructor(
    readonly root: string,
    private readonly publicUrl: string,
  ) {}

  private resolve(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  private async tempBeside(file: string): Promise<string> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return `${file}.${randomUUID()}.part`;
  }

  async writeStream(
    key: string,
    body: Readable,
    { maxBytes }: { maxBytes: number },
  ): Promise<{ bytes: number }> {
    const file = this.resolve(key);
    const tmp = await this.tempBeside(file);
    const bytes = await writeLimited(body, tmp, maxBytes);
    await fs.rename(tmp, file);
    return { bytes };
  }

  async putFile(key: string, file: string, opts: { move?: boolean } = {}): Promise<void> {
    const dest = this.resolve(key);
    const tmp = await this.tempBeside(dest);
    if (opts.move) {
      try {
        await fs.rename(file, dest);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      }
    }
    await fs.copyFile(file, tmp);
    await fs.rename(tmp, dest);
    if (opts.move) await fs.rm(file, { force: true });
  }

  localFile(key: string): Promise<string> {
    return Promise.resolve(this.resolve(key));
  }

  openRead(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return Promise.resolve(createReadStream(this.resolve(key), range));
  }

  async stat(key: string): Promise<{ bytes: number; version: string } | null> {
    try {
      const st = await fs.stat(this.resolve(key));
      return st.isFile() ? { bytes: st.size, version: `${st.size}-${st.mtimeMs}` } : null;
    } catch {
      return null;
    }
  }

  async move(from: string, to: string, opts: { ifVersion?: string } = {}): Promise<void> {
    if (opts.ifVersion && (await this.stat(from))?.version !== opts.ifVersion)
      throw new ObjectChanged(`${from} changed`);
    const dest = this.resolve(to);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    await fs.rename(this.resolve(from), dest);
  }

  async delete(prefix: string): Promise<void> {
    await fs.rm(this.resolve(prefix), { recursive: true, force: true });
  }

  signedUrl(
    key: string,
    { method, expiresIn = 3600, filename }: SignedUrlOptions,
  ): Promise<string> {
    this.resolve(key);
    const urlPath = `/files/${key}`;
    const expires = Math.floor(Date.now() / 1000) + expiresIn;
    const url = new URL(urlPath, this.publicUrl);
    url.searchParams.set('expires', String(expires));
    if (filename) url.searchParams.set('filename', filename);
    url.searchParams.set('sig', signature({ method, path: urlPath, expires, filename }));
    return Promise.resolve(url.toString());
  }
}
