import { describe, expect, it } from 'vitest';
import { StartJobRequest } from '../../lib/schemas/jobs';
import { backgroundOf, choiceOf, startRequest } from './job-options';

// Every choice the new-job form can make must be a valid /v1 start request.
describe('startRequest', () => {
  const cases = [
    { kind: 'transparent', format: 'webm_vp9' },
    { kind: 'transparent', format: 'mov_prores' },
    { kind: 'color', color: '#22c55e', container: 'mp4' },
    { kind: 'media', url: 'https://example.com/beach.jpg', mediaType: 'image', container: 'webm' },
    { kind: 'blur', mode: 'background', intensity: 40, container: 'mov' },
  ] as const;

  it.each(cases)('$kind is accepted by the API schema', (choice) => {
    const body = startRequest('service-human', choice, '');
    expect(StartJobRequest.safeParse(body).success).toBe(true);
  });

  it('sends no background for the default transparent WebM, and the webhook when given', () => {
    expect(startRequest('service-light', { kind: 'transparent', format: 'webm_vp9' }, ' https://example.com/h ')).toEqual({
      model: 'service-light',
      webhook_url: 'https://example.com/h',
    });
  });
});

describe('choiceOf', () => {
  it('gives back the form choice a start request was made from', () => {
    const choices = [
      { kind: 'transparent', format: 'mov_prores' },
      { kind: 'color', color: '#22c55e', container: 'mp4' },
      { kind: 'media', url: 'https://example.com/beach.jpg', mediaType: 'video', container: 'webm' },
      { kind: 'blur', mode: 'subject', intensity: 40, container: 'mov' },
    ] as const;
    for (const c of choices) expect(choiceOf(backgroundOf(c))).toEqual(c);
    expect(choiceOf(null)).toEqual({ kind: 'transparent', format: 'webm_vp9' });
  });
});
