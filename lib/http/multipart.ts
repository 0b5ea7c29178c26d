import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import busboy from 'busboy';
import { env } from '../env';
import { ServiceError } from '../errors';
import { tooLarge } from '../storage/limited-write';
import { HttpError } from './errors';

export interface MultipartFile {
  filename: string;
  contentType: string;
  body: Readable;
  /** The text fields sent before the file (a form is read in order, and the file is streamed). */
  fields: Record<string, string>;
}

/** What a form may carry besides the file: a few small fields, all before the file. */
const MAX_BYTES_BEFORE_FILE = 1024 * 1024;
/** Part headers and boundaries around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const incomplete = () =>
  new HttpError(
    400,
    'Incomplete multipart upload',
    'The request ended before the file and the form were complete; send the whole file again.',
  );

/**
 * The `field` file of a multipart/form-data request, as a stream: the caller consumes it (to
 * disk, under its own byte cap), so uploads are never held in memory. Text fields that come
 * before the file are returned with it; other files and later fields are ignored. The whole
 * request is capped while it streams (MAX_UPLOAD_BYTES plus the form's overhead), as are the
 * bytes before the file; a truncated or malformed form is a 400, never an uncaught error.
 */
export function multipartFile(req: Request, field = 'file'): Promise<MultipartFile> {
  const maxFileBytes = env().MAX_UPLOAD_BYTES;
  return new Promise((resolve, reject) => {
    if (!req.body)
      return reject(
        new HttpError(
          400,
          'The multipart form is empty',
          `Send the video in a field named "${field}".`,
        ),
      );
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': req.headers.get('content-type') ?? '' },
        limits: {
          files: 1,
          fileSize: maxFileBytes + 1,
          fields: 20,
          fieldSize: 256 * 1024,
          parts: 30,
          headerPairs: 20,
        },
      });
    } catch {
      return reject(
        new HttpError(
          400,
          'Invalid multipart form',
          'The Content-Type must be multipart/form-data with a boundary.',
        ),
      );
    }
    const input = Readable.fromWeb(req.body as NodeWebStream<Uint8Array>);
    let found = false;
    const fields: Record<string, string> = {};
    parser.on('field', (name, value) => {
      if (!found) fields[name] = value;
    });
    let seen = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (!found && seen > MAX_BYTES_BEFORE_FILE) {
          done(
            new HttpError(
              400,
              'Invalid multipart form',
              `The "${field}" part must come first, after at most ` +
                `${MAX_BYTES_BEFORE_FILE} bytes of other fields.`,
            ),
          );
        } else if (seen > maxFileBytes + FORM_OVERHEAD_BYTES + MAX_BYTES_BEFORE_FILE) {
          done(tooLarge(maxFileBytes));
        } else done(null, chunk);
      },
    });
    parser.on('file', (name, stream, info) => {
      if (name !== field || found) {
        stream.resume();
        return;
      }
      found = true;
      const body = new PassThrough();
      // The form may fail before the caller starts reading (it creates the job row first): the
      // error stays on the stream for the caller's pipeline, and is no uncaught exception.
      body.on('error', () => undefined);
      let overCap = false;
      // Past the cap busboy holds the rest of the file back: fail it with 413 and stop reading.
      stream.on('limit', () => {
        overCap = true;
        body.destroy(tooLarge(maxFileBytes));
        input.destroy();
      });
      // busboy ends a cut-off file with a bare Error: the caller sees a 400 that says so.
      stream.on('error', () => {
        if (!overCap) body.destroy(incomplete());
      });
      stream.pipe(body);
      resolve({ filename: info.filename ?? '', contentType: info.mimeType, body, fields });
    });
    pipeline(input, counter, parser).then(
      () => {
        if (!found)
          reject(new HttpError(400, `The multipart form needs a file field named "${field}"`));
      },
      (e: unknown) => {
        if (e instanceof HttpError || e instanceof ServiceError) reject(e);
        else
          reject(
            found
              ? incomplete()
              : new HttpError(
                  400,
                  'Invalid multipart form',
                  'The form could not be read; it is malformed or incomplete.',
                ),
          );
      },
    );
  });
}
