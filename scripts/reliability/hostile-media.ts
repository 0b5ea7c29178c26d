import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { api, createJob, waitForJob, type Receipt } from '../../tests/integration/helpers';
import { generateCorpus } from './hostile-corpus';
import {
  allLogs,
  createAccount,
  isSpecError,
  leaksInternals,
  reliabilityStack,
  type Part,
} from './common';

/**
 * The PUT streamed from disk, as an SDK sends a large file. Node's fetch with the whole file as
 * one Buffer got EPIPE at 7-9 s on a 46 MB upload to this server (frame-size-bomb.mkv), while
 * curl, http.request and a streamed fetch of the same file were answered 200 (not diagnosed).
 */
function putStreamed(receipt: Receipt, file: string): Promise<Response> {
  return fetch(receipt.upload_url, {
    method: 'PUT',
    headers: { 'Content-Type': 'video/mp4', 'Content-Length': String(fs.statSync(file).size) },
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
}

type Outcome = 'refused' | 'refunded' | 'completed' | 'broken';

/**
 * The hostile corpus through the API as a client sends it: upload, and start what the upload
 * accepts. Every file must be refused with a message in words, or fail with one and be refunded;
 * neither process may crash.
 */
export function hostileMedia(): Part {
  return {
    name: 'a corpus of hostile media files',
    async run() {
      const { stack, db } = await reliabilityStack();
      const problems: string[] = [];
      const counts: Record<Outcome, number> = { refused: 0, refunded: 0, completed: 0, broken: 0 };
      try {
        const corpus = await generateCorpus(path.join(stack.dataDir, 'corpus'));
        const { key } = await createAccount(stack, 100_000);
        const started: { name: string; id: string }[] = [];
        for (const item of corpus) {
          const receipt = await createJob(stack, key, item.name);
          const put = await putStreamed(receipt, item.file);
          const text = await put.text();
          if (put.status === 400 || put.status === 413) {
            const { error } = JSON.parse(text) as { error: string };
            if (!isSpecError(text) || leaksInternals(error)) {
              counts.broken++;
              problems.push(`${item.name}: refused with ${text}`);
            } else counts.refused++;
            continue;
          }
          if (put.status !== 200) {
            counts.broken++;
            problems.push(`${item.name}: upload answered ${put.status} ${text}`);
            continue;
          }
          const start = await api(stack, 'POST', `/v1/jobs/${receipt.id}/start`, {
            key,
            body: { model: 'service-human' },
          });
          if (start.status !== 200) {
            counts.broken++;
            problems.push(`${item.name}: start answered ${start.status} ${start.text}`);
            continue;
          }
          started.push({ name: item.name, id: receipt.id });
        }
        for (const { name, id } of started) {
          const done = await waitForJob(stack, key, id, { timeoutMs: 600_000 });
          const entries = await db.creditEntry.findMany({ where: { jobId: id } });
          const refunded =
            entries.some((e) => e.kind === 'refund') &&
            entries.reduce((s, e) => s + e.amount, 0) === 0;
          if (done.status === 'failed' && refunded && done.message && !leaksInternals(done.message))
            counts.refunded++;
          else if (done.status === 'completed') {
            counts.completed++;
            problems.push(
              `${name}: completed (a file the corpus means to be unusable was processed)`,
            );
          } else {
            counts.broken++;
            problems.push(
              `${name}: ${done.status}, refunded ${refunded}, message ${done.message ?? ''}`,
            );
          }
        }
        const logs = allLogs(stack);
        const crashes = (
          logs.match(
            /Worker exited|uncaughtException|unhandled rejection|FATAL|Segmentation fault/gi,
          ) ?? []
        ).length;
        const web5xx = (logs.match(/\[api\] unexpected error/g) ?? []).length;
        if (crashes) problems.push(`${crashes} crash lines in the logs`);
        if (web5xx) problems.push(`${web5xx} unexpected errors (500) in the web log`);
        return {
          passed: counts.completed === 0 && counts.broken === 0 && crashes === 0 && web5xx === 0,
          figures:
            `${corpus.length} files: ${counts.refused} refused at upload ` +
            `with a message, ${counts.refunded} failed with a message and ` +
            `refunded, ${counts.completed} processed, ${counts.broken} ` +
            `mishandled; ${crashes} crashes, ${web5xx} 500s`,
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}
