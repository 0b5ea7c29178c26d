import { HttpError } from './errors';

const MAX_JSON_BYTES = 1024 * 1024;

/**
 * The JSON body of a request, or {} when there is none (SDKs send Content-Type: application/json
 * on bodiless requests too).
 */
export async function readJson(req: Request): Promise<unknown> {
  const length = Number(req.headers.get('content-length') ?? 0);
  if (length > MAX_JSON_BYTES) throw new HttpError(413, 'Request body too large', `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
  const text = await req.text();
  if (text.length > MAX_JSON_BYTES) throw new HttpError(413, 'Request body too large', `JSON bodies are limited to ${MAX_JSON_BYTES} bytes.`);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Invalid JSON body', 'The request body is not valid JSON.');
  }
}

/** Query parameters as a plain object for schema parsing. */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}
