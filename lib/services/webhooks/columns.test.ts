import { describe, expect, it } from 'vitest';
import { payloadColumn } from './columns';

describe('WebhookDelivery.payloadJson', () => {
  it('stores the event byte for byte as built, since its text is what is signed and sent', () => {
    const event = {
      event: 'job.completed' as const,
      timestamp: '2026-01-02T03:05:00.000Z',
      job: { id: 'j', filename: 'a.mp4', export_id: null, status: 'completed' },
    };
    const text = payloadColumn.write(event);
    expect(text).toBe(JSON.stringify(event));
    expect(payloadColumn.read(text)).toEqual(event);
  });

  it('refuses an event the spec does not name', () => {
    expect(() =>
      payloadColumn.read(
        '{"event":"job.paused","timestamp":"t","job":{"id":"j","filename":"f","status":"s"}}',
      ),
    ).toThrow(/WebhookDelivery\.payloadJson/);
  });
});
