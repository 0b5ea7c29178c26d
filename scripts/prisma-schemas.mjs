// The PostgreSQL Prisma schema is derived from the one schema people edit (prisma/schema.prisma,
// SQLite): Prisma allows one datasource provider per schema, and its generated client compiles
// queries for that provider, so each database gets its own schema file and generated client from
// the same models. `node scripts/prisma-schemas.mjs` rewrites the derived file; `--check` only says
// whether it is current (lib/db/schemas.in-process.test.ts runs the same check).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const SOURCE = path.join(root, 'prisma/schema.prisma');
export const POSTGRES = path.join(root, 'prisma/postgres/schema.prisma');

const HEADER = [
  '// GENERATED from prisma/schema.prisma by scripts/prisma-schemas.mjs: edit that file, then run',
  "// `npm run prisma:generate`. Only the provider and the client's output folder differ.",
  '// Migrations: prisma/postgres/migrations (kept in step with prisma/migrations,',
  '// lib/db/schemas.in-process.test.ts).',
  '',
  '',
].join('\n');

/** The PostgreSQL twin of the SQLite schema text. */
export function postgresSchema(source) {
  const out = source
    .replace(/provider = "sqlite"/, 'provider = "postgresql"')
    .replace(
      /output\s*=\s*"\.\.\/lib\/db\/generated"/,
      'output       = "../../lib/db/generated-postgres"',
    );
  if (
    out === source ||
    !out.includes('provider = "postgresql"') ||
    !out.includes('generated-postgres')
  ) {
    throw new Error(
      'prisma/schema.prisma no longer has the datasource provider or ' +
        'client output this script rewrites',
    );
  }
  return HEADER + out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const want = postgresSchema(fs.readFileSync(SOURCE, 'utf8'));
  const have = fs.existsSync(POSTGRES) ? fs.readFileSync(POSTGRES, 'utf8') : '';
  if (process.argv.includes('--check')) {
    if (have !== want) {
      console.error('prisma/postgres/schema.prisma is out of date: run `npm run prisma:generate`.');
      process.exit(1);
    }
  } else if (have !== want) {
    fs.mkdirSync(path.dirname(POSTGRES), { recursive: true });
    fs.writeFileSync(POSTGRES, want);
  }
}
