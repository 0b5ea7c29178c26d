import { apiRoute, otherMethods } from '@/lib/http/route';
import { openApiYaml } from '@/lib/schemas/openapi';

/** The API description as a YAML string in a JSON body (every 2xx answer is JSON for the SDKs). */
export const GET = apiRoute(() => Promise.resolve({ body: openApiYaml() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
