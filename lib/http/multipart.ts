import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import busboy from 'busboy';
import { HttpError } from './errors';

export interface MultipartFile {
  filename: string;
  contentType: string;
  body: Readable;
  /** The text fields sent before the file (a form is read in order, and the file is streamed). */
  fields: Record<string, string>;
}

/**
 * The `field` file of a multipart/form-data request, as a stream: the caller consumes it (to
 * disk), so uploads are never held in memory. Text fields that come before the file are
 * returned with it; other files and later fields are ignored.
 */
export function multipartFile(req: Request, field = 'file'): Promise<MultipartFile> {
  return new Promise((resolve, reject) => {
    if (!req.body) return reject(new HttpError(400, 'The multipart form is empty', `Send the video in a field named "${field}".`));
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': req.headers.get('content-type') ?? '' }, limits: { files: 1, fields: 20, fieldSize: 256 * 1024 } });
    } catch {
      return reject(new HttpError(400, 'Invalid multipart form'));
    }
    let found = false;
    const fields: Record<string, string> = {};
    parser.on('field', (name, value) => {
      if (!found) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ filename: info.filename ?? '', contentType: info.mimeType, body: stream, fields });
    });
    parser.on('error', (e) => reject(found ? (e as Error) : new HttpError(400, 'Invalid multipart form')));
    parser.on('close', () => {
      if (!found) reject(new HttpError(400, `The multipart form needs a file field named "${field}"`));
    });
    Readable.fromWeb(req.body as NodeWebStream<Uint8Array>).pipe(parser);
  });
}
