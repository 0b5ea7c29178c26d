import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MediaError } from './ffmpeg';
import { runEncode } from './run-ffmpeg';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyout-encode-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('runEncode', () => {
  it(
    "keeps ffmpeg's own words out of the message: they go to the " +
      'log under a reference the message quotes',
    async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      // An FFV1 encode with a slice count the encoder refuses (the review saw this text reach a
      // user).
      const err = await runEncode(
        [
          '-f',
          'lavfi',
          '-i',
          'testsrc2=s=64x64:d=0.2',
          '-c:v',
          'ffv1',
          '-level',
          '3',
          '-slices',
          '5',
          path.join(dir, 'x.mkv'),
        ],
        { what: 'the mask' },
      ).catch((e: unknown) => e);
      const calls = log.mock.calls.map((c) => String(c[0]));
      log.mockRestore();
      expect(err).toBeInstanceOf(MediaError);
      const message = (err as MediaError).message;
      expect(message).toMatch(/^Encoding the mask failed \(reference [0-9a-f]{8}\)\.$/);
      const ref = /reference ([0-9a-f]{8})/.exec(message)![1]!;
      const logged = calls.find((l) => l.includes(ref));
      expect(logged).toMatch(/ffv1|slices/i);
    },
  );
});
