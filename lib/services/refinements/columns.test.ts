import { describe, expect, it } from 'vitest';
import { promptColumn, statsColumn, type StoredPrompt } from './columns';

describe("the Refinement's JSON columns", () => {
  it('store a text prompt with its concepts and a click prompt with its frame', () => {
    const prompts: StoredPrompt[] = [
      {
        mode: 'text',
        text: 'the dog and hair',
        concepts: [
          { kind: 'object', name: 'dog', classIndex: 16 },
          { kind: 'part', name: 'hair', channel: 2 },
          { kind: 'open', name: 'red kite' },
        ],
      },
      { mode: 'points', time: 0.5, frame: 12, points: [{ x: 10, y: 20, include: true }] },
    ];
    for (const prompt of prompts)
      expect(promptColumn.read(promptColumn.write(prompt))).toEqual(prompt);
    expect(() =>
      promptColumn.read(
        '{"mode":"text","text":"x","concepts":[{"kind":"object","name":"unicorn","classIndex":1}]}',
      ),
    ).toThrow(/Refinement\.promptJson/);
  });

  it('keep the counts beside the seconds', () => {
    const stats = { seconds: 3.5, stages: { decode: 1, fuse: 0.5 }, keys: 4 };
    expect(statsColumn.read(statsColumn.write(stats))).toEqual(stats);
  });
});
