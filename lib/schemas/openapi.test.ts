import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiYaml } from './openapi';

describe('openApiYaml', () => {
  it('describes every /v1 path from the zod schemas', () => {
    const doc = parse(openApiYaml()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
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
    for (const name of [
      'Error',
      'JobStatus',
      'StartResponse',
      'Background',
      'CreditBalance',
      'JobReceipt',
      'Export',
      'Batch',
      'ExportMetadata',
      'Refinement',
      'RefineMaskRequest',
      'RefinePointsPrompt',
      'RefinePoint',
      'MaskVersionList',
    ]) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });

  it(
    'gives every answer its rate-limit and version headers, 429 its ' +
      'Retry-After, start no 409, and each 409 its own reasons',
    () => {
      type Response = { description: string; headers?: Record<string, unknown> };
      const doc = parse(openApiYaml()) as {
        paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
      };
      const keyed = Object.entries(doc.paths).filter(([path]) => path !== '/v1/openapi');
      // The document itself is public: the same headers as every answer (a full window), and its
      // cache time.
      expect(Object.keys(doc.paths['/v1/openapi']!.get!.responses['200']!.headers ?? {})).toEqual([
        'X-API-Version',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Cache-Control',
      ]);
      expect(Object.keys(doc.paths['/v1/openapi']!.get!.responses)).toEqual(['200', '405', '500']);
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          for (const [code, r] of Object.entries(op.responses)) {
            expect(Object.keys(r.headers ?? {}), `${method} ${path} ${code}`).toEqual(
              expect.arrayContaining([
                'X-API-Version',
                'X-RateLimit-Limit',
                'X-RateLimit-Remaining',
                'X-RateLimit-Reset',
              ]),
            );
          }
        }
      }
      for (const [path, methods] of keyed) {
        for (const [method, op] of Object.entries(methods)) {
          expect(op.responses, `${method} ${path}`).toHaveProperty('429');
          expect(Object.keys(op.responses['429']!.headers ?? {})).toContain('Retry-After');
        }
      }
      // A start that races another is answered as a replay (spec: start lists no 409).
      const start = doc.paths['/v1/jobs/{id}/start']!.post!.responses;
      expect(Object.keys(start)).toEqual(
        expect.arrayContaining(['400', '401', '402', '404', '413', '429', '500']),
      );
      expect(start).not.toHaveProperty('409');
      const refine = doc.paths['/v1/jobs/{id}/refine-mask']!.post!.responses['409']!.description;
      for (const reason of [
        'Another refinement of this job is running',
        'The active mask changed',
        'Idempotency-Key was already used with a different request',
      ])
        expect(refine).toContain(reason);
      expect(
        doc.paths['/v1/jobs/{id}/mask-versions/{version}/activate']!.post!.responses['409']!
          .description,
      ).toContain('A refinement of this job is running');
      expect(Object.keys(doc.paths['/v1/jobs']!.post!.responses)).toContain('413');
    },
  );
});
