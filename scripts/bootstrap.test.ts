import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBlocker, buildIsCurrent } from './bootstrap.mjs';

// A checkout in a temp folder: a build, then files touched after it.
let dir: string;
const write = (rel: string, ageSeconds = 0) => {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, rel);
  const t = new Date(Date.now() - ageSeconds * 1000);
  fs.utimesSync(p, t, t);
};

function checkout() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-bootstrap-'));
  for (const f of ['app/page.tsx', 'lib/a.ts', 'prisma/schema.prisma', 'package-lock.json']) write(f, 120);
  write('.next/BUILD_ID', 60);
}
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('buildIsCurrent', () => {
  it('keeps the build when only what start-up regenerates is newer (both Prisma clients)', () => {
    checkout();
    write('lib/db/generated/client.ts');
    write('lib/db/generated-postgres/client.ts');
    write('prisma/postgres/schema.prisma');
    expect(buildIsCurrent(dir)).toBe(true);
  });

  it('rebuilds when a source or the schema the clients come from changed, or there is no build', () => {
    checkout();
    write('lib/a.ts');
    expect(buildIsCurrent(dir)).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
    checkout();
    write('prisma/schema.prisma');
    expect(buildIsCurrent(dir)).toBe(false);
    fs.rmSync(path.join(dir, '.next'), { recursive: true });
    expect(buildIsCurrent(dir)).toBe(false);
  });
});

describe('buildBlocker', () => {
  it('refuses a rebuild while a Keyout started from the folder serves its build, not after it is gone', () => {
    checkout();
    expect(buildBlocker(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, '.next/keyout-serving.pid'), String(process.pid));
    expect(buildBlocker(dir)).toMatch(new RegExp(`^Keyout started from this folder \\(pid ${process.pid}\\) is serving the current build`));
    // A marker left by a killed process blocks nothing.
    fs.writeFileSync(path.join(dir, '.next/keyout-serving.pid'), '2147483646');
    expect(buildBlocker(dir)).toBeNull();
  });
});
