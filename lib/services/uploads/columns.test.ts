import { describe, expect, it } from 'vitest';
import { stillColumn } from './columns';

describe('Job.stillJson', () => {
  it(
    "stores an image-to-video job's options and reads them back the " +
      'same; nothing for a video job',
    () => {
      const still = {
        durationSeconds: 3,
        fps: 24,
        motion: 'zoom_in' as const,
        model: 'service-light' as const,
        background: { type: 'transparent' as const },
        exports: null,
      };
      expect(stillColumn.readNullable(stillColumn.write(still))).toEqual(still);
      expect(stillColumn.readNullable(null)).toBeNull();
      expect(() => stillColumn.read('{"durationSeconds":3}')).toThrow(/Job\.stillJson/);
    },
  );
});
