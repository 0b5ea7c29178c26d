import { describe, expect, it } from 'vitest';
import { StartJobRequest } from '../../schemas/jobs';
import { ServiceError } from '../../errors';
import { startErrorInWords } from './start-errors';

describe('startErrorInWords', () => {
  it('puts a refused schema field under its input, in words instead of an API path', () => {
    const parsed = StartJobRequest.safeParse({
      background: { type: 'composition', composition: { background_url: 'ftp://x/y.jpg' } },
    });
    expect(parsed.success).toBe(false);
    const out = startErrorInWords(parsed.error!);
    expect(out).toEqual({
      error: 'Enter the full address of an image or video, starting with https://.',
      field: 'bg-url',
    });
    expect(out.error).not.toContain('background.composition');
  });

  it('names the field a service refused and keeps its reason', () => {
    const e = new ServiceError(
      'invalid',
      'background.composition.background_url is not usable: The server answered HTTP 404.',
      'The server answered HTTP 404.',
    );
    expect(startErrorInWords(e)).toEqual({
      error: 'This background cannot be used: The server answered HTTP 404.',
      field: 'bg-url',
    });
    const hook = new ServiceError(
      'invalid',
      'webhook_url is not allowed: The URL must use HTTPS.',
      'The URL must use HTTPS.',
    );
    expect(startErrorInWords(hook)).toMatchObject({ field: 'webhook' });
  });

  it('keeps other errors as sentences without a field', () => {
    expect(
      startErrorInWords(new ServiceError('insufficient_credits', 'Insufficient credits')),
    ).toEqual({ error: 'Insufficient credits.' });
    // Message and details are a sentence each: one full stop between them, whatever either ends
    // with.
    expect(
      startErrorInWords(
        new ServiceError(
          'too_large',
          'File too large',
          'The file is 9 bytes; the limit is 8 bytes.',
        ),
      ),
    ).toEqual({
      error: 'File too large. The file is 9 bytes; the limit is 8 bytes.',
    });
    expect(
      startErrorInWords(new ServiceError('invalid', 'The file is incomplete.', 'upload it again')),
    ).toEqual({ error: 'The file is incomplete. Upload it again.' });
  });
});
