import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './ports';
import { startSwift, swiftUnavailable } from './swift';

/**
 * An S3-compatible store for tests: KEYOUT_TEST_S3 (JSON: endpoint, region, accessKeyId,
 * secretAccessKey; CI and `npm run test:scale` set it), otherwise OpenStack Swift of our own.
 * Each `bucket()` is a fresh bucket.
 */
export interface TestS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  freshBucket(): Promise<string>;
  stop(): Promise<void>;
}

export function s3Unavailable(): string | null {
  return process.env.KEYOUT_TEST_S3 ? null : swiftUnavailable();
}

export async function testS3(): Promise<TestS3> {
  const fresh = () => `keyout-t-${randomBytes(6).toString('hex')}`;
  if (process.env.KEYOUT_TEST_S3) {
    const given = JSON.parse(process.env.KEYOUT_TEST_S3) as Omit<TestS3, 'freshBucket' | 'stop'>;
    const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
    return {
      ...given,
      async freshBucket() {
        const s3 = new S3Client({
          endpoint: given.endpoint,
          region: given.region,
          forcePathStyle: true,
          credentials: given,
        });
        const name = fresh();
        await s3.send(new CreateBucketCommand({ Bucket: name }));
        s3.destroy();
        return name;
      },
      stop: async () => {},
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-swift-'));
  // Swift's proxy, three storage servers and memcached take five consecutive ports.
  const swift = await startSwift({ dir, port: await freePorts(5) });
  return {
    endpoint: swift.endpoint,
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    async freshBucket() {
      const name = fresh();
      await swift.bucket(name);
      return name;
    },
    async stop() {
      await swift.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
