import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvForTests } from '../env';
import { isSafeKey, jobIdOfUploadTarget, storageKeys } from './keys';
import { LocalStorage } from './local';
import { verifySignature } from './signing';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-storage-'));
const store = new LocalStorage(path.join(dataDir, 'files'), 'https://keyout.example.com');

beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  delete process.env.KEYOUT_SECRET;
  resetEnvForTests();
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const paramsOf = (url: string) => {
  const u = new URL(url);
  return {
    path: u.pathname,
    expires: Number(u.searchParams.get('expires')),
    filename: u.searchParams.get('filename'),
    sig: u.searchParams.get('sig'),
  };
};

describe('LocalStorage', () => {
  it('streams in under a byte cap and removes what it started when the cap is passed', async () => {
    const key = 'jobs/a/outputs/x.webm';
    expect(
      await store.writeStream(key, Readable.from([Buffer.alloc(10), Buffer.alloc(5)]), {
        maxBytes: 15,
      }),
    ).toEqual({ bytes: 15 });
    expect(await store.stat(key)).toMatchObject({ bytes: 15 });
    await expect(
      store.writeStream('jobs/a/big.bin', Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), {
        maxBytes: 15,
      }),
    ).rejects.toMatchObject({
      kind: 'too_large',
    });
    expect(fs.readdirSync(path.join(dataDir, 'files/jobs/a'))).toEqual(['outputs']);
    await store.delete('jobs/a');
    expect(await store.stat(key)).toBeNull();
  });

  it('moves or copies local files in', async () => {
    const src = path.join(dataDir, 'src.bin');
    fs.writeFileSync(src, 'abc');
    await store.putFile('jobs/b/thumb.jpg', src);
    expect(fs.existsSync(src)).toBe(true);
    await store.putFile('jobs/b/thumb.png', src, { move: true });
    expect(fs.existsSync(src)).toBe(false);
    expect(fs.readFileSync(await store.localFile('jobs/b/thumb.png'), 'utf8')).toBe('abc');
  });

  it('signs absolute URLs bound to method, path, expiry and download name', async () => {
    const url = await store.signedUrl('jobs/c/outputs/o.webm', {
      method: 'GET',
      filename: 'talk-keyout.webm',
    });
    expect(url.startsWith('https://keyout.example.com/files/jobs/c/outputs/o.webm?')).toBe(true);
    const p = paramsOf(url);
    expect(p.expires - Date.now() / 1000).toBeGreaterThan(3590);
    expect(verifySignature({ method: 'GET', ...p }, p.sig)).toBe('ok');
    expect(verifySignature({ method: 'PUT', ...p }, p.sig)).toBe('invalid');
    expect(verifySignature({ method: 'GET', ...p, path: '/files/jobs/c/source.mp4' }, p.sig)).toBe(
      'invalid',
    );
    expect(verifySignature({ method: 'GET', ...p, expires: p.expires + 1 }, p.sig)).toBe('invalid');
    expect(verifySignature({ method: 'GET', ...p, filename: 'other.webm' }, p.sig)).toBe('invalid');
    const old = paramsOf(await store.signedUrl('jobs/c/x.mp4', { method: 'GET', expiresIn: -1 }));
    expect(verifySignature({ method: 'GET', ...old }, old.sig)).toBe('expired');
  });

  it('refuses keys that could leave the storage root', () => {
    for (const key of ['../etc/passwd', 'jobs/../../x', '/abs', 'jobs//x', 'jobs/./x', 'a\\b'])
      expect(isSafeKey(key)).toBe(false);
    expect(isSafeKey(storageKeys.mask('0b6c1a5e-1111-4222-8333-944455556666', 2))).toBe(true);
    expect(() => store.signedUrl('../x', { method: 'GET' })).toThrow();
    expect(
      jobIdOfUploadTarget(storageKeys.uploadTarget('0b6c1a5e-1111-4222-8333-944455556666')),
    ).toBe('0b6c1a5e-1111-4222-8333-944455556666');
    expect(jobIdOfUploadTarget('jobs/0b6c1a5e-1111-4222-8333-944455556666/source.mp4')).toBeNull();
  });
});
