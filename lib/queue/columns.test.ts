import { describe, expect, it } from 'vitest';
import { outboxPayloadColumn, queuePayloadColumn } from './columns';

describe("the queue's payload columns", () => {
  it('hold an object and nothing else', () => {
    for (const column of [outboxPayloadColumn, queuePayloadColumn]) {
      expect(column.read(column.write({ jobId: 'j' }))).toEqual({ jobId: 'j' });
      expect(() => column.read('[1]')).toThrow(/payloadJson/);
    }
  });
});
