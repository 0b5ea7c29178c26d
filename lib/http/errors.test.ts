import { describe, expect, it, vi } from 'vitest';
import { Background } from '../schemas/background';
import { StartJobRequest } from '../schemas/jobs';
import { ServiceError } from '../errors';
import { toHttpError } from './errors';

const zodError = (schema: { safeParse: (v: unknown) => { error?: unknown } }, value: unknown) =>
  schema.safeParse(value).error;

describe('toHttpError', () => {
  it('maps service error kinds to statuses and keeps the message a string', () => {
    const cases: [ServiceError, number][] = [
      [new ServiceError('invalid', 'x'), 400],
      [new ServiceError('insufficient_credits', 'Insufficient credits'), 402],
      [new ServiceError('not_found', 'Job not found or does not belong to user'), 404],
      [new ServiceError('too_large', 'File too large', 'details'), 413],
      [new ServiceError('rate_limited', 'Rate limit exceeded', undefined, 12), 429],
      [new ServiceError('busy', 'The server is too busy', undefined, 60), 503],
    ];
    for (const [e, status] of cases) {
      const h = toHttpError(e);
      expect(h.status).toBe(status);
      expect(h.message).toBe(e.message);
      expect(h.details).toBe(e.details);
    }
    expect(toHttpError(new ServiceError('rate_limited', 'r', undefined, 12)).headers).toEqual({
      'Retry-After': '12',
    });
  });

  it('shows spec messages verbatim and names the field otherwise', () => {
    const colour = toHttpError(zodError(Background, { type: 'color', color: 'red' }));
    expect(colour.status).toBe(400);
    expect(colour.message).toBe('invalid background colour format (must be a hex colour)');
    expect(colour.details).toBe('color: invalid background colour format (must be a hex colour)');
    const model = toHttpError(zodError(StartJobRequest, { model: 42 }));
    expect(model.message).toMatch(/^Invalid model: /);
  });

  it('hides unexpected errors behind "Internal server error"', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const h = toHttpError(new Error('database exploded at /secret/path'));
    expect(h.status).toBe(500);
    expect(h.message).toBe('Internal server error');
    expect(h.details).toMatch(/^Reference [0-9a-f]{8}: quote it to the operator\.$/);
    expect(h.details).not.toContain('/secret/path');
    const ref = /Reference ([0-9a-f]{8})/.exec(h.details!)![1]!;
    expect(log).toHaveBeenCalledWith(expect.stringContaining(ref), expect.any(Error));
    log.mockRestore();
  });
});
