import { describe, expect, it } from 'vitest';
import { exportIdOf, startedRequest } from './started-request';

describe('the stored start request', () => {
  it('reads stored start requests defensively', () => {
    const read = (backgroundJson: string | null, model: string | null = null) =>
      startedRequest({ backgroundJson, model });
    expect(read(null)).toEqual({ model: 'service-original', background: null, readable: true });
    expect(read('not json')).toMatchObject({ background: null, readable: false });
    expect(read('{"type":"nonsense"}')).toMatchObject({ background: null, readable: false });
    expect(read('{"type":"color","color":"#00FF00"}', 'service-light')).toMatchObject({
      model: 'service-light',
      background: { type: 'color', color: '#00FF00' },
      readable: true,
    });
    expect(read(null, 'service-ultra')).toMatchObject({ readable: false });
  });

  it(
    'names the primary output as export_id only for calls made with ' +
      'a background, as the status record and job.completed do',
    () => {
      const request = (backgroundJson: string | null) =>
        startedRequest({ backgroundJson, model: null });
      expect(
        exportIdOf(request('{"type":"transparent","transparent_format":"webm_vp9"}'), 'e1'),
      ).toBe('e1');
      expect(exportIdOf(request(null), 'e1')).toBeNull();
    },
  );
});
