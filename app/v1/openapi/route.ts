import { otherMethods, publicRoute } from '@/lib/http/route';
import { openApiYaml } from '@/lib/schemas/openapi';

/**
 * The API description as a YAML string in a JSON body (every 2xx answer is JSON for the SDKs).
 * Public: the document holds no secret, and tools and the README point people at it.
 */
export const GET = publicRoute(() => ({
  body: openApiYaml(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', { public: true });
