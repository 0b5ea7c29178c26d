import { describe, expect, it } from 'vitest';
import { sniffContainer } from './upload-source';

const box = (type: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(type, 'latin1'), Buffer.alloc(8)]);

describe('sniffContainer', () => {
  it('recognises the accepted container families from their first bytes', () => {
    expect(sniffContainer(box('ftyp'))).toBe('isobmff');
    expect(sniffContainer(box('moov'))).toBe('isobmff');
    expect(sniffContainer(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBe('matroska');
    expect(sniffContainer(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('AVI ')]))).toBe('avi');
  });

  it('refuses playlists, text, images and empty files', () => {
    for (const head of ['#EXTM3U\n#EXT-X', 'ffconcat version 1.0', '\x89PNG\r\n\x1a\n0000', 'RIFF\0\0\0\0WAVE', '']) {
      expect(sniffContainer(Buffer.from(head, 'latin1'))).toBeNull();
    }
  });
});
