import { readJson } from '@/lib/http/body';
import { multipartFile } from '@/lib/http/multipart';
import { apiRoute, otherMethods } from '@/lib/http/route';
import { CreateJobRequest, JobReceipt, UploadedJob } from '@/lib/schemas/jobs';
import { createJob, createJobWithFile } from '@/lib/services/jobs/create-job';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute(async ({ req, userId }) => {
  if (req.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
    return {
      body: UploadedJob.parse(
        await createJobWithFile(defaultPorts, userId, await multipartFile(req, 'file')),
      ),
    };
  }
  const job = await createJob(defaultPorts, userId, CreateJobRequest.parse(await readJson(req)));
  return { body: job.status === 'created' ? JobReceipt.parse(job) : UploadedJob.parse(job) };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
