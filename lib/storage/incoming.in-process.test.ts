import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDatabase } from '../../tests/support/temp-database';
import { incomingFile, STALE_INCOMING_MS, sweepIncoming } from './incoming';

// DATA_DIR, where incoming uploads are spooled.
tempDatabase('incoming');

const JOB = '0b6c1a5e-1111-4222-8333-944455556666';

describe('sweepIncoming', () => {
  it(
    'removes the files of writers that are gone and of uploads that ' + 'stopped, keeps live ones',
    async () => {
      const live = await incomingFile(JOB);
      fs.writeFileSync(live, 'streaming');
      // A writer that has exited (kill -9 mid-upload): same host, its pid no longer runs.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const orphan = live.replace(`.${process.pid}.`, `.${dead}.`);
      fs.writeFileSync(orphan, 'half an upload');
      // A live writer's file that has not grown for longer than any request may idle.
      const stalled = (await incomingFile(JOB)).replace(/\.incoming$/, '') + '.incoming';
      fs.writeFileSync(stalled, 'stuck');
      const old = (Date.now() - STALE_INCOMING_MS - 60_000) / 1000;
      fs.utimesSync(stalled, old, old);
      const other = path.join(path.dirname(live), 'not-ours.tmp');
      fs.writeFileSync(other, 'x');

      expect((await sweepIncoming()).sort()).toEqual(
        [path.basename(orphan), path.basename(stalled)].sort(),
      );
      expect(fs.existsSync(live)).toBe(true);
      expect(fs.existsSync(other)).toBe(true);
      expect(await sweepIncoming()).toEqual([]);
    },
  );
});
