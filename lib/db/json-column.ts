import type { z } from 'zod';

/** A stored JSON column whose text does not fit its shape: a bug or a hand-edited row, named. */
export class StoredShapeError extends Error {
  override name = 'StoredShapeError';
  constructor(column: string, cause: unknown) {
    super(
      `${column} does not hold what it should: ` +
        `${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/**
 * A JSON column's codec: its zod schema is the stored shape. Every read parses the text through
 * it, and every write is checked by it too, so what is written is what a reader will accept.
 * The wing that stores the column owns its codec (lib/services/<domain>/columns.ts).
 */
export interface JsonColumn<T, In = T> {
  /** The column's stored text as its shape; throws StoredShapeError when it does not fit. */
  read(text: string): T;
  /** read, for a column that may hold nothing (null). */
  readNullable(text: string | null): T | null;
  /** The same, or null when the column holds nothing or something that no longer fits. */
  readOrNull(text: string | null): T | null;
  write(value: In): string;
}

export function jsonColumn<S extends z.ZodType>(
  column: string,
  schema: S,
): JsonColumn<z.output<S>, z.input<S>> {
  const parse = (text: string) => schema.safeParse(JSON.parse(text));
  return {
    read(text) {
      let parsed;
      try {
        parsed = parse(text);
      } catch (e) {
        throw new StoredShapeError(column, e);
      }
      if (!parsed.success) throw new StoredShapeError(column, parsed.error);
      return parsed.data;
    },
    readNullable(text) {
      return text === null ? null : this.read(text);
    },
    readOrNull(text) {
      if (!text) return null;
      try {
        return parse(text).data ?? null;
      } catch {
        return null;
      }
    },
    write(value) {
      // Checked, then stored as given: the stored text stays exactly what the caller built.
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw new StoredShapeError(column, parsed.error);
      return JSON.stringify(value);
    },
  };
}
