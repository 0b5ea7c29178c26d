import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBlocker, buildIsCurrent, sourcesHash } from './bootstrap.mjs';

// A checkout in a temp folder with a build stamped with its sources, as build() leaves it.
let dir: string;
const write = (rel: string, text = rel) => {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
};

function checkout() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bootstrap-'));
  for (const f of ['app/page.tsx', 'lib/a.ts', 'prisma/schema.prisma', 'package-lock.json'])
    write(f);
  write('.next/BUILD_ID', 'build');
  write('.next/keyout-build-sources', sourcesHash(dir));
}
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('buildIsCurrent', () => {
  it(
    'keeps the build when files are rewritten unchanged or only ' +
      'what start-up regenerates changed',
    () => {
      checkout();
      // npm install rewriting the lockfile as it was, a fresh checkout: newer times, same bytes.
      write('package-lock.json');
      write('lib/a.ts');
      const later = new Date(Date.now() + 3600_000);
      fs.utimesSync(path.join(dir, 'app/page.tsx'), later, later);
      write('lib/db/generated/client.ts');
      write('lib/db/generated-postgres/client.ts');
      write('prisma/postgres/schema.prisma');
      expect(buildIsCurrent(dir)).toBe(true);
    },
  );

  it(
    'rebuilds when a source, the lockfile or the schema changed, a ' +
      'file was added, or there is no stamped build',
    () => {
      for (const change of [
        () => write('lib/a.ts', 'edited'),
        () => write('package-lock.json', '{"edited":true}'),
        () => write('prisma/schema.prisma', 'model X {}'),
        () => write('components/new.tsx'),
        () => fs.rmSync(path.join(dir, 'lib/a.ts')),
        () => fs.rmSync(path.join(dir, '.next/keyout-build-sources')),
        () => fs.rmSync(path.join(dir, '.next/BUILD_ID')),
      ]) {
        checkout();
        expect(buildIsCurrent(dir)).toBe(true);
        change();
        expect(buildIsCurrent(dir)).toBe(false);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('tells a file moved between folders from the same bytes in place', () => {
    checkout();
    const before = sourcesHash(dir);
    fs.renameSync(path.join(dir, 'lib/a.ts'), path.join(dir, 'app/a.ts'));
    expect(sourcesHash(dir)).not.toBe(before);
  });
});

describe('buildBlocker', () => {
  it(
    'refuses a rebuild while any Keyout started from the folder ' +
      'serves its build, not after they are gone',
    () => {
      checkout();
      expect(buildBlocker(dir)).toBeNull();
      // A marker left by a killed process blocks nothing.
      write('.next/keyout-serving/2147483646', '');
      expect(buildBlocker(dir)).toBeNull();
      write(`.next/keyout-serving/${process.pid}`, '');
      expect(buildBlocker(dir)).toMatch(
        new RegExp(
          `^Keyout started from this folder \\(pid ${process.pid}\\) is serving the current build`,
        ),
      );
    },
  );
});
