import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordSpool } from './record-spool';

describe('RecordSpool', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-spool-'));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(
    'reads records back in any order, refuses a wrong size or slot, ' +
      'and removes its file when closed',
    () => {
      const spool = new RecordSpool(path.join(dir, 'records.raw'), 4);
      expect(spool.append(Uint8Array.of(1, 2, 3, 4))).toBe(0);
      expect(spool.append(Uint8Array.of(5, 6, 7, 8))).toBe(1);
      expect([...spool.read(1)]).toEqual([5, 6, 7, 8]);
      expect([...spool.read(0)]).toEqual([1, 2, 3, 4]);
      expect(() => spool.append(Uint8Array.of(1))).toThrow(/4 bytes/);
      expect(() => spool.read(2)).toThrow(/no record 2/);
      spool.close();
      expect(fs.existsSync(spool.file)).toBe(false);
    },
  );
});
