import fs from 'node:fs';
import http from 'node:http';
import { priceJob } from '../../lib/billing/pricing';
import { api, createJob, putUpload } from '../../tests/integration/helpers';
import { streamEntries } from '../../tests/support/counted-probe';
import { createAccount, reliabilityStack, sleep, testClip, type Part } from './common';

/** The duration of the file the job will process, as ffprobe reads its video stream. */
async function streamSeconds(file: string): Promise<number> {
  const [video] = await streamEntries<{ duration: string }>(file, 'stream=duration', {
    firstVideo: true,
  });
  return Number(video!.duration);
}

/**
 * The upload/start race, `rounds` times with random timing: a job uploaded with a 1 s video, then
 * a second PUT of a 4 s video (sent in pieces with random pauses) racing a start sent after a
 * random delay. Whichever wins, the job must be charged once, for the video it processes.
 */
export function uploadRace(rounds: number): Part {
  return {
    name: `the upload/start race, ${rounds} rounds with random timing`,
    async run() {
      const { stack, db } = await reliabilityStack({}, false);
      const problems: string[] = [];
      const outcomes = { startFirst: 0, uploadFirst: 0 };
      try {
        const { key } = await createAccount(stack, 10_000);
        const short = await testClip(stack.dataDir, 'short.mp4', 1);
        const long = fs.readFileSync(await testClip(stack.dataDir, 'long.mp4', 4));
        for (let round = 0; round < rounds; round++) {
          const receipt = await createJob(stack, key);
          if ((await putUpload(receipt, short)).status !== 200)
            throw new Error('the first upload failed');
          const url = new URL(receipt.upload_url);
          const put = new Promise<number>((resolve) => {
            const req = http.request(
              {
                host: url.hostname,
                port: url.port,
                method: 'PUT',
                path: url.pathname + url.search,
                headers: { 'Content-Type': 'video/mp4', 'Content-Length': long.length },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              },
            );
            req.on('error', () => resolve(0));
            void (async () => {
              const pieces = 4;
              for (let i = 0; i < pieces; i++) {
                req.write(
                  long.subarray((i * long.length) / pieces, ((i + 1) * long.length) / pieces),
                );
                await sleep(Math.random() * 80);
              }
              req.end();
            })();
          });
          await sleep(Math.random() * 300);
          const start = await api<{ creditsUsed: number }>(
            stack,
            'POST',
            `/v1/jobs/${receipt.id}/start`,
            { key, body: { model: 'service-original' } },
          );
          const putStatus = await put;
          const again = await api<{ creditsUsed: number }>(
            stack,
            'POST',
            `/v1/jobs/${receipt.id}/start`,
            { key, body: { model: 'service-original' } },
          );
          const job = await db.job.findUniqueOrThrow({ where: { id: receipt.id } });
          const debits = await db.creditEntry.findMany({
            where: { jobId: receipt.id, kind: 'debit' },
          });
          const processed = await streamSeconds(`${stack.dataDir}/files/${job.sourceKey}`);
          const price = priceJob({
            model: 'service-original',
            durationSeconds: processed,
            fps: 25,
          });
          const fine =
            start.status === 200 &&
            again.status === 200 &&
            job.status === 'processing' &&
            debits.length === 1 &&
            -debits[0]!.amount === price &&
            job.creditsUsed === price &&
            start.body.creditsUsed === price &&
            again.body.creditsUsed === price &&
            (putStatus === 200 || putStatus === 409);
          if (!fine) {
            problems.push(
              `round ${round}: start ${start.status} ` +
                `(${start.body.creditsUsed}), PUT ${putStatus}, again ` +
                `${again.body.creditsUsed}, job ${job.status} charged ` +
                `${job.creditsUsed}, debits ` +
                `${debits.map((d) => d.amount).join(',')}, processes ` +
                `${processed.toFixed(1)} s (price ${price})`,
            );
          }
          if (putStatus === 409) outcomes.startFirst++;
          else outcomes.uploadFirst++;
        }
        return {
          passed: problems.length === 0,
          figures:
            `${rounds} rounds: start won ${outcomes.startFirst} (the late ` +
            `PUT got 409), upload won ${outcomes.uploadFirst} (priced the ` +
            `new video); re-priced ${problems.length} times`,
          problems,
        };
      } finally {
        await db.$disconnect();
        await stack.stop();
      }
    },
  };
}
