import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiYaml } from './openapi';

describe('openApiYaml', () => {
  it('describes every /v1 path from the zod schemas', () => {
    const doc = parse(openApiYaml()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual(
      ['/v1/credits', '/v1/jobs', '/v1/jobs/{id}', '/v1/jobs/{id}/start', '/v1/jobs/{id}/status', '/v1/openapi', '/v1/webhooks/deliveries'].sort(),
    );
    for (const name of ['Error', 'JobStatus', 'StartResponse', 'Background', 'CreditBalance', 'JobReceipt']) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });
});
