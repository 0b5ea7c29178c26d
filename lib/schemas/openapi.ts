import {
  OpenAPIRegistry,
  OpenApiGeneratorV3,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import { CreditBalance } from './credits';
import { ErrorBody, JobIdParams } from './common';
import {
  BatchIdParams,
  BatchRecord,
  CreateBatchRequest,
  CreateExportRequest,
  ExportIdParams,
  ExportRecord,
} from './exports';
import { ImageToVideoReceipt, ImageToVideoRequest, ImageToVideoUploaded } from './image-to-video';
import {
  CreateJobRequest,
  DeleteJobResponse,
  JobReceipt,
  JobStatusRecord,
  StartJobRequest,
  StartResponse,
  UploadedJob,
} from './jobs';
import {
  MaskVersionList,
  MaskVersionParams,
  RefinementIdParams,
  RefinementRecord,
  RefineMaskRequest,
} from './refinements';
import { DeliveriesQuery, DeliveryHistory } from './webhooks';
import { z } from './zod';

/** The OpenAPI document, generated from the same zod schemas the routes parse with. */
const ERRORS: Record<number, string> = {
  400: 'Invalid parameters',
  401: 'Invalid or missing API key (`Invalid API key`, `API key required`)',
  402: 'Insufficient credits',
  404: "Not found, or not the caller's (`Job not found or does not belong to user`)",
  405: 'Method not allowed on this path (`Allow` lists those it has)',
  413: 'File exceeds the size limit',
  429:
    'Rate limit exceeded (100 requests per minute per key; 3 ' +
    'processing starts per minute per key); `Retry-After` says when ' +
    'to retry',
  500: 'Internal server error',
};

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
/** A JSON body, or multipart with the media as `file` (the ways to create a job). */
const jsonOrFile = (schema: z.ZodType) => ({
  ...json(schema),
  'multipart/form-data': {
    schema: z.object({ file: z.string().openapi({ format: 'binary' }) }),
  },
});

const header = (description: string, type: 'string' | 'integer' = 'integer') => ({
  description,
  schema: { type },
});
/** Every answer, errors included, carries these (spec, "Limits" and "Versioning"). */
const HEADERS = {
  'X-API-Version': header('API version, 1.6.0', 'string'),
  'X-RateLimit-Limit': header('Requests allowed per minute for this key'),
  'X-RateLimit-Remaining': header('Requests left in the current minute'),
  'X-RateLimit-Reset': header('Unix time (seconds) when the minute resets'),
};

function ok(
  description: string,
  schema: z.ZodType,
  headers: Record<string, ReturnType<typeof header>> = HEADERS,
): RouteConfig['responses'] {
  return { 200: { description, headers, content: json(schema) } };
}

/** Error answers: a code with the description ERRORS gives it, or a code with one of its own. */
function errors(...codes: (number | [number, string])[]): RouteConfig['responses'] {
  return Object.fromEntries(
    codes.map((c) => {
      const [code, description] = typeof c === 'number' ? [c, ERRORS[c] ?? 'Error'] : c;
      return [
        code,
        {
          description,
          headers:
            code === 429
              ? { ...HEADERS, 'Retry-After': header('Seconds until a retry can succeed') }
              : HEADERS,
          content: json(ErrorBody),
        },
      ];
    }),
  );
}

/** The refinement's conflicts (spec: "Refinement conflict"), each with its `error`. */
const REFINEMENT_CONFLICT: [number, string] = [
  409,
  'Refinement conflict: another refinement of the job is running ' +
    '(`Another refinement of this job is running`), ' +
    ('the active mask is no longer `from_version` (`The active mask ' +
      'changed: it is version N, not M`), ') +
    ('or the Idempotency-Key was used with a different request ' +
      '(`Idempotency-Key was already used with a different ' +
      'request`). ') +
    'Nothing is charged.',
];

/** Creating, starting, reading and deleting jobs. */
function jobPaths(): RouteConfig[] {
  return [
    {
      method: 'post',
      path: '/v1/jobs',
      summary:
        'Create a job (then PUT the video to upload_url), or give ' +
        'video_url, or send multipart `file`',
      request: { body: { content: jsonOrFile(CreateJobRequest) } },
      responses: {
        ...ok(
          'Job creation receipt, or the uploaded job for video_url and multipart',
          z.union([JobReceipt, UploadedJob]),
        ),
        ...errors(400, 401, 413, 429, 500),
      },
    },
    {
      method: 'post',
      path: '/v1/h3/image-to-video',
      summary: 'Create a job from a still image (PNG, JPEG, WebP)',
      description:
        'PUT the image to upload_url, or give image_url, or send multipart `file` ' +
        ('(option fields before the file; `background` and `exports` as ' +
          'JSON). The still is segmented once and animated; start, status ' +
          'and exports ') +
        'are those of any job, and credits are per second of the clip.',
      request: { body: { content: jsonOrFile(ImageToVideoRequest) } },
      responses: {
        ...ok(
          'Job creation receipt, or the uploaded job for image_url and multipart',
          z.union([ImageToVideoReceipt, ImageToVideoUploaded]),
        ),
        ...errors(400, 401, 413, 429, 500),
      },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/start',
      summary: 'Start processing; creditsUsed is the exact charge',
      request: { params: JobIdParams, body: { content: json(StartJobRequest) } },
      responses: {
        ...ok('Processing started', StartResponse),
        ...errors(400, 401, 402, 404, 413, 429, 500),
      },
    },
    {
      method: 'get',
      path: '/v1/jobs/{id}/status',
      summary: 'Job status, with signed result URLs (1 h) when completed',
      request: { params: JobIdParams },
      responses: { ...ok('Job status record', JobStatusRecord), ...errors(401, 404, 429, 500) },
    },
    {
      method: 'delete',
      path: '/v1/jobs/{id}',
      summary: 'Delete a job and its files permanently (no refund)',
      request: { params: JobIdParams },
      responses: { ...ok('Deleted', DeleteJobResponse), ...errors(401, 404, 429, 500) },
    },
  ];
}

/** Re-exports of a completed job, one at a time or in batches. */
function exportPaths(): RouteConfig[] {
  return [
    {
      method: 'post',
      path: '/v1/jobs/{id}/exports',
      summary:
        'Export a completed job again in any format, from its stored ' +
        'original and mask (no credits); poll GET ' +
        '/v1/exports/{exportId}',
      request: { params: JobIdParams, body: { content: json(CreateExportRequest) } },
      responses: {
        ...ok('Export receipt (status queued)', ExportRecord),
        ...errors(400, 401, 404, 429, 500),
      },
    },
    {
      method: 'get',
      path: '/v1/exports/{exportId}',
      summary:
        'An export: its receipt, and when completed signed output_url ' +
        'and poster_url (1 h) and validated metadata',
      request: { params: ExportIdParams },
      responses: { ...ok('Export', ExportRecord), ...errors(401, 404, 429, 500) },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/batch-exports',
      summary:
        'Several exports of a completed job (no credits): one queue row ' +
        'each, or use_gpu for one pass that decodes once',
      request: { params: JobIdParams, body: { content: json(CreateBatchRequest) } },
      responses: {
        ...ok('Batch with its export receipts', BatchRecord),
        ...errors(400, 401, 404, 429, 500),
      },
    },
    {
      method: 'get',
      path: '/v1/batches/{batchId}',
      summary: 'A batch: status, counts and every export record',
      request: { params: BatchIdParams },
      responses: { ...ok('Batch', BatchRecord), ...errors(401, 404, 429, 500) },
    },
  ];
}

/** Mask refinements and the mask versions they produce. */
function refinementPaths(): RouteConfig[] {
  return [
    {
      method: 'post',
      path: '/v1/jobs/{id}/refine-mask',
      summary: "Refine a completed job's mask by a text prompt (or, as an extension, clicks)",
      // The long text goes in the description: the reference renders a summary as a heading,
      // and its unbreakable paths made the docs page scroll sideways on a phone.
      description:
        'Adds or subtracts a concept (or, with prompt.mode "points", ' +
        'the object clicked on one frame, followed through the video) ' +
        'into a new mask version, made active when it completes; ' +
        "charged the model's rate for the video's length, refunded on " +
        'failure; poll GET /v1/refinements/{refinementId}.',
      request: {
        params: JobIdParams,
        headers: z.object({
          'Idempotency-Key': z
            .string()
            .optional()
            .openapi({
              description:
                '1-128 printable ASCII characters; the same key and request ' +
                'replay the refinement with no new charge, a different request ' +
                'is a 409',
            }),
        }),
        body: { content: json(RefineMaskRequest) },
      },
      responses: {
        ...ok('Mask refinement record (status queued when new)', RefinementRecord),
        ...errors(400, 401, 402, 404, REFINEMENT_CONFLICT, 429, 500),
      },
    },
    {
      method: 'get',
      path: '/v1/refinements/{refinementId}',
      summary: 'Extension: a refinement and its current status',
      request: { params: RefinementIdParams },
      responses: {
        ...ok('Mask refinement record', RefinementRecord),
        ...errors(401, 404, 429, 500),
      },
    },
    {
      method: 'get',
      path: '/v1/jobs/{id}/mask-versions',
      summary:
        "Extension: the job's mask versions and which is active; export " +
        'any completed one with mask_version',
      request: { params: JobIdParams },
      responses: { ...ok('Mask versions', MaskVersionList), ...errors(401, 404, 429, 500) },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/mask-versions/{version}/activate',
      summary:
        'Extension: make a completed mask version the active one (409 while a refinement runs)',
      request: { params: MaskVersionParams },
      responses: {
        ...ok('Mask versions', MaskVersionList),
        ...errors(
          400,
          401,
          404,
          [409, 'A refinement of the job is running (`A refinement of this job is running`)'],
          429,
          500,
        ),
      },
    },
  ];
}

/** The account's credits, its webhook deliveries, and this document. */
function accountPaths(): RouteConfig[] {
  return [
    {
      method: 'get',
      path: '/v1/credits',
      summary: 'Credit balance',
      responses: { ...ok('Credit balance', CreditBalance), ...errors(401, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/webhooks/deliveries',
      summary: 'Webhook delivery history of a job',
      request: { query: DeliveriesQuery },
      responses: { ...ok('Delivery history', DeliveryHistory), ...errors(400, 401, 404, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/openapi',
      summary: 'This document, as a YAML string (public: no API key needed)',
      responses: {
        ...ok(
          'OpenAPI YAML in a JSON string. Its X-RateLimit-* headers show ' +
            'a full window: the document counts against no key.',
          z.string(),
          {
            ...HEADERS,
            'Cache-Control': header('`public, max-age=300`', 'string'),
          },
        ),
        ...errors(405, 500),
      },
    },
  ];
}

function build(): string {
  const registry = new OpenAPIRegistry();
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
  });
  const security = [{ [apiKey.name]: [] }];
  const paths = [...jobPaths(), ...exportPaths(), ...refinementPaths(), ...accountPaths()];
  for (const p of paths)
    registry.registerPath({ ...p, security: p.path === '/v1/openapi' ? [] : security });
  const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Keyout API',
      version: '1.6.0',
      description:
        'Video background removal. Every response carries X-API-Version ' +
        'and X-RateLimit-Limit/-Remaining/-Reset. ' +
        ('All paths are also served under /api/v1. Result and upload ' +
          'URLs are signed and need no key.'),
    },
    servers: [{ url: '/' }],
  });
  return stringify(doc);
}

let cached: string | undefined;

export function openApiYaml(): string {
  cached ??= build();
  return cached;
}
