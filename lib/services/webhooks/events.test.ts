import { describe, expect, it } from 'vitest';
import type { Job } from '../../db/generated/client';
import { eventPayload } from './events';

const job = {
  id: '6f1c3a52-3f0e-4d7c-9d35-0e6b2f0c1a11',
  filename: 'clip.mp4',
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
  lengthSeconds: 7.5,
  outputFormat: 'webm_vp9',
  message: 'The file is not a supported video.',
} as Job;
const at = new Date('2026-01-02T03:05:00.000Z');

describe('webhook payloads (api-v1.md, Events)', () => {
  // job.started says when the job was created; job.failed carries the failure message.
  it.each([
    {
      event: 'job.started',
      fields: { status: 'processing', created_at: '2026-01-02T03:04:05.000Z' },
    },
    {
      event: 'job.failed',
      fields: { status: 'failed', message: 'The file is not a supported video.' },
    },
  ] as const)('$event', ({ event, fields }) => {
    expect(eventPayload(job, event, { at })).toEqual({
      event,
      timestamp: '2026-01-02T03:05:00.000Z',
      job: { id: job.id, filename: 'clip.mp4', ...fields },
    });
  });

  it('job.completed, with the classic background shape', () => {
    expect(
      eventPayload(job, 'job.completed', {
        at,
        completion: {
          exportId: 'e1',
          background: { type: 'transparent', transparent_format: 'webm_vp9' },
        },
      }),
    ).toEqual({
      event: 'job.completed',
      timestamp: '2026-01-02T03:05:00.000Z',
      job: {
        id: job.id,
        export_id: 'e1',
        status: 'completed',
        filename: 'clip.mp4',
        length_seconds: 7.5,
        output_format: 'webm_vp9',
        background: { type: 'transparent', transparent_format: 'webm_vp9' },
      },
    });
  });
});
