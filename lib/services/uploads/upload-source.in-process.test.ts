import { describe, expect, it } from 'vitest';
import { ffprobe, MediaError, MediaTimeout } from '../../media/ffmpeg';
import { mediaRefusal, sniffContainer } from './upload-source';

const box = (type: string) =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(type, 'latin1'), Buffer.alloc(8)]);

describe('sniffContainer', () => {
  it('recognises the accepted container families from their first bytes', () => {
    expect(sniffContainer(box('ftyp'))).toBe('isobmff');
    expect(sniffContainer(box('moov'))).toBe('isobmff');
    expect(sniffContainer(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBe('matroska');
    expect(
      sniffContainer(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('AVI ')])),
    ).toBe('avi');
  });

  it('refuses playlists, text, images and empty files', () => {
    for (const head of [
      '#EXTM3U\n#EXT-X',
      'ffconcat version 1.0',
      '\x89PNG\r\n\x1a\n0000',
      'RIFF\0\0\0\0WAVE',
      '',
    ]) {
      expect(sniffContainer(Buffer.from(head, 'latin1'))).toBeNull();
    }
  });
});

describe('mediaRefusal', () => {
  it(
    "refuses a file's fault with its reason, and answers a check " +
      'that ran out of time with busy and a retry hint',
    async () => {
      expect(mediaRefusal(new MediaError('The video has no usable frame rate.'))).toMatchObject({
        kind: 'invalid',
        message: 'The video has no usable frame rate.',
      });
      // A real ffprobe killed at its limit: a timeout, named in words, never the tool's name.
      const timedOut = await ffprobe(
        ['-f', 'lavfi', '-i', 'testsrc2=d=600', '-count_frames', '-show_streams'],
        { timeoutMs: 200, what: 'Probing the video' },
      ).catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(MediaTimeout);
      expect(mediaRefusal(timedOut as MediaTimeout, 'The image ')).toMatchObject({
        kind: 'busy',
        message:
          'The server is too busy to check the upload right now. Upload it again in a minute.',
        details: 'The image Probing the video timed out',
        retryAfterSeconds: 60,
      });
    },
  );
});
