import fs from 'node:fs';
import path from 'node:path';
import type { Stack } from './stack';

/**
 * What a stack keeps, looked at from outside whichever kind it is: stored objects (files under
 * DATA_DIR, or the S3 bucket) and queued work (QueueJob rows, or BullMQ's queues), so one test
 * can assert the same thing on both stacks.
 */

/**
 * Where the stack's signed file URLs point: its own /files route, or the S3 bucket (path style).
 */
export function storedUrlPrefix(stack: Stack): string {
  return stack.kind === 'embedded'
    ? `${stack.baseUrl}/files/`
    : `${stack.env.S3_ENDPOINT!.replace(/\/$/, '')}/${stack.env.S3_BUCKET}/`;
}

/** A client of the scale-out stack's bucket, for looking at what it keeps. */
async function bucket<T>(
  stack: Stack,
  read: (s3: import('@aws-sdk/client-s3').S3Client, name: string) => Promise<T>,
): Promise<T> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const e = stack.env;
  const s3 = new S3Client({
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! },
  });
  try {
    return await read(s3, e.S3_BUCKET!);
  } finally {
    s3.destroy();
  }
}

/** Every stored key under `jobs/<jobId>/`. */
export async function storedKeys(stack: Stack, jobId: string): Promise<string[]> {
  if (stack.kind === 'embedded') {
    const root = path.join(stack.dataDir, 'files', 'jobs', jobId);
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(path.join(stack.dataDir, 'files'), path.join(d.parentPath, d.name)))
      .sort();
  }
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  return bucket(stack, async (s3, name) => {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: name, Prefix: `jobs/${jobId}/` }),
    );
    return (page.Contents ?? []).map((o) => o.Key!).sort();
  });
}

/** The bytes stored under `key`. */
export async function storedBytes(stack: Stack, key: string): Promise<Buffer> {
  if (stack.kind === 'embedded') return fs.readFileSync(path.join(stack.dataDir, 'files', key));
  const { GetObjectCommand } = await import('@aws-sdk/client-s3');
  return bucket(stack, async (s3, name) =>
    Buffer.from(
      await (
        await s3.send(new GetObjectCommand({ Bucket: name, Key: key }))
      ).Body!.transformToByteArray(),
    ),
  );
}

/** Queued, running or finished units of work of `kind` whose payload names `id`. */
export async function enqueued(stack: Stack, kind: string, id: string): Promise<number> {
  if (stack.kind === 'embedded') {
    const { stackDb } = await import('./db');
    const prisma = await stackDb(stack);
    return prisma.queueJob.count({ where: { queue: kind, payloadJson: { contains: id } } });
  }
  const { Queue } = await import('bullmq');
  const { BULLMQ_PREFIX } = await import('../../../lib/queue/bullmq-provider');
  const { Redis } = await import('ioredis');
  const connection = new Redis(stack.env.REDIS_URL!, { maxRetriesPerRequest: null });
  const queue = new Queue(kind, { connection, prefix: BULLMQ_PREFIX });
  try {
    const jobs = await queue.getJobs([
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'completed',
      'failed',
    ]);
    return jobs.filter((j) => JSON.stringify(j.data).includes(id)).length;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
