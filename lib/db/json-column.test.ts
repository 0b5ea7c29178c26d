import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { jsonColumn, StoredShapeError } from './json-column';

const column = jsonColumn('T.json', z.object({ n: z.number() }));

describe('jsonColumn', () => {
  it('writes what its shape accepts, as given, and reads it back parsed', () => {
    expect(column.write({ n: 1 })).toBe('{"n":1}');
    expect(column.read('{"n":1}')).toEqual({ n: 1 });
    expect(column.readNullable(null)).toBeNull();
  });

  it('refuses to write or read what does not fit, naming the column', () => {
    expect(() => column.write({ n: 'one' } as never)).toThrow(StoredShapeError);
    expect(() => column.read('{"n":"one"}')).toThrow(/^T\.json does not hold what it should/);
    expect(() => column.read('{not json')).toThrow(StoredShapeError);
  });

  it('reads nothing or something that no longer fits as null where a reader tolerates it', () => {
    expect(column.readOrNull(null)).toBeNull();
    expect(column.readOrNull('{"n":"one"}')).toBeNull();
    expect(column.readOrNull('{not json')).toBeNull();
    expect(column.readOrNull('{"n":2}')).toEqual({ n: 2 });
  });
});
