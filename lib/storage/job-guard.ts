import { db } from '../db/client';
import { ServiceError } from '../errors';
import { jobIdOfKey, storageKeys } from './keys';
import type { Storage } from './types';

const jobExists = async (jobId: string) => (await db().job.count({ where: { id: jobId } })) === 1;

/**
 * Writes under `jobs/<id>/` land only while the job exists. A job deleted while a worker still
 * processes it gets no new file, whatever the worker does before its lease check aborts it: the
 * job is checked before the write, and again after it, in case the delete (row, then files)
 * ran in between; then the job's files are removed again.
 */
export function guardJobWrites(
  inner: Storage,
  exists: (jobId: string) => Promise<boolean> = jobExists,
): Storage {
  const guarded = async <T>(key: string, write: () => Promise<T>): Promise<T> => {
    const jobId = jobIdOfKey(key);
    if (!jobId) return write();
    const gone = () => new ServiceError('not_found', 'The job was deleted');
    if (!(await exists(jobId))) throw gone();
    const result = await write();
    if (!(await exists(jobId))) {
      await inner.delete(storageKeys.jobPrefix(jobId));
      throw gone();
    }
    return result;
  };
  return {
    writeStream: (key, body, opts) => guarded(key, () => inner.writeStream(key, body, opts)),
    putFile: (key, file, opts) => guarded(key, () => inner.putFile(key, file, opts)),
    localFile: (key, scratchDir) => inner.localFile(key, scratchDir),
    openRead: (key, range) => inner.openRead(key, range),
    stat: (key) => inner.stat(key),
    move: (from, to, opts) => guarded(to, () => inner.move(from, to, opts)),
    delete: (prefix) => inner.delete(prefix),
    signedUrl: (key, opts) => inner.signedUrl(key, opts),
  };
}
