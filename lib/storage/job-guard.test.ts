import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardJobWrites } from './job-guard';
import { LocalStorage } from './local';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-guard-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const local = new LocalStorage(path.join(root, 'files'), 'http://localhost:3000');
const live = new Set<string>();
const store = guardJobWrites(local, (id) => Promise.resolve(live.has(id)));
const JOB = '0b6c1a5e-1111-4222-8333-944455556666';
const scratch = (name: string) => {
  const f = path.join(root, name);
  fs.writeFileSync(f, 'bytes');
  return f;
};

describe('guardJobWrites', () => {
  it('writes a job file while the job exists', async () => {
    live.add(JOB);
    await store.putFile(`jobs/${JOB}/thumb.jpg`, scratch('a'), { move: true });
    expect(await store.stat(`jobs/${JOB}/thumb.jpg`)).toMatchObject({ bytes: 5 });
  });

  it('refuses a write for a deleted job and leaves nothing behind', async () => {
    live.delete(JOB);
    await store.delete(`jobs/${JOB}`);
    const file = scratch('b');
    await expect(
      store.putFile(`jobs/${JOB}/mask-v1.mkv`, file, { move: true }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    expect(fs.existsSync(path.join(root, 'files', 'jobs', JOB))).toBe(false);
    expect(fs.existsSync(file)).toBe(true); // the caller's own scratch file is its to remove
  });

  it('removes what it wrote when the job was deleted during the write', async () => {
    let checks = 0;
    const racing = guardJobWrites(local, () => Promise.resolve(++checks === 1));
    await expect(
      racing.putFile(`jobs/${JOB}/outputs/o.webm`, scratch('c'), { move: true }),
    ).rejects.toMatchObject({ kind: 'not_found' });
    expect(fs.existsSync(path.join(root, 'files', 'jobs', JOB))).toBe(false);
  });

  it('leaves keys outside jobs/ alone', async () => {
    await store.putFile('exports/x.zip', scratch('d'));
    expect(await store.stat('exports/x.zip')).toMatchObject({ bytes: 5 });
  });
});
