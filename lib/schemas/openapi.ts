import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import { CreditBalance } from './credits';
import { ErrorBody, JobIdParams } from './common';
import { CreateJobRequest, DeleteJobResponse, JobReceipt, JobStatusRecord, StartJobRequest, StartResponse, UploadedJob } from './jobs';
import { DeliveriesQuery, DeliveryHistory } from './webhooks';
import { z } from './zod';

/** The OpenAPI document, generated from the same zod schemas the routes parse with. */
const ERRORS: Record<number, string> = {
  400: 'Invalid parameters',
  401: 'Invalid or missing API key (`Invalid API key`, `API key required`)',
  402: 'Insufficient credits',
  404: 'Job not found or does not belong to user',
  413: 'File exceeds the size limit',
  429: 'Rate limit exceeded (100 requests per minute per key; 3 processing starts per minute per key)',
  500: 'Internal server error',
};

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function errors(...codes: number[]): RouteConfig['responses'] {
  return Object.fromEntries(codes.map((c) => [c, { description: ERRORS[c] ?? 'Error', content: json(ErrorBody) }]));
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
        200: { description: 'Job creation receipt, or the uploaded job for video_url and multipart', content: json(z.union([JobReceipt, UploadedJob])) },
        ...errors(400, 401, 413, 429, 500),
      },
    },
    {
      method: 'post',
      path: '/v1/jobs/{id}/start',
      summary: 'Start processing; creditsUsed is the exact charge',
      request: { params: JobIdParams, body: { content: json(StartJobRequest) } },
      responses: { 200: { description: 'Processing started', content: json(StartResponse) }, ...errors(400, 401, 402, 404, 413, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/jobs/{id}/status',
      summary: 'Job status, with signed result URLs (1 h) when completed',
      request: { params: JobIdParams },
      responses: { 200: { description: 'Job status record', content: json(JobStatusRecord) }, ...errors(401, 404, 429, 500) },
    },
    {
      method: 'delete',
      path: '/v1/jobs/{id}',
      summary: 'Delete a job and its files permanently (no refund)',
      request: { params: JobIdParams },
      responses: { 200: { description: 'Deleted', content: json(DeleteJobResponse) }, ...errors(401, 404, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/credits',
      summary: 'Credit balance',
      responses: { 200: { description: 'Credit balance', content: json(CreditBalance) }, ...errors(401, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/webhooks/deliveries',
      summary: 'Webhook delivery history of a job',
      request: { query: DeliveriesQuery },
      responses: { 200: { description: 'Delivery history', content: json(DeliveryHistory) }, ...errors(400, 401, 404, 429, 500) },
    },
    {
      method: 'get',
      path: '/v1/openapi',
      summary: 'This document, as a YAML string (public: no API key needed)',
      responses: { 200: { description: 'OpenAPI YAML', content: json(z.string()) }, ...errors(500) },
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
