import { readJson } from '@/lib/http/body';
import { multipartFile } from '@/lib/http/multipart';
import { apiRoute, otherMethods } from '@/lib/http/route';
import {
  ImageToVideoReceipt,
  ImageToVideoRequest,
  ImageToVideoUploaded,
  multipartOptions,
} from '@/lib/schemas/image-to-video';
import { createStillJob, createStillJobWithFile } from '@/lib/services/jobs/create-job';
import { defaultPorts } from '@/lib/services/ports';

export const POST = apiRoute(async ({ req, userId }) => {
  if (req.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
    const file = await multipartFile(req, 'file');
    let options;
    try {
      options = multipartOptions(file.fields);
    } catch (e) {
      file.body.resume();
      throw e;
    }
    return {
      body: ImageToVideoUploaded.parse(
        await createStillJobWithFile(defaultPorts, userId, file, options),
      ),
    };
  }
  const job = await createStillJob(
    defaultPorts,
    userId,
    ImageToVideoRequest.parse(await readJson(req)),
  );
  return {
    body:
      job.status === 'created' ? ImageToVideoReceipt.parse(job) : ImageToVideoUploaded.parse(job),
  };
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');
