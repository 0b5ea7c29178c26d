import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiYaml } from './openapi';

describe('openApiYaml', () => {
  it('describes every /v1 path from the zod schemas', () => {
    const doc = parse(openApiYaml()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/v1/credits',
        '/v1/jobs',
        '/v1/h3/image-to-video',
        '/v1/jobs/{id}',
        '/v1/jobs/{id}/start',
        '/v1/jobs/{id}/status',
        '/v1/jobs/{id}/exports',
        '/v1/exports/{exportId}',
        '/v1/jobs/{id}/batch-exports',
        '/v1/batches/{batchId}',
        '/v1/jobs/{id}/refine-mask',
        '/v1/refinements/{refinementId}',
        '/v1/jobs/{id}/mask-versions',
        '/v1/jobs/{id}/mask-versions/{version}/activate',
        '/v1/openapi',
        '/v1/webhooks/deliveries',
      ].sort(),
    );
    for (const name of ['Error', 'JobStatus', 'StartResponse', 'Background', 'CreditBalance', 'JobReceipt', 'Export', 'Batch', 'ExportMetadata', 'Refinement', 'RefineMaskRequest', 'RefinePointsPrompt', 'RefinePoint', 'MaskVersionList']) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });

  it('gives every answer its rate-limit and version headers, 429 its Retry-After, and start its 409/413', () => {
    type Response = { headers?: Record<string, unknown> };
    const doc = parse(openApiYaml()) as { paths: Record<string, Record<string, { responses: Record<string, Response> }>> };
    // The document itself is public: no key, so no key's rate limit.
    const keyed = Object.entries(doc.paths).filter(([path]) => path !== '/v1/openapi');
    expect(Object.keys(doc.paths['/v1/openapi']!.get!.responses['200']!.headers ?? {})).toEqual(['X-API-Version']);
    for (const [path, methods] of keyed) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.responses, `${method} ${path}`).toHaveProperty('429');
        for (const [code, r] of Object.entries(op.responses)) {
          expect(Object.keys(r.headers ?? {}), `${method} ${path} ${code}`).toEqual(expect.arrayContaining(['X-API-Version', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
        }
        expect(Object.keys(op.responses['429']!.headers ?? {})).toContain('Retry-After');
      }
    }
    expect(Object.keys(doc.paths['/v1/jobs/{id}/start']!.post!.responses)).toEqual(expect.arrayContaining(['402', '409', '413']));
    expect(Object.keys(doc.paths['/v1/jobs']!.post!.responses)).toContain('413');
  });
});
