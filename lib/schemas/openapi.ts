import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import { CreditBalance } from './credits';
import { ErrorBody, JobIdParams } from './common';
import { BatchIdParams, BatchRecord, CreateBatchRequest, CreateExportRequest, ExportIdParams, ExportRecord } from './exports';
import { CreateJobRequest, DeleteJobResponse, JobReceipt, JobStatusRecord, StartJobRequest, StartResponse, UploadedJob } from './jobs';
import { DeliveriesQuery, DeliveryHistory } from './webhooks';
import { z } from './zod';

/** The OpenAPI document, generated from the same zod schemas the routes parse with. */
const ERRORS: Record<number, string> = {
  400: 'Invalid parameters',
  401: 'Invalid or missing API key (`Invalid API key`, `API key required`)',
  402: 'Insufficient credits',
  404: 'Not found, or not the caller\'s (`Job not found or does not belong to user`)',
  405: 'Method not allowed on this path (`Allow` lists those it has)',
  409: 'Conflict: the job was already started or processed by another request',
  413: 'File exceeds the size limit',
  429: 'Rate limit exceeded (100 requests per minute per key; 3 processing starts per minute per key); `Retry-After` says when to retry',
  500: 'Internal server error',
};

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const header = (description: string, type: 'string' | 'integer' = 'integer') => ({ description, schema: { type } });
/** Every answer, errors included, carries these (spec, "Limits" and "Versioning"). */
const HEADERS = {
  'X-API-Version': header('API version, 1.6.0', 'string'),
  'X-RateLimit-Limit': header('Requests allowed per minute for this key'),
  'X-RateLimit-Remaining': header('Requests left in the current minute'),
  'X-RateLimit-Reset': header('Unix time (seconds) when the minute resets'),
};

function ok(description: string, schema: z.ZodType, headers: Partial<typeof HEADERS> = HEADERS): RouteConfig['responses'] {
  return { 200: { description, headers, content: json(schema) } };
}

function errors(...codes: number[]): RouteConfig['responses'] {
  return Object.fromEntries(
    codes.map((c) => [
      c,
      {
        description: ERRORS[c] ?? 'Error',
        headers: c === 429 ? { ...HEADERS, 'Retry-After': header('Seconds until a retry can succeed') } : HEADERS,
        content: json(ErrorBody),
      },
    ]),
  );
}

function build(): string {
  const registry = new OpenAPIRegistry();
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  const security = [{ [apiKey.name]: [] }];
  const paths: RouteConfig[] = [
    {
      method: 'post',
      path: '/v1/jobs',
      summary: 'Create a job (then PUT the video to upload_url), or give video_url, or send multipart `file`',
      request: {
        body: {
          content: {
            ...json(CreateJobRequest),
            'multipart/form-data': { schema: z.object({ file: z.string().openapi({ format: 'binary' }) }) },
          },
        },
      },
      responses: {
        ...ok('Job creation receipt, or the uploaded job for video_url and multipart', z.union([JobReceipt, UploadedJob])),
        ...errors(400, 401, 413, 429, 500),
      },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/start',
      summary: 'Start processing; creditsUsed is the exact charge',
      request: { params: JobIdParams, body: { content: json(StartJobRequest) } },
      responses: { ...ok('Processing started', StartResponse), ...errors(400, 401, 402, 404, 409, 413, 429, 500) },
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
    {
      method: 'post',
      path: '/v1/jobs/{id}/exports',
      summary: 'Export a completed job again in any format, from its stored original and mask (no credits); poll GET /v1/exports/{exportId}',
      request: { params: JobIdParams, body: { content: json(CreateExportRequest) } },
      responses: { ...ok('Export receipt (status queued)', ExportRecord), ...errors(400, 401, 404, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/exports/{exportId}',
      summary: 'An export: its receipt, and when completed signed output_url and poster_url (1 h) and validated metadata',
      request: { params: ExportIdParams },
      responses: { ...ok('Export', ExportRecord), ...errors(401, 404, 429, 500) },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/batch-exports',
      summary: 'Several exports of a completed job (no credits): one queue row each, or use_gpu for one pass that decodes once',
      request: { params: JobIdParams, body: { content: json(CreateBatchRequest) } },
      responses: { ...ok('Batch with its export receipts', BatchRecord), ...errors(400, 401, 404, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/batches/{batchId}',
      summary: 'A batch: status, counts and every export record',
      request: { params: BatchIdParams },
      responses: { ...ok('Batch', BatchRecord), ...errors(401, 404, 429, 500) },
    },
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
      responses: { ...ok('OpenAPI YAML', z.string(), { 'X-API-Version': HEADERS['X-API-Version'] }), 500: { description: ERRORS[500]!, content: json(ErrorBody) } },
    },
  ];
  for (const p of paths) registry.registerPath({ ...p, security: p.path === '/v1/openapi' ? [] : security });
  const doc = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Keyout API',
      version: '1.6.0',
      description:
        'Video background removal. Every response carries X-API-Version and X-RateLimit-Limit/-Remaining/-Reset. ' +
        'All paths are also served under /api/v1. Result and upload URLs are signed and need no key.',
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
