import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './index';

/**
 * Scratch files for sources on their way in (uploads, video_url downloads), on the storage
 * filesystem so a finished one is renamed into place. The name says who writes it:
 * `<job>.<pid>.<host>.<random>.incoming`, so a sweep can tell a live upload from one whose
 * process was killed (kill -9 left a 92 MB file that no restart removed).
 */
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
const SUFFIX = '.incoming';
/** An upload that has written nothing for this long is dead (Node ends idle requests sooner). */
export const STALE_INCOMING_MS = 15 * 60_000;

export async function incomingFile(jobId: string): Promise<string> {
  await fs.mkdir(tempDir(), { recursive: true });
  return path.join(
    tempDir(),
    `${jobId}.${process.pid}.${HOST}.${randomUUID().slice(0, 8)}${SUFFIX}`,
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether no live upload owns this incoming file: its writer is gone, or it stopped growing. */
function orphaned(name: string, mtimeMs: number, now: number): boolean {
  if (now - mtimeMs > STALE_INCOMING_MS) return true;
  const [, pid, host] = name.slice(0, -SUFFIX.length).split('.');
  return host === HOST && Number.isInteger(Number(pid)) && !alive(Number(pid));
}

/** Removes incoming files no live upload owns; returns their names. */
export async function sweepIncoming(now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = (await fs.readdir(tempDir())).filter((n) => n.endsWith(SUFFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(tempDir(), name);
    const st = await fs.stat(file).catch(() => null);
    if (!st || !orphaned(name, st.mtimeMs, now)) continue;
    await fs.rm(file, { force: true });
    removed.push(name);
  }
  return removed;
}
