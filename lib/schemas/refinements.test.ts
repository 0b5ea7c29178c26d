import { describe, expect, it } from 'vitest';
import { RefineMaskRequest } from './refinements';

const parse = (body: unknown) => RefineMaskRequest.safeParse(body);
const firstError = (body: unknown) => {
  const r = parse(body);
  if (r.success) throw new Error(`accepted ${JSON.stringify(body)}`);
  return r.error.issues[0]!.message;
};

describe('RefineMaskRequest prompts', () => {
  it('reads a prompt without a mode as text', () => {
    const r = parse({ prompt: { text: 'the dog' } });
    expect(r.success && r.data.prompt).toEqual({ text: 'the dog' });
  });

  it('reads click prompts, include true unless said otherwise', () => {
    const r = parse({
      prompt: {
        mode: 'points',
        time: 1.5,
        points: [
          { x: 10, y: 20 },
          { x: 30.5, y: 40, include: false },
        ],
      },
    });
    expect(r.success && r.data.prompt).toEqual({
      mode: 'points',
      time: 1.5,
      points: [
        { x: 10, y: 20 },
        { x: 30.5, y: 40, include: false },
      ],
    });
  });

  it('refuses every bad click prompt with a message for the user', () => {
    const points = (over: Record<string, unknown>) => ({
      prompt: { mode: 'points', time: 0, points: [{ x: 1, y: 1 }], ...over },
    });
    expect(firstError({ prompt: { mode: 'box' } })).toBe('prompt.mode must be "text" or "points"');
    expect(firstError(points({ time: undefined }))).toMatch(/prompt.time is required/);
    expect(firstError(points({ time: -0.1 }))).toBe('prompt.time must be ≥ 0 seconds');
    expect(firstError(points({ points: [] }))).toBe(
      'prompt.points must be a list of 1 to 20 points',
    );
    expect(firstError(points({ points: Array.from({ length: 21 }, () => ({ x: 1, y: 1 })) }))).toBe(
      'prompt.points must be a list of 1 to 20 points',
    );
    expect(firstError(points({ points: { x: 1, y: 1 } }))).toBe(
      'prompt.points must be a list of 1 to 20 points',
    );
    expect(firstError(points({ points: [{ x: 1 }] }))).toMatch(/x and .y must be numbers ≥ 0/);
    expect(firstError(points({ points: [{ x: 1, y: -2 }] }))).toMatch(
      /x and .y must be numbers ≥ 0/,
    );
    expect(firstError(points({ points: [{ x: 1, y: 1, include: 1 }] }))).toMatch(
      /include must be true/,
    );
    expect(firstError(points({ points: [{ x: 1, y: 1, include: false }] }))).toBe(
      'prompt.points needs at least one point with include: true',
    );
    expect(
      parse(
        points({
          points: Array.from({ length: 20 }, (_, i) => ({ x: i, y: 1, include: i % 2 === 0 })),
        }),
      ).success,
    ).toBe(true);
  });
});
