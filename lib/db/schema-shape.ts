import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * A database's schema as plain data, in the same vocabulary for SQLite and PostgreSQL, so the
 * two migration sets can be compared (lib/db/schemas.in-process.test.ts). Types are Prisma's scalar
 * families (SQLite REAL and PostgreSQL DOUBLE PRECISION are both "float"); defaults are written
 * the same way (`CURRENT_TIMESTAMP`, `'text'`, `false`, `0`). Prisma's own bookkeeping table is
 * left out.
 */
export interface Shape {
  [table: string]: {
    columns: { [name: string]: string };
    primaryKey: string;
    /** Index name → "unique (a, b)" or "(a, b)"; the primary key's own index is left out. */
    indexes: { [name: string]: string };
    /** "column → Table.column on delete cascade" for each foreign key. */
    foreignKeys: string[];
  };
}

const FAMILIES: Record<string, string> = {
  text: 'text',
  integer: 'integer',
  real: 'float',
  'double precision': 'float',
  boolean: 'boolean',
  datetime: 'datetime',
  'timestamp(3)': 'datetime',
  'timestamp(3) without time zone': 'datetime',
};

function family(type: string): string {
  const t = type.toLowerCase();
  return FAMILIES[t] ?? `unknown type ${type}`;
}

function defaultOf(value: string | null): string {
  if (value === null) return '';
  const v = value.replace(/::[a-z ]+$/i, '');
  return ` default ${/^current_timestamp$/i.test(v) ? 'CURRENT_TIMESTAMP' : v}`;
}

const column = (type: string, nullable: boolean, dflt: string | null) =>
  `${family(type)}${nullable ? ' null' : ' not null'}${defaultOf(dflt)}`;

const IGNORED = new Set(['_prisma_migrations']);

export function sqliteShape(file: string): Shape {
  const db = new Database(file, { readonly: true });
  try {
    const shape: Shape = {};
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    for (const { name } of tables) {
      if (IGNORED.has(name)) continue;
      const cols = db.pragma(`table_info("${name}")`) as {
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
      }[];
      const indexes = db.pragma(`index_list("${name}")`) as {
        name: string;
        unique: number;
        origin: string;
      }[];
      const fks = db.pragma(`foreign_key_list("${name}")`) as {
        table: string;
        from: string;
        to: string;
        on_delete: string;
      }[];
      shape[name] = {
        columns: Object.fromEntries(
          cols.map((c) => [c.name, column(c.type, !c.notnull && !c.pk, c.dflt_value)]),
        ),
        primaryKey: cols
          .filter((c) => c.pk)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name)
          .join(', '),
        indexes: Object.fromEntries(
          indexes
            .filter((i) => i.origin !== 'pk')
            .map((i) => {
              const on = (db.pragma(`index_info("${i.name}")`) as { name: string }[])
                .map((c) => c.name)
                .join(', ');
              return [i.name, `${i.unique ? 'unique ' : ''}(${on})`];
            }),
        ),
        foreignKeys: fks
          .map((f) => `${f.from} → ${f.table}.${f.to} on delete ${f.on_delete.toLowerCase()}`)
          .sort(),
      };
    }
    return shape;
  } finally {
    db.close();
  }
}

/** PostgreSQL's `pg_get_constraintdef` of a foreign key: columns, table, its columns, on delete. */
const ON_UPDATE = String.raw`(?: ON UPDATE \w+)?`;
const FOREIGN_KEY = new RegExp(
  String.raw`^FOREIGN KEY \((.+)\) REFERENCES (.+)\((.+)\)` +
    ON_UPDATE +
    String.raw`(?: ON DELETE (.+?))?` +
    ON_UPDATE +
    '$',
);

