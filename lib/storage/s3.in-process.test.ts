import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Unavailable, testS3, type TestS3 } from '../../scripts/lib-stack/test-swift';
import { tempDir } from '../../tests/support/temp-dir';
import { S3Storage } from './s3';
import { ObjectChanged } from './types';

const unavailable = s3Unavailable();
if (unavailable) console.warn(`Skipping the S3 storage tests: ${unavailable}`);

describe.skipIf(unavailable)(
  'S3Storage (real S3-compatible store: OpenStack Swift + s3api)',
  () => {
    let s3: TestS3;
    let store: S3Storage;
    let bucket: string;
    const dir = tempDir('s3');
    const objects = async () => {
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: true,
        credentials: s3,
      });
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      client.destroy();
      return (page.Contents ?? []).map((o) => o.Key).sort();
    };

    beforeAll(async () => {
      s3 = await testS3();
      bucket = await s3.freshBucket();
      store = new S3Storage({
        bucket,
        prefix: 'tenant/',
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: s3,
      });
    }, 120_000);
    afterAll(() => s3?.stop());

    it(
      'streams in under a byte cap; past the cap the upload is ' +
        'abandoned and nothing is stored',
      async () => {
        expect(
          await store.writeStream(
            'jobs/a/x.bin',
            Readable.from([Buffer.alloc(10), Buffer.alloc(5)]),
            { maxBytes: 15 },
          ),
        ).toEqual({ bytes: 15 });
        expect(await store.stat('jobs/a/x.bin')).toMatchObject({ bytes: 15 });
        await expect(
          store.writeStream('jobs/a/big.bin', Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), {
            maxBytes: 15,
          }),
        ).rejects.toMatchObject({
          kind: 'too_large',
        });
        expect(await store.stat('jobs/a/big.bin')).toBeNull();
        expect(await objects()).toEqual(['tenant/jobs/a/x.bin']);
      },
    );

    it('stores a large file in parts and reads back any byte range of it', async () => {
      const big = Buffer.from(randomBytes(17 * 1024 * 1024));
      const file = path.join(dir, 'big.bin');
      fs.writeFileSync(file, big);
      await store.putFile('jobs/b/outputs/o.webm', file, { move: true });
      expect(fs.existsSync(file)).toBe(false);
      expect(await store.stat('jobs/b/outputs/o.webm')).toMatchObject({ bytes: big.length });
      const start = 8 * 1024 * 1024 - 3;
      const chunks: Buffer[] = [];
      for await (const c of await store.openRead('jobs/b/outputs/o.webm', {
        start,
        end: start + 9,
      }))
        chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(big.subarray(start, start + 10))).toBe(true);
      const scratch = fs.mkdtempSync(path.join(dir, 'scratch-'));
      const local = await store.localFile('jobs/b/outputs/o.webm', scratch);
      expect(path.dirname(local)).toBe(scratch);
      expect(fs.readFileSync(local).equals(big)).toBe(true);
    });

    it(
      'moves an object only in the version looked at, and deletes a ' +
        'key with everything under it but nothing beside it',
      async () => {
        for (const key of [
          'jobs/c/source',
          'jobs/c/outputs/1.gif',
          'jobs/c/outputs/1.poster.png',
          'jobs/cc/source.mp4',
        ]) {
          await store.writeStream(key, Readable.from([Buffer.from(key)]), { maxBytes: 100 });
        }
        const seen = (await store.stat('jobs/c/source'))!.version;
        await store.writeStream('jobs/c/source', Readable.from([Buffer.from('replaced')]), {
          maxBytes: 100,
        });
        await expect(
          store.move('jobs/c/source', 'jobs/c/source.mp4', { ifVersion: seen }),
        ).rejects.toBeInstanceOf(ObjectChanged);
        await store.writeStream('jobs/c/source', Readable.from([Buffer.from('jobs/c/source')]), {
          maxBytes: 100,
        });
        await store.move('jobs/c/source', 'jobs/c/source.mp4', {
          ifVersion: (await store.stat('jobs/c/source'))!.version,
        });
        expect(await store.stat('jobs/c/source')).toBeNull();
        expect(await text(await store.openRead('jobs/c/source.mp4'))).toBe('jobs/c/source');
        await store.delete('jobs/c');
        expect(await objects()).toEqual(
          expect.not.arrayContaining([expect.stringMatching(/^tenant\/jobs\/c\//)]),
        );
        expect(await objects()).toContain('tenant/jobs/cc/source.mp4');
      },
    );

    it(
      'presigns a GET (1 h) that serves Range and the download name, ' +
        'and a PUT bound to its Content-Type',
      async () => {
        await store.writeStream(
          'jobs/d/outputs/o.webm',
          Readable.from([Buffer.from('0123456789')]),
          {
            maxBytes: 100,
          },
        );
        const get = await store.signedUrl('jobs/d/outputs/o.webm', {
          method: 'GET',
          filename: 'talk-keyout.webm',
        });
        expect(new URL(get).searchParams.get('X-Amz-Expires')).toBe('3600');
        expect(new URL(get).pathname.endsWith('/o.webm')).toBe(true);
        const ranged = await fetch(get, { headers: { Range: 'bytes=2-5' } });
        expect(ranged.status).toBe(206);
        expect(await ranged.text()).toBe('2345');
        expect(ranged.headers.get('content-disposition')).toContain('talk-keyout.webm');

        const put = await store.signedUrl('jobs/d/source', {
          method: 'PUT',
          contentType: 'video/mp4',
        });
        const putAs = async (contentType: string, body: string) =>
          (await fetch(put, { method: 'PUT', headers: { 'Content-Type': contentType }, body }))
            .status;
        expect(await putAs('video/quicktime', 'x')).toBe(403);
        expect(await putAs('video/mp4', 'video')).toBe(200);
        expect(await store.stat('jobs/d/source')).toMatchObject({ bytes: 5 });
        const expired = await store.signedUrl('jobs/d/outputs/o.webm', {
          method: 'GET',
          expiresIn: 1,
        });
        await new Promise((r) => setTimeout(r, 2100));
        expect((await fetch(expired)).status).toBe(403);
      },
    );
  },
);
