import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import busboy from 'busboy';
import { HttpError } from './errors';

export interface MultipartFile {
  filename: string;
  contentType: string;
  body: Readable;
}

/**
 * The `field` file of a multipart/form-data request, as a stream: the caller consumes it (to
 * disk), so uploads are never held in memory. Other fields are ignored.
 */
export function multipartFile(req: Request, field = 'file'): Promise<MultipartFile> {
  return new Promise((resolve, reject) => {
    if (!req.body) return reject(new HttpError(400, 'The multipart form is empty', `Send the video in a field named "${field}".`));
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': req.headers.get('content-type') ?? '' }, limits: { files: 1 } });
    } catch {
      return reject(new HttpError(400, 'Invalid multipart form'));
    }
    let found = false;
    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ filename: info.filename ?? '', contentType: info.mimeType, body: stream });
    });
    parser.on('error', (e) => reject(found ? (e as Error) : new HttpError(400, 'Invalid multipart form')));
    parser.on('close', () => {
      if (!found) reject(new HttpError(400, `The multipart form needs a file field named "${field}"`));
    });
    Readable.fromWeb(req.body as NodeWebStream<Uint8Array>).pipe(parser);
  });
}
