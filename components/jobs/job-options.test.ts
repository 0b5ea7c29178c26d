import { describe, expect, it } from 'vitest';
import { DashboardStartRequest, StartJobRequest } from '../../lib/schemas/jobs';
import { StoredBackground } from '../../lib/schemas/background';
import { backgroundOf, choiceOf, startRequest } from './job-options';

const cases = [
  { kind: 'transparent', format: 'webm_vp9' },
  { kind: 'transparent', format: 'mov_prores' },
  { kind: 'color', color: '#22c55e', container: 'mp4' },
  { kind: 'media', url: 'https://example.com/beach.jpg', mediaType: 'image', container: 'webm' },
  { kind: 'blur', mode: 'background', intensity: 40, container: 'mov' },
] as const;

// Every choice the new-job form can make must be a valid /v1 start request.
describe('startRequest', () => {
  it.each(cases)('$kind is accepted by the API schema', (choice) => {
    const body = startRequest('service-human', choice, '');
    expect(StartJobRequest.safeParse(body).success).toBe(true);
  });

  it('sends no background for the default transparent WebM, and the webhook when given', () => {
    expect(
      startRequest(
        'service-light',
        { kind: 'transparent', format: 'webm_vp9' },
        ' https://example.com/h ',
      ),
    ).toEqual({
      model: 'service-light',
      webhook_url: 'https://example.com/h',
    });
  });
});

describe('an uploaded background image', () => {
  // The form's image choice with the uploaded file's storage key in place of its URL.
  const choice = {
    ...cases[3],
    url: '',
    key: 'jobs/0c7d6a4e-1b1e-4c55-9a57-4d0d3c1d9b1a/background.png',
  };

  it('names the storage key instead of a URL, only in the dashboard request', () => {
    const body = startRequest('service-light', choice, '');
    expect(body.background).toEqual({
      type: 'composition',
      composition: { background_key: choice.key, background_type: 'image', export_format: 'webm' },
    });
    expect(DashboardStartRequest.parse(body).background?.composition?.background_key).toBe(
      choice.key,
    );
    // The public API drops the field, so the request lacks a background URL there.
    const pub = StartJobRequest.safeParse(body);
    expect(pub.success).toBe(false);
    expect(pub.error?.issues[0]?.path).toEqual(['background', 'composition', 'background_url']);
  });
});

describe('choiceOf', () => {
  it('gives back the form choice a start request was made from', () => {
    const choices = [
      { kind: 'transparent', format: 'mov_prores' },
      { kind: 'color', color: '#22c55e', container: 'mp4' },
      {
        kind: 'media',
        url: 'https://example.com/beach.jpg',
        mediaType: 'video',
        container: 'webm',
      },
      { kind: 'blur', mode: 'subject', intensity: 40, container: 'mov' },
    ] as const;
    for (const c of choices) {
      const stored = backgroundOf(c);
      expect(choiceOf(stored ? StoredBackground.parse(stored) : null)).toEqual(c);
    }
    expect(choiceOf(null)).toEqual({ kind: 'transparent', format: 'webm_vp9' });
  });
});