export async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const q = async <R extends object>(sql: string) => (await client.query<R>(sql)).rows;
    const cols = await q<{
      table_name: string;
      column_name: string;
      data_type: string;
      precision: number | null;
      is_nullable: string;
      column_default: string | null;
    }>(
      `SELECT table_name, column_name, data_type, datetime_precision AS precision, is_nullable,
              column_default
       FROM information_schema.columns WHERE table_schema = current_schema()
       ORDER BY ordinal_position`,
    );
    const pks = await q<{ table: string; columns: string }>(
      `SELECT c.conrelid::regclass::text AS table,
              string_agg(a.attname, ', ' ORDER BY k.n) AS columns
       FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
       WHERE c.contype = 'p' AND c.connamespace = current_schema()::regnamespace
       GROUP BY c.conrelid`,
    );
    const indexes = await q<{ table: string; name: string; unique: boolean; columns: string }>(
      `SELECT t.relname AS table, i.relname AS name, x.indisunique AS unique,
              string_agg(a.attname, ', ' ORDER BY k.n) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE t.relnamespace = current_schema()::regnamespace AND NOT x.indisprimary
       GROUP BY t.relname, i.relname, x.indisunique`,
    );
    const fks = await q<{ table: string; def: string }>(
      `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`,
    );
    const unquote = (s: string) => s.replace(/"/g, '');
    const shape: Shape = {};
    for (const c of cols) {
      if (IGNORED.has(c.table_name)) continue;
      const t = (shape[c.table_name] ??= {
        columns: {},
        primaryKey: '',
        indexes: {},
        foreignKeys: [],
      });
      const type =
        c.data_type === 'timestamp without time zone' ? `timestamp(${c.precision})` : c.data_type;
      t.columns[c.column_name] = column(type, c.is_nullable === 'YES', c.column_default);
    }
    for (const p of pks)
      if (shape[unquote(p.table)]) shape[unquote(p.table)]!.primaryKey = p.columns;
    for (const i of indexes)
      if (shape[i.table])
        shape[i.table]!.indexes[i.name] = `${i.unique ? 'unique ' : ''}(${i.columns})`;
    for (const f of fks) {
      const m = FOREIGN_KEY.exec(unquote(f.def));
      const t = shape[unquote(f.table)];
      if (!t) continue;
      t.foreignKeys.push(
        m ? `${m[1]} → ${m[2]}.${m[3]} on delete ${(m[4] ?? 'no action').toLowerCase()}` : f.def,
      );
    }
    for (const t of Object.values(shape)) t.foreignKeys.sort();
    return shape;
  } finally {
    await client.end();
  }
}

/** Every difference between two shapes, one readable line each (empty when they agree). */
export function differences(a: Shape, b: Shape, names: [string, string]): string[] {
  const out: string[] = [];
  const [an, bn] = names;
  for (const table of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[table];
    const y = b[table];
    if (!x || !y) {
      out.push(`table "${table}" exists only in ${x ? an : bn}`);
      continue;
    }
    for (const col of new Set([...Object.keys(x.columns), ...Object.keys(y.columns)])) {
      if (x.columns[col] !== y.columns[col]) {
        out.push(
          `"${table}"."${col}": ${an} ${x.columns[col] ?? '(missing)'}, ` +
            `${bn} ${y.columns[col] ?? '(missing)'}`,
        );
      }
    }
    if (x.primaryKey !== y.primaryKey)
      out.push(`"${table}" primary key: ${an} (${x.primaryKey}), ${bn} (${y.primaryKey})`);
    for (const idx of new Set([...Object.keys(x.indexes), ...Object.keys(y.indexes)])) {
      if (x.indexes[idx] !== y.indexes[idx]) {
        out.push(
          `index "${idx}" on "${table}": ${an} ` +
            `${x.indexes[idx] ?? '(missing)'}, ${bn} ` +
            `${y.indexes[idx] ?? '(missing)'}`,
        );
      }
    }
    for (const fk of x.foreignKeys)
      if (!y.foreignKeys.includes(fk)) out.push(`"${table}" foreign key ${fk}: only in ${an}`);
    for (const fk of y.foreignKeys)
      if (!x.foreignKeys.includes(fk)) out.push(`"${table}" foreign key ${fk}: only in ${bn}`);
  }
  return out;
}
