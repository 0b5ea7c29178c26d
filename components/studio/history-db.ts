import { type DBSchema, openDB } from 'idb';

/** The Studio's local history: results stay in this browser's IndexedDB, never on a server. */
export interface StudioRecord {
  id: string;
  name: string;
  createdAt: number;
  model: string;
  backend: string;
  frames: number;
  width: number;
  height: number;
  durationSeconds: number;
  totalMs: number;
  webm: Blob;
  thumbnail: Blob;
}

interface StudioDb extends DBSchema {
  runs: { key: string; value: StudioRecord; indexes: { createdAt: number } };
}

const db = () =>
  openDB<StudioDb>('keyout-studio', 1, {
    upgrade(d) {
      d.createObjectStore('runs', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
    },
  });

export async function saveRun(record: StudioRecord): Promise<void> {
  await (await db()).put('runs', record);
}

/** Newest first. */
export async function listRuns(): Promise<StudioRecord[]> {
  return (await (await db()).getAllFromIndex('runs', 'createdAt')).reverse();
}

export async function deleteRun(id: string): Promise<void> {
  await (await db()).delete('runs', id);
}
